package ask_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
)

// batches is a judge's batch side in memory: a batch runs for running
// looks, then holds the answer of the counting judge for each item, or
// what garbage says for the item's submission (its n-th, from 1).
type batches struct {
	counting
	mu      sync.Mutex
	running int
	garbage func(subject string, n int) bool
	// unanswered, when set, says why the provider never answered the
	// item for the n-th submission of subject ("" when it did).
	unanswered func(subject string, n int) string
	items      map[string][]judge.BatchItem
	polls      map[string]int
	// submitted counts each item's submissions, by subject.
	submitted map[string]int
	order     []string
}

func newBatches(running int) *batches {
	return &batches{running: running, items: map[string][]judge.BatchItem{}, polls: map[string]int{}, submitted: map[string]int{}}
}

func (b *batches) SubmitBatch(_ context.Context, items []judge.BatchItem) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := fmt.Sprintf("batch_%d", len(b.order)+1)
	b.order = append(b.order, id)
	b.items[id] = items
	for _, it := range items {
		b.submitted[it.Question.Subject]++
	}
	return id, nil
}

func (b *batches) PollBatch(_ context.Context, id string) (judge.BatchStatus, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.items[id]; !ok {
		return judge.BatchStatus{}, fmt.Errorf("no batch %s", id)
	}
	b.polls[id]++
	if b.polls[id] <= b.running {
		return judge.BatchStatus{State: "in_progress", Total: len(b.items[id])}, nil
	}
	return judge.BatchStatus{Ended: true, State: "ended", Done: len(b.items[id]), Total: len(b.items[id])}, nil
}

func (b *batches) CollectBatch(ctx context.Context, id string) ([]judge.BatchResult, error) {
	b.mu.Lock()
	items := b.items[id]
	b.mu.Unlock()
	var out []judge.BatchResult
	for _, it := range items {
		a, _ := b.counting.Ask(ctx, it.Question)
		b.mu.Lock()
		bad := b.garbage != nil && b.garbage(it.Question.Subject, b.submitted[it.Question.Subject])
		why := ""
		if b.unanswered != nil {
			why = b.unanswered(it.Question.Subject, b.submitted[it.Question.Subject])
		}
		b.mu.Unlock()
		if why != "" {
			out = append(out, judge.BatchResult{ID: it.ID, Unanswered: why})
			continue
		}
		if bad {
			a.JSON = []byte("I think it is about seven.")
		}
		out = append(out, judge.BatchResult{ID: it.ID, Answer: a})
	}
	return out, nil
}

// waits records the poll waits an asker asked for, ending each at once.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) after(d time.Duration) <-chan time.Time {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	return now()
}

// TestBatchAnswersAsAskingDoes: the questions go out as one batch, which
// is looked at every Poll (through the injected clock) until it has
// ended; the observations are those that asking one question at a time
// gives, the answers land in the cache (a second run submits nothing),
// and the batch's record is gone once collected.
func TestBatchAnswersAsAskingDoes(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(20)...)
	plain, err := (&ask.Asker{Judge: &counting{}, Identity: identity, Rubric: r}).Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := newBatches(2)
	w := &waits{}
	a := &ask.Asker{Judge: b, Identity: identity, Rubric: r, Cache: store,
		Batch: &ask.Batching{Judge: b, Poll: 7 * time.Second, After: w.after}}
	obs, err := a.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(obs, plain) {
		t.Errorf("batch observations differ from asking one at a time:\n%+v\n%+v", obs[0], plain[0])
	}
	if len(b.order) != 1 || len(b.items["batch_1"]) != 20 || b.polls["batch_1"] != 3 {
		t.Errorf("batches %v, items %d, polls %d: want one batch of 20, looked at 3 times", b.order, len(b.items["batch_1"]), b.polls["batch_1"])
	}
	if !reflect.DeepEqual(w.d, []time.Duration{7 * time.Second, 7 * time.Second}) {
		t.Errorf("waits %v, want two of 7s", w.d)
	}
	if st := a.Stats(); st.Calls != 20 || st.Questions != 20 || st.Tokens.Input != 200 {
		t.Errorf("stats %+v", st)
	}
	if recs, _ := store.Batches(identity); len(recs) != 0 {
		t.Errorf("records left: %+v", recs)
	}
	again := &ask.Asker{Judge: b, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: b, After: w.after}}
	if _, err := again.Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	if len(b.order) != 1 || again.Stats().CacheHits != 20 {
		t.Errorf("the second run submitted %d batches, %d cache hits", len(b.order)-1, again.Stats().CacheHits)
	}
}

// TestBatchStoppedWhilePollingResumes: a run stopped while its batch
// runs (Ctrl-C at the first look) keeps the batch's record; the next run
// takes the batch up by its id instead of submitting the questions
// again, so no question is paid twice.
func TestBatchStoppedWhilePollingResumes(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(12)...)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := newBatches(3)
	w := &waits{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var steps []string
	first := &ask.Asker{Judge: b, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: b, After: w.after,
		OnEvent: func(e ask.BatchEvent) {
			steps = append(steps, e.Step)
			if e.Step == "polled" {
				cancel()
			}
		}}}
	if _, err := first.Ask(ctx, reqs); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the run cancelled", err)
	}
	if !reflect.DeepEqual(steps, []string{"submitted", "polled", "stopped"}) {
		t.Errorf("steps %v", steps)
	}
	recs, err := store.Batches(identity)
	if err != nil || len(recs) != 1 || recs[0].ID != "batch_1" || len(recs[0].Keys) != 12 {
		t.Fatalf("records %+v, %v: want batch_1 with 12 keys", recs, err)
	}
	steps = nil
	second := &ask.Asker{Judge: b, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: b, After: w.after,
		OnEvent: func(e ask.BatchEvent) { steps = append(steps, e.Step) }}}
	obs, err := second.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.order) != 1 {
		t.Errorf("%d batches submitted, want the first alone", len(b.order))
	}
	for subject, n := range b.submitted {
		if n != 1 {
			t.Errorf("%s submitted %d times", subject, n)
		}
	}
	if !reflect.DeepEqual(steps, []string{"resumed", "polled", "polled", "polled", "collected"}) {
		t.Errorf("steps %v", steps)
	}
	if string(obs[11].Answer) != `{"n":7}` || second.Stats().Calls != 12 {
		t.Errorf("observation %+v, stats %+v", obs[11], second.Stats())
	}
	if recs, _ := store.Batches(identity); len(recs) != 0 {
		t.Errorf("records left: %+v", recs)
	}
}

// TestBatchUnreadableGoesAgain: the answers that cannot be read go out
// again in a follow-up batch holding them alone, each spending a retry;
// one unreadable every time ends the run after its retries.
func TestBatchUnreadableGoesAgain(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(10)...)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := newBatches(0)
	b.garbage = func(subject string, n int) bool {
		return (subject == "tool_03" || subject == "tool_07") && n == 1
	}
	a := &ask.Asker{Judge: b, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: b, After: (&waits{}).after}}
	obs, err := a.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.order) != 2 || len(b.items["batch_2"]) != 2 {
		t.Fatalf("batches %v, the second of %d: want a follow-up of 2", b.order, len(b.items["batch_2"]))
	}
	if st := a.Stats(); st.Calls != 12 || st.Retries != 2 {
		t.Errorf("stats %+v, want 12 calls and 2 retries", st)
	}
	if obs[3].Attempts != 2 || obs[3].Tokens.Input != 20 || string(obs[3].Answer) != `{"n":7}` {
		t.Errorf("observation %+v", obs[3])
	}

	// Unreadable every time: three batches, then the run ends.
	b2 := newBatches(0)
	b2.garbage = func(subject string, _ int) bool { return subject == "tool_01" }
	a2 := &ask.Asker{Judge: b2, Identity: identity, Rubric: r, Cache: cache.Memory(), Batch: &ask.Batching{Judge: b2, After: (&waits{}).after}}
	_, err = a2.Ask(context.Background(), reqs)
	var ue *ask.UnreadableError
	if !errors.As(err, &ue) || ue.Subject != "tool_01" || ue.Attempts != 3 || len(b2.order) != 3 {
		t.Fatalf("got %v after %d batches, want tool_01 unreadable after 3 attempts in 3 batches", err, len(b2.order))
	}
}

// TestBatchUnansweredIsNoCall: an item the provider never answered (its
// batch expired) is no judge call and spends no attempt: it is counted
// apart and goes out again in a follow-up batch; one never answered in
// as many batches as its retries allow ends the run saying what the
// provider did, not that an answer was unreadable.
func TestBatchUnansweredIsNoCall(t *testing.T) {
	const expired = "the batch ended before the question was answered [batch_expired]"
	r := loadRubric(t)
	reqs := requests(t, r, names(10)...)
	b := newBatches(0)
	b.unanswered = func(subject string, n int) string {
		if subject == "tool_03" && n == 1 {
			return expired
		}
		return ""
	}
	a := &ask.Asker{Judge: b, Identity: identity, Rubric: r, Cache: cache.Memory(), Batch: &ask.Batching{Judge: b, After: (&waits{}).after}}
	obs, err := a.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.order) != 2 || len(b.items["batch_2"]) != 1 {
		t.Fatalf("batches %v, the second of %d: want a follow-up of 1", b.order, len(b.items["batch_2"]))
	}
	if st := a.Stats(); st.Calls != 10 || st.Unanswered != 1 || st.Retries != 0 {
		t.Errorf("stats %+v, want 10 calls, 1 unanswered, no retry", st)
	}
	if rep := a.Stats().Report(ask.Stats{}); rep.Model != 10 || rep.Unanswered != 1 {
		t.Errorf("report calls %+v, want 10 calls and 1 unanswered", rep)
	}
	if obs[3].Attempts != 1 || string(obs[3].Answer) != `{"n":7}` {
		t.Errorf("observation %+v, want one attempt", obs[3])
	}

	// Never answered: three batches, then the run ends with what
	// happened, having made only the calls that were answered.
	b2 := newBatches(0)
	b2.unanswered = func(subject string, _ int) string {
		if subject == "tool_01" || subject == "tool_02" {
			return expired
		}
		return ""
	}
	a2 := &ask.Asker{Judge: b2, Identity: identity, Rubric: r, Cache: cache.Memory(), Batch: &ask.Batching{Judge: b2, After: (&waits{}).after}}
	_, err = a2.Ask(context.Background(), reqs)
	var ue *ask.UnansweredError
	if !errors.As(err, &ue) || ue.Questions != 2 || ue.Batch != "batch_3" || len(b2.order) != 3 {
		t.Fatalf("got %v after %d batches, want 2 questions unanswered by batch_3, the third", err, len(b2.order))
	}
	want := "the provider ended the batch batch_3 before answering 2 questions (" + expired + "), after sending them 3 times: no judge answered them, so no answer was wrong; run the same command again to submit them anew"
	if err.Error() != want {
		t.Errorf("error\n%s\nwant\n%s", err, want)
	}
	if st := a2.Stats(); st.Calls != 8 || st.Unanswered != 6 || st.Tokens.Input != 80 {
		t.Errorf("stats %+v, want 8 calls (the answered ones), 6 unanswered, 80 input tokens", st)
	}
}

// TestBatchBudgetReservesTheWholeBatch: --max-cost holds the greatest
// cost of every question of a batch before it is submitted: a budget
// that one question fits in but not the whole batch submits nothing.
// The batch price is the list price less the batch discount.
func TestBatchBudgetReservesTheWholeBatch(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(10)...)
	price := ask.Price{Input: 2, CachedInput: 1, Output: 4, BatchDiscount: 0.5}.Batched()
	if want := (ask.Price{Input: 1, CachedInput: 0.5, Output: 2}); price != want {
		t.Fatalf("batched price %+v, want %+v", price, want)
	}
	b := newBatches(0)
	a := &ask.Asker{Judge: b, Identity: identity, Rubric: r, Cache: cache.Memory(), Batch: &ask.Batching{Judge: b},
		Budget: &ask.Budget{Limit: 0.001, Price: price, MaxOutput: 100}}
	_, err := a.Ask(context.Background(), reqs)
	var be *ask.BudgetError
	if !errors.As(err, &be) || be.Subject != "tool_00 and 9 more in one batch" || len(b.order) != 0 {
		t.Fatalf("got %v with %d batches, want a BudgetError naming the batch and nothing submitted", err, len(b.order))
	}
	a.Budget.Limit = 1
	if _, err := a.Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	// Each answer: 10 tokens in, 2 out, at the batch price.
	if got, want := a.Stats().CostUSD, 10*(10*1+2*2)/1e6; got < want-1e-12 || got > want+1e-12 {
		t.Errorf("cost %v, want %v", got, want)
	}
}

// TestPendingBatchTold: a run without batches that is about to ask the
// questions of a batch a stopped --batch run left running is told of
// the batch first, once: by TellPending when the record is of its rubric
// and scope, by Ask otherwise; an error from OnPendingBatch ends the run
// before the judge is asked anything.
func TestPendingBatchTold(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(12)...)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := newBatches(3)
	w := &waits{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := &ask.Asker{Judge: b, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: b, After: w.after, Scope: "file notes.json",
		OnEvent: func(e ask.BatchEvent) {
			if e.Step == "polled" {
				cancel()
			}
		}}}
	if _, err := first.Ask(ctx, reqs[:10]); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the run cancelled", err)
	}
	refused := errors.New("refused")
	for _, tc := range []struct {
		name, scope string
		refuse      bool
		want        []ask.PendingBatch
		calls       int64
	}{
		{"same scope, refused", "file notes.json", true, []ask.PendingBatch{{ID: "batch_1", Questions: 10, Asked: 10}}, 0},
		{"other scope, refused at Ask", "file other.json", true, []ask.PendingBatch{{ID: "batch_1", Questions: 10, Asked: 10}}, 0},
		{"warned once, asked", "", false, []ask.PendingBatch{{ID: "batch_1", Questions: 10, Asked: 10}}, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := &counting{}
			var told []ask.PendingBatch
			a := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, Concurrency: 1,
				OnPendingBatch: func(p ask.PendingBatch) error {
					told = append(told, p)
					if tc.refuse {
						return refused
					}
					return nil
				}}
			err := a.TellPending(tc.scope)
			if err == nil {
				_, err = a.Ask(context.Background(), reqs)
				if err == nil {
					_, err = a.Ask(context.Background(), reqs)
				}
			}
			if tc.refuse != errors.Is(err, refused) || (!tc.refuse && err != nil) {
				t.Errorf("error %v, refused %v", err, tc.refuse)
			}
			if !reflect.DeepEqual(told, tc.want) {
				t.Errorf("told %+v, want %+v", told, tc.want)
			}
			if j.calls.Load() != tc.calls {
				t.Errorf("%d calls, want %d", j.calls.Load(), tc.calls)
			}
		})
	}
}
