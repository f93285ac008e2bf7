package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
)

// batches is Anthropic's Message Batches API: the requests are sent at
// once (POST /v1/messages/batches), the batch looked at (GET
// /v1/messages/batches/{id}), and once it has ended its results read from
// its results_url, a JSON Lines file.
//
// A message batch keeps no label of the client's, so a labeled batch is
// found by what it does keep: when it was created, how many requests it
// holds (request_counts), and, once it has ended, the custom_id of each
// result, every one of which begins with the label's nonce (the host
// makes each request's ID so, judge.LabeledItemID). Find lists the
// batches (GET /v1/messages/batches, newest first) back to a little
// before the label was kept.
type batches struct{}

// skew is how far behind the host's clock the provider's may be: Find
// looks at the batches created up to this long before the label was
// kept. A wider window costs only a longer look, since a batch is taken
// only on its results' custom ids.
const skew = 15 * time.Minute

// minNonce is the shortest nonce Find looks for (64 bits in hex): a
// shorter one could begin someone else's custom ids by chance.
const minNonce = 16

// listLimit is how many batches a page of the list holds (the API takes
// 1 to 1,000), and maxListPages how many pages Find reads at most.
const (
	listLimit    = 100
	maxListPages = 20
)

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
	CreatedAt        string  `json:"created_at"`
	ResultsURL       *string `json:"results_url"`
	RequestCounts    *struct {
		Processing int `json:"processing"`
		Succeeded  int `json:"succeeded"`
		Errored    int `json:"errored"`
		Canceled   int `json:"canceled"`
		Expired    int `json:"expired"`
	} `json:"request_counts"`
}

// requests is how many requests the batch holds, -1 when it does not
// say.
func (b messageBatch) requests() int {
	c := b.RequestCounts
	if c == nil {
		return -1
	}
	return c.Processing + c.Succeeded + c.Errored + c.Canceled + c.Expired
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

// SubmitLabeled creates the batch: the label is already at the head of
// every custom_id, and the API keeps nothing more.
func (b batches) SubmitLabeled(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, reqs []httpjudge.BatchRequest, _ string) (string, error) {
	return b.Submit(ctx, e, d, reqs)
}

// Find lists the message batches, newest first, back to skew before the
// label was kept, for one of label.Items requests (any number when 0)
// whose results' custom ids all begin with the nonce. A batch of that
// size that has not ended may be it, and its custom ids cannot be read
// yet: unless another is proven, the answer is then pending.
func (b batches) Find(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, label judge.BatchLabel) (judge.BatchFound, error) {
	if len(label.Nonce) < minNonce {
		return judge.BatchFound{}, nil // too short to tell a batch by
	}
	var from time.Time
	if !label.Since.IsZero() {
		from = label.Since.Add(-skew)
	}
	pageURL := func(after string) string {
		u := fmt.Sprintf("%s/v1/messages/batches?limit=%d", e.BaseURL, listLimit)
		if after != "" {
			u += "&after_id=" + url.QueryEscape(after)
		}
		return u
	}
	var found judge.BatchFound
	err := httpjudge.EachListed(ctx, e, d, "message batches", maxListPages, pageURL, func(mb messageBatch) (bool, error) {
		if at, err := time.Parse(time.RFC3339, mb.CreatedAt); err == nil && at.Before(from) {
			return true, nil // older ones follow
		}
		if label.Items > 0 && mb.requests() != label.Items {
			return false, nil
		}
		if mb.ProcessingStatus != "ended" {
			found.Pending = true
			return false, nil
		}
		ok, err := b.labeled(ctx, e, d, mb, label)
		if ok {
			found = judge.BatchFound{ID: mb.ID}
		}
		return ok, err
	})
	if err != nil {
		return judge.BatchFound{}, err
	}
	return found, nil
}

// labeled reports whether the ended batch mb is the one label names:
// every custom_id of its results begins with the nonce, and it has as
// many as the label says. A batch whose results are gone (archived, or
// past their keeping) proves nothing.
func (b batches) labeled(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, mb messageBatch, label judge.BatchLabel) (bool, error) {
	if mb.ResultsURL == nil || *mb.ResultsURL == "" {
		return false, nil
	}
	doc, err := b.results(ctx, e, d, mb)
	if err != nil {
		return false, err
	}
	n := 0
	mine := true
	err = httpjudge.Lines(doc, func(line []byte) error {
		var l struct {
			CustomID string `json:"custom_id"`
		}
		if json.Unmarshal(line, &l) != nil || !strings.HasPrefix(l.CustomID, label.Nonce) {
			mine = false
		}
		n++
		return nil
	})
	if err != nil {
		return false, err
	}
	return mine && n > 0 && (label.Items == 0 || n == label.Items), nil
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

// results reads the JSON Lines results of the ended batch obj from its
// results_url, which must be on the API's own host: the key goes with
// the request.
func (batches) results(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, obj messageBatch) ([]byte, error) {
	id := obj.ID
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
	return r.Body, nil
}

// Collect reads the results from the batch's results_url, which must be
// on the API's own host: the key goes with the request.
func (b batches) Collect(ctx context.Context, e *httpjudge.Endpoint, d httpjudge.Dialect, id string) ([]judge.BatchResult, error) {
	obj, err := b.retrieve(ctx, e, d, id)
	if err != nil {
		return nil, err
	}
	obj.ID = id
	doc, err := b.results(ctx, e, d, obj)
	if err != nil {
		return nil, err
	}
	var out []judge.BatchResult
	err = httpjudge.Lines(doc, func(line []byte) error {
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
				res.Unanswered = msg // the provider's trouble: asked again
			default:
				res.Err = msg
			}
			out = append(out, res)
		default: // canceled, expired: never answered, so asked again
			out = append(out, judge.BatchResult{ID: l.CustomID, Unanswered: fmt.Sprintf("the batch ended before the question was answered [%s]", l.Result.Type)})
		}
		return nil
	})
	return out, err
}
