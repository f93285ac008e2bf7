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

	jc := Host(t, c.New())
	ctx := context.Background()
	if _, err := jc.Configure(ctx, judge.Config{Model: "gpt-test", Options: map[string]string{"base_url": c.BaseURL(fake.URL)}}); err != nil {
		t.Fatal(err)
	}
	b, ok := jc.Batcher()
	if !ok {
		t.Fatalf("the judge does not advertise %q: capabilities %v", judge.CapabilityBatch, jc.Capabilities())
	}
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
