package httpjudge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/scrub"
)

// MaxResults bounds a batch's results file: thousands of answers, far
// below what would hurt the plugin process.
const MaxResults = 256 << 20

// BatchAPI is a provider's batch API as a judge speaks it: the requests
// are the bodies the dialect makes for Ask, and each result's reply is
// read by the dialect's Answer, so that an answer in a batch is read
// exactly as one asked alone.
type BatchAPI interface {
	// Submit sends the requests as one batch and returns its id.
	Submit(ctx context.Context, e *Endpoint, d Dialect, reqs []BatchRequest) (string, error)
	// Poll says how the batch is getting on.
	Poll(ctx context.Context, e *Endpoint, d Dialect, id string) (judge.BatchStatus, error)
	// Collect reads an ended batch's results.
	Collect(ctx context.Context, e *Endpoint, d Dialect, id string) ([]judge.BatchResult, error)
}

// LabeledBatchAPI is a BatchAPI whose batches can be found again by the
// label they were submitted with (judge.BatchFinder): OpenAI's Batch API
// keeps the label in a batch's metadata; Anthropic's Message Batches
// keep none, so its judge finds a batch by when it was created, its
// size, and the label at the head of its results' custom ids.
type LabeledBatchAPI interface {
	BatchAPI
	// SubmitLabeled is Submit of a batch labeled with nonce: each
	// request's ID begins with it (judge.LabeledItemID), and the API keeps
	// it with the batch where it can.
	SubmitLabeled(ctx context.Context, e *Endpoint, d Dialect, reqs []BatchRequest, nonce string) (string, error)
	// Find looks for the batch submitted with the label's nonce (see
	// judge.BatchFinder.FindBatch).
	Find(ctx context.Context, e *Endpoint, d Dialect, label judge.BatchLabel) (judge.BatchFound, error)
}

// BatchRequest is one request of a batch: its item's ID and the body
// the dialect made.
type BatchRequest struct {
	ID   string
	Body any
}

// SubmitBatch implements judge.Batcher: the dialect's request for each
// question, sent as one batch through the API's batch endpoints.
func (j *Judge) SubmitBatch(ctx context.Context, items []judge.BatchItem) (string, error) {
	return j.submit(ctx, items, "")
}

// LabelsBatches reports whether the judge's batch API finds a batch by
// its label (LabeledBatchAPI): only then do SubmitLabeledBatch and
// FindBatch work.
func (j *Judge) LabelsBatches() bool {
	_, ok := j.api.Batch.(LabeledBatchAPI)
	return ok
}

// SubmitLabeledBatch implements judge.BatchFinder for a LabeledBatchAPI.
func (j *Judge) SubmitLabeledBatch(ctx context.Context, items []judge.BatchItem, nonce string) (string, error) {
	if !j.LabelsBatches() {
		return "", fmt.Errorf("the %s judge's batches carry no label", j.api.Name)
	}
	return j.submit(ctx, items, nonce)
}

// FindBatch implements judge.BatchFinder for a LabeledBatchAPI.
func (j *Judge) FindBatch(ctx context.Context, label judge.BatchLabel) (judge.BatchFound, error) {
	c, err := j.batch()
	if err != nil {
		return judge.BatchFound{}, err
	}
	l, ok := j.api.Batch.(LabeledBatchAPI)
	if !ok {
		return judge.BatchFound{}, fmt.Errorf("the %s judge's batches carry no label to find them by", j.api.Name)
	}
	found, err := l.Find(ctx, c.endpoint, c.dialect, label)
	return found, scrub.Error(err, c.endpoint.Client.Redact)
}

// submit sends the items as one batch, labeled with nonce when it is
// not empty.
func (j *Judge) submit(ctx context.Context, items []judge.BatchItem, nonce string) (string, error) {
	c, err := j.batch()
	if err != nil {
		return "", err
	}
	reqs := make([]BatchRequest, len(items))
	for i, it := range items {
		q := it.Question
		schema := strings.TrimSpace(string(q.AnswerSchema))
		if !json.Valid([]byte(schema)) {
			return "", fmt.Errorf("the question %s about %q has an answer schema that is not JSON", q.Kind, q.Subject)
		}
		reqs[i] = BatchRequest{ID: it.ID, Body: c.dialect.Request(q, json.RawMessage(schema))}
	}
	var id string
	if nonce != "" {
		id, err = j.api.Batch.(LabeledBatchAPI).SubmitLabeled(ctx, c.endpoint, c.dialect, reqs, nonce)
	} else {
		id, err = j.api.Batch.Submit(ctx, c.endpoint, c.dialect, reqs)
	}
	return id, scrub.Error(err, c.endpoint.Client.Redact)
}

// PollBatch implements judge.Batcher.
func (j *Judge) PollBatch(ctx context.Context, id string) (judge.BatchStatus, error) {
	c, err := j.batch()
	if err != nil {
		return judge.BatchStatus{}, err
	}
	st, err := j.api.Batch.Poll(ctx, c.endpoint, c.dialect, id)
	st.Failed = c.endpoint.Client.Redact(st.Failed)
	return st, scrub.Error(err, c.endpoint.Client.Redact)
}

// CollectBatch implements judge.Batcher: every answer and message is
// cleared of the judge's secrets, as Ask's are; an answer without a
// model is given the one asked for.
func (j *Judge) CollectBatch(ctx context.Context, id string) ([]judge.BatchResult, error) {
	c, err := j.batch()
	if err != nil {
		return nil, err
	}
	rs, err := j.api.Batch.Collect(ctx, c.endpoint, c.dialect, id)
	if err != nil {
		return nil, scrub.Error(err, c.endpoint.Client.Redact)
	}
	s := scrub.New(c.endpoint.Client.Secrets...)
	for i := range rs {
		r := &rs[i]
		if r.Answer.Model == "" {
			r.Answer.Model = c.endpoint.Model
		}
		r.Answer = s.Answer(r.Answer)
		r.Unreadable, r.Unanswered, r.Err = c.endpoint.Client.Redact(r.Unreadable), c.endpoint.Client.Redact(r.Unanswered), c.endpoint.Client.Redact(r.Err)
	}
	return rs, nil
}

// batch is the judge's configuration, when it has a batch API.
func (j *Judge) batch() (*configured, error) {
	if j.api.Batch == nil {
		return nil, fmt.Errorf("the %s judge does not answer in batches", j.api.Name)
	}
	c := j.cfg.Load()
	if c == nil {
		return nil, fmt.Errorf("the %s judge was asked for a batch before it was configured", j.api.Name)
	}
	return c, nil
}

// ReadResult reads one reply of a batch as an Answer through the
// dialect: a reply it cannot read is Unreadable (asked again), any other
// error the item's Err.
func ReadResult(e *Endpoint, d Dialect, id string, body []byte) judge.BatchResult {
	a, err := d.Answer(e, body)
	var ur *judge.UnreadableError
	switch {
	case errors.As(err, &ur):
		return judge.BatchResult{ID: id, Answer: a, Unreadable: ur.Msg}
	case err != nil:
		return judge.BatchResult{ID: id, Answer: a, Err: err.Error()}
	}
	return judge.BatchResult{ID: id, Answer: a}
}

// Lines calls f with each non-blank line of a JSON Lines document.
func Lines(doc []byte, f func(line []byte) error) error {
	sc := bufio.NewScanner(bytes.NewReader(doc))
	sc.Buffer(make([]byte, 0, 64<<10), MaxBody)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := f(line); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Fail words an error reply to a batch call as Ask would word it.
func (e *Endpoint) Fail(d Dialect, r *Reply) error {
	return e.Client.Refused(d.Failure(e, r))
}

// EachListed reads a provider's list of batches (what names it in
// errors: "batches", "message batches"), newest first, a page at a time
// up to pages pages: pageURL(after) is the address of the page after the
// batch id after, the first page's when after is "". visit sees each
// batch of a page, decoded into T, until it says stop or the list ends.
func EachListed[T any](ctx context.Context, e *Endpoint, d Dialect, what string, pages int, pageURL func(after string) string, visit func(T) (stop bool, err error)) error {
	after := ""
	for range pages {
		r, err := e.Client.Get(ctx, pageURL(after), e.Header, MaxBody)
		if err != nil {
			return err
		}
		if !r.OK() {
			return fmt.Errorf("listing the %s: %w", what, e.Fail(d, r))
		}
		var page struct {
			Data    []T     `json:"data"`
			HasMore bool    `json:"has_more"`
			LastID  *string `json:"last_id"`
		}
		if err := json.Unmarshal(r.Body, &page); err != nil {
			return fmt.Errorf("%s answered the list of %s with something else; it begins %s", e.Client.Host, what, e.Client.Snippet(r.Body))
		}
		for _, b := range page.Data {
			if stop, err := visit(b); stop || err != nil {
				return err
			}
		}
		if !page.HasMore || page.LastID == nil || *page.LastID == "" {
			return nil
		}
		after = *page.LastID
	}
	return nil
}
