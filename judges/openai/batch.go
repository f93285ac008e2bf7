package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
)

// batchEndpoint is what every request of a batch asks: a chat completion.
const batchEndpoint = "/v1/chat/completions"

// batches is the OpenAI Batch API: the requests are uploaded as a JSON
// Lines file (POST /files, purpose "batch"), a batch is created from it
// (POST /batches), looked at (GET /batches/{id}), and its output and
// error files read (GET /files/{id}/content) once it has ended.
type batches struct{}

// batchLine is one line of a batch's input file.
type batchLine struct {
	CustomID string `json:"custom_id"`
	Method   string `json:"method"`
	URL      string `json:"url"`
	Body     any    `json:"body"`
}

// batchObject is the part of a batch object the judge reads.
type batchObject struct {
	ID            string `json:"id"`
	Status        string `json:"status"`
	OutputFileID  string `json:"output_file_id"`
	ErrorFileID   string `json:"error_file_id"`
	RequestCounts *struct {
		Total     int `json:"total"`
		Completed int `json:"completed"`
		Failed    int `json:"failed"`
	} `json:"request_counts"`
	Errors *struct {
		Data []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Line    *int   `json:"line"`
		} `json:"data"`
	} `json:"errors"`
}

// outputLine is one line of a batch's output or error file.
type outputLine struct {
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// nonceKey is the metadata key a batch's label goes under.
const nonceKey = "rubric_nonce"

// maxListPages bounds the pages of batches Find reads (100 a page,
// newest first): the batch it looks for was created by the run before,
// so it is among the newest.
const maxListPages = 10

// Submit uploads the requests as a batch input file and creates the
// batch from it.
func (b batches) Submit(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, reqs []httpjudge.BatchRequest) (string, error) {
	return b.SubmitLabeled(ctx, e, d, reqs, "")
}

// Find lists the batches, newest first, for the one whose metadata
// carries the label's nonce: the metadata proves it, so neither when the
// batch was created nor its size matters.
func (batches) Find(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, label judge.BatchLabel) (judge.BatchFound, error) {
	id, err := findByMetadata(ctx, e, d, label.Nonce)
	return judge.BatchFound{ID: id}, err
}

// findByMetadata lists the batches, newest first, for the one whose
// metadata carries nonce.
func findByMetadata(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, nonce string) (string, error) {
	type listed struct {
		ID       string            `json:"id"`
		Metadata map[string]string `json:"metadata"`
	}
	pageURL := func(after string) string {
		u := e.BaseURL + "/batches?limit=100"
		if after != "" {
			u += "&after=" + url.QueryEscape(after)
		}
		return u
	}
	id := ""
	err := httpjudge.EachListed(ctx, e, d, "batches", maxListPages, pageURL, func(b listed) (bool, error) {
		if b.Metadata[nonceKey] == nonce {
			id = b.ID
			return true, nil
		}
		return false, nil
	})
	return id, err
}

// SubmitLabeled uploads the requests as a batch input file and creates
// the batch from it, with nonce in its metadata when it is not empty.
func (batches) SubmitLabeled(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, reqs []httpjudge.BatchRequest, nonce string) (string, error) {
	var lines bytes.Buffer
	enc := json.NewEncoder(&lines)
	enc.SetEscapeHTML(false)
	for _, r := range reqs {
		if err := enc.Encode(batchLine{CustomID: r.ID, Method: http.MethodPost, URL: batchEndpoint, Body: r.Body}); err != nil {
			return "", fmt.Errorf("encoding the batch for %s: %w", e.Client.Host, err)
		}
	}
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	if err := mw.WriteField("purpose", "batch"); err != nil {
		return "", err
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="rubric-batch.jsonl"`)
	h.Set("Content-Type", "application/jsonl")
	part, err := mw.CreatePart(h)
	if err != nil {
		return "", err
	}
	if _, err := part.Write(lines.Bytes()); err != nil {
		return "", err
	}
	if err := mw.Close(); err != nil {
		return "", err
	}
	r, err := e.Client.Send(ctx, http.MethodPost, e.BaseURL+"/files", e.Header, mw.FormDataContentType(), form.Bytes(), httpjudge.MaxBody)
	if err != nil {
		return "", err
	}
	if !r.OK() {
		return "", fmt.Errorf("uploading the batch's input file: %w", e.Fail(d, r))
	}
	var file struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(r.Body, &file) != nil || file.ID == "" {
		return "", fmt.Errorf("%s answered the upload of the batch's input file without a file id; it begins %s", e.Client.Host, e.Client.Snippet(r.Body))
	}
	create := map[string]any{"input_file_id": file.ID, "endpoint": batchEndpoint, "completion_window": "24h"}
	if nonce != "" {
		create["metadata"] = map[string]string{nonceKey: nonce}
	}
	r, err = e.Client.Post(ctx, e.BaseURL+"/batches", e.Header, create)
	if err != nil {
		return "", err
	}
	if !r.OK() {
		return "", fmt.Errorf("creating the batch: %w", e.Fail(d, r))
	}
	var b batchObject
	if json.Unmarshal(r.Body, &b) != nil || b.ID == "" {
		return "", fmt.Errorf("%s answered the creation of a batch without a batch id; it begins %s", e.Client.Host, e.Client.Snippet(r.Body))
	}
	return b.ID, nil
}

// retrieve reads the batch object.
func (batches) retrieve(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, id string) (batchObject, error) {
	var b batchObject
	r, err := e.Client.Get(ctx, e.BaseURL+"/batches/"+url.PathEscape(id), e.Header, httpjudge.MaxBody)
	if err != nil {
		return b, err
	}
	if !r.OK() {
		return b, fmt.Errorf("looking at the batch: %w", e.Fail(d, r))
	}
	if err := json.Unmarshal(r.Body, &b); err != nil || b.Status == "" {
		return b, fmt.Errorf("%s answered with no batch status; it begins %s", e.Client.Host, e.Client.Snippet(r.Body))
	}
	return b, nil
}

// Poll reads the batch's status: it has ended once completed, expired,
// cancelled or failed.
func (b batches) Poll(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, id string) (judge.BatchStatus, error) {
	obj, err := b.retrieve(ctx, e, d, id)
	if err != nil {
		return judge.BatchStatus{}, err
	}
	st := judge.BatchStatus{State: obj.Status}
	if c := obj.RequestCounts; c != nil {
		st.Done, st.Total = c.Completed+c.Failed, c.Total
	}
	switch obj.Status {
	case "completed", "expired", "cancelled":
		st.Ended = true
	case "failed":
		st.Ended = true
		var why []string
		if obj.Errors != nil {
			for _, e := range obj.Errors.Data {
				w := e.Message
				if e.Line != nil {
					w = fmt.Sprintf("line %d: %s", *e.Line, w)
				}
				why = append(why, strings.TrimSpace(w+" ["+e.Code+"]"))
			}
		}
		if len(why) == 0 {
			why = []string{"the provider gave no reason"}
		}
		st.Failed = strings.Join(why, "; ")
	}
	return st, nil
}

// Collect reads the batch's output file and error file.
func (b batches) Collect(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, id string) ([]judge.BatchResult, error) {
	obj, err := b.retrieve(ctx, e, d, id)
	if err != nil {
		return nil, err
	}
	var out []judge.BatchResult
	for _, file := range []string{obj.OutputFileID, obj.ErrorFileID} {
		if file == "" {
			continue
		}
		r, err := e.Client.Get(ctx, e.BaseURL+"/files/"+url.PathEscape(file)+"/content", e.Header, httpjudge.MaxResults)
		if err != nil {
			return nil, err
		}
		if !r.OK() {
			return nil, fmt.Errorf("reading the batch's file %s: %w", file, e.Fail(d, r))
		}
		err = httpjudge.Lines(r.Body, func(line []byte) error {
			var l outputLine
			if err := json.Unmarshal(line, &l); err != nil || l.CustomID == "" {
				return fmt.Errorf("the batch's file %s from %s holds a line that is not a batch result; it begins %s", file, e.Client.Host, e.Client.Snippet(line))
			}
			out = append(out, result(e, d, l))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// result reads one line of an output or error file.
func result(e *httpjudge.Endpoint, d httpjudge.Dialect, l outputLine) judge.BatchResult {
	res := judge.BatchResult{ID: l.CustomID}
	switch {
	case l.Error != nil && (l.Response == nil || l.Response.StatusCode == 0):
		switch l.Error.Code {
		case "batch_expired", "batch_cancelled":
			// Never asked: it goes out again.
			res.Unanswered = fmt.Sprintf("the batch ended before the question was answered [%s]", l.Error.Code)
		default:
			res.Err = fmt.Sprintf("%s [%s]", l.Error.Message, l.Error.Code)
		}
	case l.Response == nil:
		res.Unanswered = "the batch's result has neither a response nor an error"
	case l.Response.StatusCode == http.StatusOK:
		return httpjudge.ReadResult(e, d, l.CustomID, l.Response.Body)
	default:
		f := d.Failure(e, &httpjudge.Reply{Status: l.Response.StatusCode, Header: http.Header{}, Body: l.Response.Body})
		msg := fmt.Sprintf("%s: %s", httpjudge.StatusLine(l.Response.StatusCode), f.Message)
		if httpjudge.Transient(l.Response.StatusCode) {
			res.Unanswered = msg // the provider's trouble: asked again
		} else {
			res.Err = msg
		}
	}
	return res
}
