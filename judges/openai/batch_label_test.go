package openai_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/fakebatch"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
	"github.com/rubricmcp/rubric/judges/openai"
)

const lengths = `
rubric "lengths" {
  version = "1"
  grades  = { A = 0 }
  question "len" {
    kind    = "test.len"
    per     = "tool"
    input   = "{'name': tool.name}"
    system  = "Count."
    user    = "How long is {{ fence \"name\" .name }}?"
    answer_schema = <<-JSON
      {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}
    JSON
  }
  tool {
    score = "answers.len.n"
  }
  surface {
    score = "sum(tools.map(t, t.score))"
  }
}
`

// TestBatchKilledAfterCreate: the run is killed exactly when the fake
// API has accepted the batch (it signals the create before it replies),
// so the run never learns the batch's id. The next run lists the
// batches, finds the one whose metadata carries the nonce it kept, and
// collects it: no question is submitted, so paid for, twice.
func TestBatchKilledAfterCreate(t *testing.T) {
	fake := fakebatch.Start(func([]byte) string { return `{"n": 7}` })
	defer fake.Close()
	r, err := rubric.Load("lengths.hcl", []byte(lengths))
	if err != nil {
		t.Fatal(err)
	}
	var reqs []ask.Request
	for i := range 5 {
		b, _ := lang.MarshalCanonical(map[string]any{"name": fmt.Sprintf("tool_%d", i)})
		reqs = append(reqs, ask.Request{Question: r.Questions[0], Subject: fmt.Sprintf("tool_%d", i), InputJSON: b, InputHash: surface.HashBytes(b)})
	}
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-test")
	now := func(time.Duration) <-chan time.Time {
		c := make(chan time.Time, 1)
		c <- time.Time{}
		return c
	}
	// Each run starts the judge afresh, as a plugin over the protocol.
	asker := func() *ask.Asker {
		jc := judgetest.Host(t, openai.New())
		id, err := jc.Configure(context.Background(), judge.Config{Model: "gpt-test", Options: map[string]string{"base_url": fake.URL + "/v1"}})
		if err != nil {
			t.Fatal(err)
		}
		b, ok := jc.Batcher()
		if !ok {
			t.Fatal("the judge does not answer in batches")
		}
		return &ask.Asker{Judge: jc, Identity: id, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: b, After: now}}
	}
	ctx, kill := context.WithCancel(context.Background())
	defer kill()
	// The create's reply is held until the killed run has returned: on a
	// busy machine a reply sent at once could reach the plugin, and the
	// id the host, before the host saw its context end.
	returned := make(chan struct{})
	fake.OnEvent = func(event string, _ fakebatch.Counts) {
		if event == "create" {
			kill()
			<-returned
		}
	}
	_, err = asker().Ask(ctx, reqs)
	fake.OnEvent = nil
	close(returned)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the run killed", err)
	}
	obs, err := asker().Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	c := fake.Counts()
	if c.Creates != 1 || c.Lists != 1 || len(c.Twice()) != 0 || len(c.Submitted) != 5 {
		t.Errorf("counts %+v: want one batch of 5 created, found by one list, nothing twice", c)
	}
	if string(obs[4].Answer) != `{"n":7}` {
		t.Errorf("observation %+v", obs[4])
	}
}
