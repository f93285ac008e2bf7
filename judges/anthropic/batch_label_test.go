package anthropic_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/fakebatch"
	"github.com/rubricmcp/rubric/judges/anthropic"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
)

// TestBatchKilledAfterCreate: a run is killed at a stage of submitting a
// message batch, and the next run of the same questions takes up what
// the first left. A message batch keeps no label of the client's, so the
// next run finds its batch among those created since it kept its intent
// with as many requests, by the nonce at the head of every custom_id of
// the results; while a batch of that size runs, it waits to tell. In
// every case no question is paid twice, someone else's batch of the same
// size created meanwhile is never taken, and the answers are those of a
// run without --batch.
//
//   - killed exactly when the fake has accepted the create (it signals
//     the create before it replies), so the run never learns the id:
//     the batch is found, once it has ended, and collected;
//   - killed once the intent was kept, before the create was sent: no
//     batch is ours, and the questions go out once, anew.
func TestBatchKilledAfterCreate(t *testing.T) {
	r, reqs := judgetest.LengthRequests(t, 5)
	t.Setenv("ANTHROPIC_API_KEY", testKey)
	for _, c := range []struct {
		name     string
		atIntent bool // killed once the intent is kept, not at the create
		creates  int  // batches created in all, the foreign one included
		steps    []string
	}{
		{"at the create", false, 2, []string{"pending", "found", "resumed", "polled", "collected"}},
		{"before the create", true, 2, []string{"pending", "submitted", "polled", "collected"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fake := fakebatch.Start(func([]byte) string { return `{"n": 7}` })
			defer fake.Close()
			fake.Model = "claude-test-20250101"
			store, err := cache.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			var held atomic.Bool
			// The first wait of a run ends every batch: until then, those
			// created run on.
			after := func(time.Duration) <-chan time.Time {
				held.Store(false)
				c := make(chan time.Time, 1)
				c <- time.Time{}
				return c
			}
			fake.Hold = held.Load
			var steps []string
			// Each run starts the judge afresh, as a plugin over the
			// protocol; its intent is kept at the fake's epoch, before any
			// batch is created.
			asker := func(batch bool, onIntent func(cache.Batch)) *ask.Asker {
				jc := judgetest.Host(t, anthropic.New())
				id, err := jc.Configure(context.Background(), judge.Config{Model: "claude-test", Options: map[string]string{"base_url": fake.URL}})
				if err != nil {
					t.Fatal(err)
				}
				a := &ask.Asker{Judge: jc, Identity: id, Rubric: r, Cache: store}
				if batch {
					b, ok := jc.Batcher()
					if !ok {
						t.Fatal("the judge does not answer in batches")
					}
					a.Batch = &ask.Batching{Judge: b, After: after, OnIntent: onIntent,
						Now:     func() time.Time { return fakebatch.Epoch },
						OnEvent: func(e ask.BatchEvent) { steps = append(steps, e.Step) }}
				}
				return a
			}
			ctx, kill := context.WithCancel(context.Background())
			defer kill()
			// The create's reply is held until the killed run has
			// returned: on a busy machine a reply sent at once could reach
			// the plugin, and the id the host, before the host saw its
			// context end.
			returned := make(chan struct{})
			var onIntent func(cache.Batch)
			if c.atIntent {
				onIntent = func(cache.Batch) { kill() }
			} else {
				fake.OnEvent = func(event string, _ fakebatch.Counts) {
					if event == "create" {
						kill()
						<-returned
					}
				}
			}
			_, err = asker(true, onIntent).Ask(ctx, reqs)
			fake.OnEvent = nil
			close(returned)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want the run killed", err)
			}
			// Someone else's batch of as many requests, created since.
			var foreign strings.Builder
			foreign.WriteString(`{"requests": [`)
			for i := range 5 {
				if i > 0 {
					foreign.WriteString(",")
				}
				fmt.Fprintf(&foreign, `{"custom_id": "theirs-%d", "params": {"model": "claude-test", "max_tokens": 16, "messages": [{"role": "user", "content": "question %d"}]}}`, i, i)
			}
			foreign.WriteString("]}")
			resp, err := http.Post(fake.URL+"/v1/messages/batches", "application/json", strings.NewReader(foreign.String()))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("the foreign batch was refused: %s", resp.Status)
			}

			held.Store(true)
			steps = nil
			obs, err := asker(true, nil).Ask(context.Background(), reqs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(steps, c.steps) {
				t.Errorf("steps %v, want %v", steps, c.steps)
			}
			n := fake.Counts()
			if n.Creates != c.creates || len(n.Twice()) != 0 || len(n.Submitted) != 10 || n.Calls != 0 {
				t.Errorf("counts %+v: want %d batches created, ours and the foreign one, nothing twice, no call alone", n, c.creates)
			}
			if recs, _ := store.Batches(asker(false, nil).Identity); len(recs) != 0 {
				t.Errorf("records left: %+v", recs)
			}

			// A run without --batch, from an empty cache, answers the same.
			store, err = cache.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			plain, err := asker(false, nil).Ask(context.Background(), reqs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(obs, plain) {
				t.Errorf("with --batch\n%+v\nwithout\n%+v", obs, plain)
			}
		})
	}
}

// TestFindBatch: how the judge looks for a labeled message batch among
// the others: through every page of the list, newest first, back to a
// little before the label was kept; by size; by the nonce at the head of
// every custom_id of an ended batch's results; pending while a batch of
// that size runs.
func TestFindBatch(t *testing.T) {
	const nonce = "4f1c2a9e0d7b8c63a5e2f1d0c9b8a7e6"
	t.Setenv("ANTHROPIC_API_KEY", testKey)
	ours := made{"", 3}
	for _, c := range []struct {
		name string
		// batches are created in order, a second apart from the fake's
		// epoch.
		batches []made
		since   time.Duration // the label's, after the epoch
		held    bool
		want    judge.BatchFound
		lists   int
	}{
		{"behind 150 others", append([]made{ours}, repeat(made{"theirs-", 3}, 150)...), 0, false, judge.BatchFound{ID: "msgbatch_1"}, 2},
		{"behind others of its size and another", []made{ours, {"theirs-", 3}, {"theirs-", 4}, {"theirs-", 3}}, 0, false, judge.BatchFound{ID: "msgbatch_1"}, 1},
		{"created before the window", []made{ours}, 20 * time.Minute, false, judge.BatchFound{}, 1},
		{"within the clocks' skew", []made{ours}, 10 * time.Minute, false, judge.BatchFound{ID: "msgbatch_1"}, 1},
		{"only someone else's", []made{{"theirs-", 3}, {"theirs-", 3}}, 0, false, judge.BatchFound{}, 1},
		{"running, of that size", []made{{"theirs-", 3}}, 0, true, judge.BatchFound{Pending: true}, 1},
		{"running, of another size", []made{{"theirs-", 4}}, 0, true, judge.BatchFound{}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			fake := fakebatch.Start(func([]byte) string { return `{"n": 7}` })
			defer fake.Close()
			for i, b := range c.batches {
				var body strings.Builder
				body.WriteString(`{"requests": [`)
				for k := range b.n {
					if k > 0 {
						body.WriteString(",")
					}
					id := fmt.Sprintf("%s%d_%d", b.prefix, i, k)
					if b.prefix == "" {
						id = judge.LabeledItemID(nonce, id)
					}
					fmt.Fprintf(&body, `{"custom_id": %q, "params": {"model": "claude-test", "max_tokens": 16, "messages": [{"role": "user", "content": "q%d_%d"}]}}`, id, i, k)
				}
				body.WriteString("]}")
				resp, err := http.Post(fake.URL+"/v1/messages/batches", "application/json", strings.NewReader(body.String()))
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
			fake.Hold = func() bool { return c.held }
			jc := judgetest.Host(t, anthropic.New())
			if _, err := jc.Configure(context.Background(), judge.Config{Model: "claude-test", Options: map[string]string{"base_url": fake.URL}}); err != nil {
				t.Fatal(err)
			}
			got, err := jc.FindBatch(context.Background(), judge.BatchLabel{Nonce: nonce, Since: fakebatch.Epoch.Add(c.since), Items: 3})
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("found %+v, want %+v", got, c.want)
			}
			if n := fake.Counts().Lists; n != c.lists {
				t.Errorf("%d pages listed, want %d", n, c.lists)
			}
		})
	}
}

// made is a message batch a test makes: n requests whose custom ids
// begin with prefix, or with the label's nonce when prefix is empty.
type made struct {
	prefix string
	n      int
}

// repeat is n copies of b.
func repeat(b made, n int) []made {
	out := make([]made, n)
	for i := range out {
		out[i] = b
	}
	return out
}
