package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
)

// batches is Anthropic's Message Batches API: the requests are sent at
// once (POST /v1/messages/batches), the batch looked at (GET
// /v1/messages/batches/{id}), and once it has ended its results read from
// its results_url, a JSON Lines file.
type batches struct{}

// batchRequest is one request of a batch.
type batchRequest struct {
	CustomID string `json:"custom_id"`
	Params   any    `json:"params"`
}

// messageBatch is the part of a message batch the judge reads.
type messageBatch struct {
	ID               string  `json:"id"`
	Type             string  `json:"type"`
	ProcessingStatus string  `json:"processing_status"`
	ResultsURL       *string `json:"results_url"`
	RequestCounts    *struct {
		Processing int `json:"processing"`
		Succeeded  int `json:"succeeded"`
		Errored    int `json:"errored"`
		Canceled   int `json:"canceled"`
		Expired    int `json:"expired"`
	} `json:"request_counts"`
}

// resultLine is one line of a batch's results.
type resultLine struct {
	CustomID string `json:"custom_id"`
	Result   struct {
		Type    string          `json:"type"`
		Message json.RawMessage `json:"message"`
		Error   *struct {
			Error apiError `json:"error"`
		} `json:"error"`
	} `json:"result"`
}

// Submit creates the batch with every request in it.
func (batches) Submit(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, reqs []httpjudge.BatchRequest) (string, error) {
	body := struct {
		Requests []batchRequest `json:"requests"`
	}{Requests: make([]batchRequest, len(reqs))}
	for i, r := range reqs {
		body.Requests[i] = batchRequest{CustomID: r.ID, Params: r.Body}
	}
	r, err := e.Client.Post(ctx, e.BaseURL+"/v1/messages/batches", e.Header, body)
	if err != nil {
		return "", err
	}
	if !r.OK() {
		return "", fmt.Errorf("creating the message batch: %w", e.Fail(d, r))
	}
	var b messageBatch
	if json.Unmarshal(r.Body, &b) != nil || b.ID == "" {
		return "", fmt.Errorf("%s answered the creation of a message batch without its id; it begins %s", e.Client.Host, e.Client.Snippet(r.Body))
	}
	return b.ID, nil
}

// retrieve reads the message batch.
func (batches) retrieve(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, id string) (messageBatch, error) {
	var b messageBatch
	r, err := e.Client.Get(ctx, e.BaseURL+"/v1/messages/batches/"+url.PathEscape(id), e.Header, httpjudge.MaxBody)
	if err != nil {
		return b, err
	}
	if !r.OK() {
		return b, fmt.Errorf("looking at the message batch: %w", e.Fail(d, r))
	}
	if err := json.Unmarshal(r.Body, &b); err != nil || b.ProcessingStatus == "" {
		return b, fmt.Errorf("%s answered with no processing status of the batch; it begins %s", e.Client.Host, e.Client.Snippet(r.Body))
	}
	return b, nil
}

// Poll reads the batch's processing status: it has ended once "ended".
func (b batches) Poll(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, id string) (judge.BatchStatus, error) {
	obj, err := b.retrieve(ctx, e, d, id)
	if err != nil {
		return judge.BatchStatus{}, err
	}
	st := judge.BatchStatus{State: obj.ProcessingStatus, Ended: obj.ProcessingStatus == "ended"}
	if c := obj.RequestCounts; c != nil {
		st.Done = c.Succeeded + c.Errored + c.Canceled + c.Expired
		st.Total = st.Done + c.Processing
	}
	return st, nil
}

// Collect reads the results from the batch's results_url, which must be
// on the API's own host: the key goes with the request.
func (b batches) Collect(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, id string) ([]judge.BatchResult, error) {
	obj, err := b.retrieve(ctx, e, d, id)
	if err != nil {
		return nil, err
	}
	if obj.ResultsURL == nil || *obj.ResultsURL == "" {
		return nil, fmt.Errorf("the message batch %s has no results_url (processing status %q)", id, obj.ProcessingStatus)
	}
	at, err := url.Parse(*obj.ResultsURL)
	base, berr := url.Parse(e.BaseURL)
	if err != nil || berr != nil || at.Scheme != base.Scheme || at.Host != base.Host {
		return nil, fmt.Errorf("the message batch %s names its results at %s, not on %s: refusing to send the key elsewhere", id, e.Client.Redact(*obj.ResultsURL), e.Client.Host)
	}
	r, err := e.Client.Get(ctx, at.String(), e.Header, httpjudge.MaxResults)
	if err != nil {
		return nil, err
	}
	if !r.OK() {
		return nil, fmt.Errorf("reading the message batch's results: %w", e.Fail(d, r))
	}
	var out []judge.BatchResult
	err = httpjudge.Lines(r.Body, func(line []byte) error {
		var l resultLine
		if err := json.Unmarshal(line, &l); err != nil || l.CustomID == "" {
			return fmt.Errorf("the results of the message batch %s hold a line that is not a result; it begins %s", id, e.Client.Snippet(line))
		}
		switch l.Result.Type {
		case "succeeded":
			out = append(out, httpjudge.ReadResult(e, d, l.CustomID, l.Result.Message))
		case "errored":
			res := judge.BatchResult{ID: l.CustomID}
			var ae apiError
			if l.Result.Error != nil {
				ae = l.Result.Error.Error
			}
			msg := fmt.Sprintf("%s [%s]", ae.Message, ae.Type)
			switch ae.Type {
			case "overloaded_error", "api_error", "rate_limit_error":
				res.Unreadable = msg // the provider's trouble: asked again
			default:
				res.Err = msg
			}
			out = append(out, res)
		default: // canceled, expired: never answered, so asked again
			out = append(out, judge.BatchResult{ID: l.CustomID, Unreadable: fmt.Sprintf("the batch ended before the question was answered [%s]", l.Result.Type)})
		}
		return nil
	})
	return out, err
}
