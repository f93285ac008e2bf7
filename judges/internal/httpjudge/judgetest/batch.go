package judgetest

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/fakebatch"
)

// BatchCase is what is particular to one hosted judge's batch API.
type BatchCase struct {
	// New returns an unconfigured judge.
	New func() judge.Judge
	// BaseURL is the base_url option for the fake API served at url.
	BaseURL func(url string) string
}

// batcher is the batch side of c's judge, served over the plugin
// protocol and configured to ask the fake at url.
func batcher(t *testing.T, c BatchCase, url string) judge.Batcher {
	t.Helper()
	jc := Host(t, c.New())
	if _, err := jc.Configure(context.Background(), judge.Config{Model: "gpt-test", Options: map[string]string{"base_url": c.BaseURL(url)}}); err != nil {
		t.Fatal(err)
	}
	b, ok := jc.Batcher()
	if !ok {
		t.Fatalf("the judge does not advertise %q: capabilities %v", judge.CapabilityBatch, jc.Capabilities())
	}
	return b
}

// RunBatchOutcomes runs a hosted judge's batch side against a batch whose
// items end in each of the ways the fake knows: answered; expired and
// refused by an overloaded provider, both unanswered (no call), so that
// the engine asks them again; and refused as a bad request, the
// item's error, which ends the run.
func RunBatchOutcomes(t *testing.T, c BatchCase) {
	t.Helper()
	fake := fakebatch.Start(func([]byte) string { return `{"n": 7}` })
	defer fake.Close()
	outcomes := map[string]string{"answered": "", "expired": "expired", "refused": "refused", "overloaded": "overloaded"}
	fake.Outcome = func(id string) string { return outcomes[id] }
	ctx := context.Background()
	b := batcher(t, c, fake.URL)
	var items []judge.BatchItem
	for _, id := range []string{"answered", "expired", "refused", "overloaded"} {
		items = append(items, judge.BatchItem{ID: id, Question: judge.Question{Kind: "test.len", Subject: id, User: "How long?", AnswerSchema: []byte(`{"type": "object"}`), Input: []byte(`{}`)}})
	}
	id, err := b.SubmitBatch(ctx, items)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := b.PollBatch(ctx, id); err != nil || !st.Ended {
		t.Fatalf("%+v, %v", st, err)
	}
	rs, err := b.CollectBatch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]judge.BatchResult{}
	for _, r := range rs {
		got[r.ID] = r
	}
	if r := got["answered"]; r.Unreadable != "" || r.Err != "" || string(r.Answer.JSON) == "" {
		t.Errorf("answered: %+v", r)
	}
	// Expired and overloaded items were never answered: no call, and
	// the plugin protocol carries that across.
	if r := got["expired"]; !strings.Contains(r.Unanswered, "the batch ended before the question was answered") || r.Unreadable != "" || r.Err != "" {
		t.Errorf("expired: %+v", r)
	}
	if r := got["overloaded"]; !strings.Contains(r.Unanswered, "the request was overloaded") || r.Unreadable != "" || r.Err != "" {
		t.Errorf("overloaded: %+v", r)
	}
	if r := got["refused"]; !strings.Contains(r.Err, "the request was refused") || r.Unreadable != "" || r.Unanswered != "" {
		t.Errorf("refused: %+v", r)
	}
	if len(rs) != 4 {
		t.Errorf("%d results, want 4", len(rs))
	}
}

// RunBatch runs a hosted judge's batch side through the plugin protocol
// against the fake batch API (internal/fakebatch): the judge advertises
// the capability; three questions, two sharing a context, go out as one
// batch under their items' ids, each once, the shared context inside each
// request; the batch is in progress while the fake holds it and ended
// after; its results are the answers, with the model and tokens a
// one-call answer has, and the first (text that is not JSON in an
// envelope the judge cannot read, for Anthropic a tool input the engine
// will refuse) comes back as it would from Ask.
func RunBatch(t *testing.T, c BatchCase) {
	t.Helper()
	var mu sync.Mutex
	var bodies []string
	fake := fakebatch.Start(func(body []byte) string {
		mu.Lock()
		bodies = append(bodies, string(body))
		mu.Unlock()
		return `{"n": 7}`
	})
	defer fake.Close()
	fake.Garbage = 1
	var held atomic.Bool
	held.Store(true)
	fake.Hold = held.Load

	ctx := context.Background()
	b := batcher(t, c, fake.URL)
	schema := []byte(`{"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}`)
	q := func(subject string, shared bool) judge.Question {
		jq := judge.Question{Rubric: "lengths", Kind: "test.len", Subject: subject, System: "Count.", User: "How long is " + subject + "?", AnswerSchema: schema, Input: []byte(`{}`)}
		if shared {
			jq.Context, jq.Shared, jq.SharedHash = "Tools: alpha, beta.\n", []byte(`["alpha","beta"]`), "sha256:shared"
		}
		return jq
	}
	ids := []string{strings.Repeat("a", 64), strings.Repeat("b", 64), strings.Repeat("c", 64)}
	id, err := b.SubmitBatch(ctx, []judge.BatchItem{{ID: ids[0], Question: q("alpha", true)}, {ID: ids[1], Question: q("beta", true)}, {ID: ids[2], Question: q("gamma", false)}})
	if err != nil {
		t.Fatal(err)
	}
	counts := fake.Counts()
	if counts.Creates != 1 || len(counts.Submitted) != 3 || len(counts.Twice()) != 0 || counts.Submitted[ids[1]] != 1 {
		t.Fatalf("after one submission: %+v", counts)
	}
	st, err := b.PollBatch(ctx, id)
	if err != nil || st.Ended || st.Total != 3 {
		t.Fatalf("a held batch: %+v, %v", st, err)
	}
	held.Store(false)
	if st, err = b.PollBatch(ctx, id); err != nil || !st.Ended || st.Failed != "" || st.Done != 3 {
		t.Fatalf("an ended batch: %+v, %v", st, err)
	}
	rs, err := b.CollectBatch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 {
		t.Fatalf("%d results, want 3: %+v", len(rs), rs)
	}
	for i, r := range rs {
		if r.ID != ids[i] || r.Err != "" {
			t.Errorf("result %d: %+v", i, r)
			continue
		}
		if r.Answer.Model != fake.Model || r.Answer.Tokens != (judge.Tokens{Input: fakebatch.Usage.Input, Output: fakebatch.Usage.Output}) {
			t.Errorf("result %d: model %q, tokens %+v", i, r.Answer.Model, r.Answer.Tokens)
		}
		var v struct{ N int }
		readable := r.Unreadable == "" && json.Unmarshal(r.Answer.JSON, &v) == nil && v.N == 7
		if readable == (i == 0) {
			t.Errorf("result %d: readable %v, unreadable %q, answer %s", i, readable, r.Unreadable, r.Answer.JSON)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	shared := 0
	for _, body := range bodies {
		if strings.Contains(body, "Tools: alpha, beta.") {
			shared++
		}
	}
	if len(bodies) != 3 || shared != 2 {
		t.Errorf("the provider answered %d requests, %d with the shared context; want 3 and 2", len(bodies), shared)
	}
}

// RunBatchLabels checks, over the plugin protocol, whether the judge
// finds its batches by a label (judge.BatchFinder) as labels says, and
// when it does that a batch submitted with a nonce (its item's ID made
// by judge.LabeledItemID) is found by it among batches of the same size
// and time, and no batch by another nonce.
func RunBatchLabels(t *testing.T, c BatchCase, labels bool) {
	t.Helper()
	fake := fakebatch.Start(func([]byte) string { return `{"n": 7}` })
	defer fake.Close()
	b := batcher(t, c, fake.URL)
	f, ok := b.(judge.BatchFinder)
	if got := ok && f.LabelsBatches(); got != labels {
		t.Fatalf("the judge labels its batches: %v, want %v", got, labels)
	}
	if !labels {
		return
	}
	ctx := context.Background()
	const nonce = "4f1c2a9e0d7b8c63a5e2f1d0c9b8a7e6"
	q := judge.Question{Kind: "test.len", Subject: "a1", User: "How long?", AnswerSchema: []byte(`{"type": "object"}`), Input: []byte(`{}`)}
	items := []judge.BatchItem{{ID: "a1", Question: q}}
	if _, err := b.SubmitBatch(ctx, items); err != nil { // unlabeled, older
		t.Fatal(err)
	}
	id, err := f.SubmitLabeledBatch(ctx, []judge.BatchItem{{ID: judge.LabeledItemID(nonce, "a1"), Question: q}}, nonce)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.SubmitBatch(ctx, items); err != nil { // unlabeled, newer
		t.Fatal(err)
	}
	if got, err := f.FindBatch(ctx, judge.BatchLabel{Nonce: nonce, Since: fakebatch.Epoch, Items: 1}); err != nil || got != (judge.BatchFound{ID: id}) {
		t.Errorf("found %+v, %v; want %q", got, err, id)
	}
	if got, err := f.FindBatch(ctx, judge.BatchLabel{Nonce: "00000000000000000000000000000000", Since: fakebatch.Epoch, Items: 1}); err != nil || got != (judge.BatchFound{}) {
		t.Errorf("found %+v, %v for a nonce no batch has; want none", got, err)
	}
}
