package openai_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/fakebatch"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
	"github.com/rubricmcp/rubric/judges/openai"
)

// TestBatchKilledAfterCreate: the run is killed exactly when the fake
// API has accepted the batch (it signals the create before it replies),
// so the run never learns the batch's id. The next run lists the
// batches, finds the one whose metadata carries the nonce it kept, and
// collects it: no question is submitted, so paid for, twice.
func TestBatchKilledAfterCreate(t *testing.T) {
	fake := fakebatch.Start(func([]byte) string { return `{"n": 7}` })
	defer fake.Close()
	r, reqs := judgetest.LengthRequests(t, 5)
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
