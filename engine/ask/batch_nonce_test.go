package ask_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// labeled is a batch side whose provider keeps a label on each batch
// (judge.BatchFinder). lost, when set, is called once a labeled batch
// was accepted and decides whether its id is lost on the way back (the
// run killed after the provider accepted the batch, before it kept the
// id); refuse makes the provider accept nothing.
type labeled struct {
	*batches
	mu      sync.Mutex
	byNonce map[string]string
	finds   int
	lost    func() bool
	refuse  bool
	// find, when set, answers FindBatch instead of the nonces kept.
	find   func(judge.BatchLabel) judge.BatchFound
	labels []judge.BatchLabel // what FindBatch was asked
}

func (l *labeled) LabelsBatches() bool { return true }

func (l *labeled) SubmitLabeledBatch(ctx context.Context, items []judge.BatchItem, nonce string) (string, error) {
	if ctx.Err() != nil {
		return "", context.Cause(ctx) // killed before the create was sent
	}
	if l.refuse {
		return "", errors.New("connection reset before the batch was accepted")
	}
	id, err := l.SubmitBatch(ctx, items)
	if err != nil {
		return "", err
	}
	l.mu.Lock()
	l.byNonce[nonce] = id
	l.mu.Unlock()
	if l.lost != nil && l.lost() {
		return "", context.Cause(ctx)
	}
	return id, nil
}

func (l *labeled) FindBatch(_ context.Context, label judge.BatchLabel) (judge.BatchFound, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.finds++
	l.labels = append(l.labels, label)
	if l.find != nil {
		return l.find(label), nil
	}
	return judge.BatchFound{ID: l.byNonce[label.Nonce]}, nil
}

// TestBatchKilledAfterCreateIsFound: the run is killed exactly when the
// provider has accepted the batch and before the run learns its id. The
// intent record kept before submitting carries the batch's nonce, so the
// next run finds the batch by it and collects it: no question is paid
// twice, and no record is left.
func TestBatchKilledAfterCreateIsFound(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(9)...)
	store := openStore(t)
	l := &labeled{batches: newBatches(0), byNonce: map[string]string{}}
	ctx, kill := context.WithCancel(context.Background())
	defer kill()
	l.lost = func() bool { kill(); return true }
	w := &waits{}
	var intent cache.Batch
	first := &ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after,
		OnIntent: func(b cache.Batch) { intent = b }}}
	if _, err := first.Ask(ctx, reqs); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the run killed", err)
	}
	recs, err := store.Batches(identity)
	if err != nil || len(recs) != 1 || recs[0].ID != "" || recs[0].Nonce == "" || recs[0].Nonce != intent.Nonce || len(recs[0].Keys) != 9 {
		t.Fatalf("records %+v, %v: want the intent, with its nonce and 9 keys", recs, err)
	}

	l.lost = nil
	var steps []string
	second := &ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after,
		OnEvent: func(e ask.BatchEvent) { steps = append(steps, e.Step) }}}
	obs, err := second.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(steps, []string{"found", "resumed", "polled", "collected"}) {
		t.Errorf("steps %v", steps)
	}
	if len(l.order) != 1 || l.finds != 1 {
		t.Errorf("%d batches submitted, %d looked for: want one of each", len(l.order), l.finds)
	}
	for subject, n := range l.submitted {
		if n != 1 {
			t.Errorf("%s paid for %d times", subject, n)
		}
	}
	if string(obs[8].Answer) != `{"n":7}` {
		t.Errorf("observation %+v", obs[8])
	}
	noRecordsLeft(t, store)
}

// TestBatchIntentNeverAccepted: an intent whose batch the provider does
// not have (the run was killed before the create reached it) is dropped,
// and its questions go out once, in a new batch. A submission the
// provider refuses leaves no intent behind.
func TestBatchIntentNeverAccepted(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(4)...)
	store := openStore(t)
	l := &labeled{batches: newBatches(0), byNonce: map[string]string{}}
	keys := answerKeys(r, reqs)
	if err := store.PutBatch(cache.Batch{Judge: identity, Nonce: "0123456789abcdef0123456789abcdef", Keys: keys}); err != nil {
		t.Fatal(err)
	}
	w := &waits{}
	if _, err := (&ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after}}).Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	if len(l.order) != 1 || l.finds != 1 || len(l.submitted) != 4 {
		t.Errorf("%d batches, %d looked for, %d questions: want 1, 1, 4", len(l.order), l.finds, len(l.submitted))
	}
	noRecordsLeft(t, store)

	l.refuse = true
	more := requests(t, r, "other")
	if _, err := (&ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after}}).Ask(context.Background(), more); err == nil {
		t.Fatal("a refused submission went through")
	}
	if recs, _ := store.Batches(identity); len(recs) != 0 {
		t.Errorf("a refused submission left records: %+v", recs)
	}
}

// TestTidyBatches: once a run has asked everything, the records no run
// will take up go: one whose questions are all answered in the cache
// (answered without --batch, say), and one of the same rubric and scope
// none of whose questions the run asked (left by a run of definitions
// that have changed since). A record of another scope, or of another
// rubric, whose questions are not answered stays: its run may come back
// for it.
func TestTidyBatches(t *testing.T) {
	r := loadRubric(t)
	store := openStore(t)
	keys := func(names ...string) []string {
		var out []string
		for _, rq := range requests(t, r, names...) {
			out = append(out, cache.Key(identity, r.Digest, r.Questions[0].Digest, rq.InputHash))
		}
		return out
	}
	// Answered one at a time, not in a batch.
	if _, err := (&ask.Asker{Judge: &counting{}, Identity: identity, Rubric: r, Cache: store}).Ask(context.Background(), requests(t, r, "old_a", "old_b")); err != nil {
		t.Fatal(err)
	}
	for _, rec := range []cache.Batch{
		{ID: "answered", Judge: identity, Keys: keys("old_a", "old_b"), Rubric: "sha256:other", Scope: "file other.json"},
		{ID: "stale", Judge: identity, Keys: keys("gone_a", "gone_b"), Rubric: r.Digest, Scope: "file notes.json"},
		{ID: "elsewhere", Judge: identity, Keys: keys("gone_a"), Rubric: r.Digest, Scope: "file other.json"},
		{ID: "other rubric", Judge: identity, Keys: keys("gone_b"), Rubric: "sha256:other", Scope: "file notes.json"},
		{ID: "from before scopes", Judge: identity, Keys: keys("gone_c")},
	} {
		if err := store.PutBatch(rec); err != nil {
			t.Fatal(err)
		}
	}
	b := newBatches(0)
	w := &waits{}
	a := &ask.Asker{Judge: b, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: b, After: w.after, Scope: "file notes.json"}}
	if _, err := a.Ask(context.Background(), requests(t, r, "tool_00", "tool_01")); err != nil {
		t.Fatal(err)
	}
	got, err := a.TidyBatches()
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := store.Batches(identity)
	var left []string
	for _, rec := range recs {
		left = append(left, rec.ID)
	}
	// The answered record went when the run looked at the records
	// before submitting; TidyBatches drops the stale one.
	if got != (ask.Tidied{Stale: 1}) || !reflect.DeepEqual(left, []string{"elsewhere", "from before scopes", "other rubric"}) {
		t.Errorf("dropped %+v, left %q: want the answered and the stale records dropped, the stale one by TidyBatches", got, left)
	}
}

// TestBatchFoundOnceEnded: a judge that proves a batch is the one sought
// only from its results (a provider that keeps no label on a batch)
// answers pending while a candidate runs; the run waits and looks again,
// submitting nothing meanwhile, and takes the batch once it is proven.
// The intent record says when it was kept (the injected clock) and the
// batch's items are under IDs that begin with its nonce.
func TestBatchFoundOnceEnded(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(9)...)
	store := openStore(t)
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return t0 }
	l := &labeled{batches: newBatches(0), byNonce: map[string]string{}}
	ctx, kill := context.WithCancel(context.Background())
	defer kill()
	l.lost = func() bool { kill(); return true }
	w := &waits{}
	var intent cache.Batch
	first := &ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after, Now: clock,
		OnIntent: func(b cache.Batch) { intent = b }}}
	if _, err := first.Ask(ctx, reqs); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the run killed", err)
	}
	if !intent.LabeledIDs || !intent.Since.Equal(t0) {
		t.Errorf("intent %+v: want labeled item ids, kept at %v", intent, t0)
	}
	for _, it := range l.items[l.order[0]] {
		if !strings.HasPrefix(it.ID, intent.Nonce) || len(it.ID) != 64 {
			t.Errorf("item id %q: want the nonce %s and 64 characters", it.ID, intent.Nonce)
		}
	}

	l.lost = nil
	l.find = func(label judge.BatchLabel) judge.BatchFound {
		if len(l.labels) <= 2 {
			return judge.BatchFound{Pending: true}
		}
		return judge.BatchFound{ID: l.byNonce[label.Nonce]}
	}
	var steps []string
	second := &ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after, Now: clock,
		OnEvent: func(e ask.BatchEvent) { steps = append(steps, e.Step) }}}
	obs, err := second.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"pending", "found", "resumed", "polled", "collected"}; !reflect.DeepEqual(steps, want) {
		t.Errorf("steps %v, want %v", steps, want)
	}
	if want := (judge.BatchLabel{Nonce: intent.Nonce, Since: t0, Items: 9}); len(l.labels) != 3 || l.labels[0].Nonce != want.Nonce || !l.labels[0].Since.Equal(t0) || l.labels[0].Items != 9 {
		t.Errorf("looked for %+v, want three looks for %+v", l.labels, want)
	}
	if len(l.order) != 1 {
		t.Errorf("%d batches submitted, want 1", len(l.order))
	}
	for subject, n := range l.submitted {
		if n != 1 {
			t.Errorf("%s paid for %d times", subject, n)
		}
	}
	if string(obs[8].Answer) != `{"n":7}` {
		t.Errorf("observation %+v", obs[8])
	}
}

// TestBatchForeignNotTaken: the run was killed before its batch reached
// the provider, and someone else's batch of the same size was created
// meanwhile. A judge that offers that batch as the one sought (found by
// its creation and size alone) is not believed: its results carry other
// item IDs, so none of its answers is taken, and the questions go out
// once, in a batch of their own.
func TestBatchForeignNotTaken(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(4)...)
	store := openStore(t)
	l := &labeled{batches: newBatches(0), byNonce: map[string]string{}}
	ctx, kill := context.WithCancel(context.Background())
	defer kill()
	w := &waits{}
	first := &ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after,
		OnIntent: func(cache.Batch) { kill() }}}
	if _, err := first.Ask(ctx, reqs); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the run killed", err)
	}
	var others []judge.BatchItem
	for i := range 4 {
		others = append(others, judge.BatchItem{ID: fmt.Sprintf("other_%d", i), Question: judge.Question{Subject: fmt.Sprintf("someone_else_%d", i)}})
	}
	foreign, err := l.SubmitBatch(context.Background(), others)
	if err != nil {
		t.Fatal(err)
	}
	l.find = func(judge.BatchLabel) judge.BatchFound { return judge.BatchFound{ID: foreign} }
	var steps []string
	second := &ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after,
		OnEvent: func(e ask.BatchEvent) { steps = append(steps, e.Step) }}}
	obs, err := second.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"found", "resumed", "polled", "foreign", "submitted", "polled", "collected"}; !reflect.DeepEqual(steps, want) {
		t.Errorf("steps %v, want %v", steps, want)
	}
	for _, name := range names(4) {
		if l.submitted[name] != 1 {
			t.Errorf("%s paid for %d times, want once", name, l.submitted[name])
		}
	}
	for i, o := range obs {
		if string(o.Answer) != `{"n":7}` || o.Attempts != 1 {
			t.Errorf("observation %d: %+v", i, o)
		}
	}
	noRecordsLeft(t, store)
}

// TestBatchOldIntentFound: an intent record kept before item IDs carried
// the nonce (no labeled_ids, no since) still finds its batch, whose items
// are under their answer keys, and its answers are taken.
func TestBatchOldIntentFound(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(3)...)
	store := openStore(t)
	const nonce = "0123456789abcdef0123456789abcdef"
	var keys []string
	var items []judge.BatchItem
	for _, rq := range reqs {
		k := cache.Key(identity, r.Digest, r.Questions[0].Digest, rq.InputHash)
		keys = append(keys, k)
		items = append(items, judge.BatchItem{ID: k, Question: judge.Question{Subject: rq.Subject}})
	}
	if err := store.PutBatch(cache.Batch{Judge: identity, Nonce: nonce, Keys: keys}); err != nil {
		t.Fatal(err)
	}
	l := &labeled{batches: newBatches(0), byNonce: map[string]string{}}
	if _, err := l.SubmitLabeledBatch(context.Background(), items, nonce); err != nil {
		t.Fatal(err)
	}
	w := &waits{}
	obs, err := (&ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after}}).Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.order) != 1 || len(l.labels) != 1 || !l.labels[0].Since.IsZero() || l.labels[0].Items != 3 {
		t.Errorf("%d batches, looked for %+v: want the old batch found, by its nonce and size", len(l.order), l.labels)
	}
	for i, o := range obs {
		if string(o.Answer) != `{"n":7}` {
			t.Errorf("observation %d: %+v", i, o)
		}
	}
}

// TestBatchStoppedWhilePending: a run stopped while it waits for a
// batch that may be the one sought keeps the intent, and submits
// nothing: the next run looks again.
func TestBatchStoppedWhilePending(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(2)...)
	store := openStore(t)
	intent := cache.Batch{Judge: identity, Nonce: "0123456789abcdef0123456789abcdef", LabeledIDs: true,
		Since: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	intent.Keys = answerKeys(r, reqs)
	if err := store.PutBatch(intent); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	l := &labeled{batches: newBatches(0), byNonce: map[string]string{}}
	l.find = func(judge.BatchLabel) judge.BatchFound { stop(); return judge.BatchFound{Pending: true} }
	w := &waits{}
	_, err := (&ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after}}).Ask(ctx, reqs)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "running the same command again looks for it again") {
		t.Fatalf("got %v, want the run stopped, saying the next one looks again", err)
	}
	recs, _ := store.Batches(identity)
	if len(l.order) != 0 || len(recs) != 1 || recs[0].Nonce != intent.Nonce || !recs[0].Since.Equal(intent.Since) {
		t.Errorf("%d batches submitted, records %+v: want none submitted and the intent kept", len(l.order), recs)
	}
}

// openStore is an answer cache in the test's own directory.
func openStore(t *testing.T) *cache.Store {
	t.Helper()
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return store
}

// answerKeys are the answer keys of reqs, questions of r's first
// question, as the asker makes them for identity.
func answerKeys(r *rubric.Rubric, reqs []ask.Request) []string {
	keys := make([]string, len(reqs))
	for i, rq := range reqs {
		keys[i] = cache.Key(identity, r.Digest, r.Questions[0].Digest, rq.InputHash)
	}
	return keys
}

// noRecordsLeft fails the test when store still keeps a batch record.
func noRecordsLeft(t *testing.T, store *cache.Store) {
	t.Helper()
	if recs, _ := store.Batches(identity); len(recs) != 0 {
		t.Errorf("records left: %+v", recs)
	}
}

// TestBatchOtherIntentLeftAlone: a record kept while other questions are
// being submitted (another asker of the process, as a calibration's runs
// submit at once, with the id not yet back) is not this asker's to look
// for: it neither asks the provider about it nor drops it when the
// provider has no such batch yet.
func TestBatchOtherIntentLeftAlone(t *testing.T) {
	r := loadRubric(t)
	all := requests(t, r, names(9)...)
	store := openStore(t)
	l := &labeled{batches: newBatches(0), byNonce: map[string]string{}}
	w := &waits{}

	// The other asker is stopped between keeping its intent and
	// learning its batch's id, as it is while the create is under way.
	ctx, kill := context.WithCancel(context.Background())
	defer kill()
	l.lost = func() bool { kill(); return true }
	other := &ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after}}
	if _, err := other.Ask(ctx, all[:4]); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the other asker stopped", err)
	}
	l.mu.Lock()
	l.byNonce = map[string]string{} // the provider has not made it yet
	l.mu.Unlock()
	l.lost = nil

	this := &ask.Asker{Judge: l, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: l, After: w.after}}
	if _, err := this.Ask(context.Background(), all[4:]); err != nil {
		t.Fatal(err)
	}
	if l.finds != 0 {
		t.Errorf("looked %d times for a batch of other questions", l.finds)
	}
	recs, err := store.Batches(identity)
	if err != nil {
		t.Fatal(err)
	}
	kept := false
	for _, rec := range recs {
		kept = kept || (rec.ID == "" && len(rec.Keys) == 4)
	}
	if !kept {
		t.Errorf("the other asker's intent was dropped: records %+v", recs)
	}
}

// TestTidyBatchesCountsAnswered: a record put after the run asked (by
// another run of the process, which collected its answers and has not
// yet dropped it), whose questions the cache answers, is dropped and
// counted as answered, not as stale: only the stale kind says something
// of this run (TestTidyBatches drops its answered record before
// TidyBatches runs, so it holds the stale kind only).
func TestTidyBatchesCountsAnswered(t *testing.T) {
	r := loadRubric(t)
	store := openStore(t)
	b := newBatches(0)
	w := &waits{}
	a := &ask.Asker{Judge: b, Identity: identity, Rubric: r, Cache: store, Batch: &ask.Batching{Judge: b, After: w.after, Scope: "file notes.json"}}
	reqs := requests(t, r, "tool_00", "tool_01")
	if _, err := a.Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, rq := range reqs {
		keys = append(keys, cache.Key(identity, r.Digest, r.Questions[0].Digest, rq.InputHash))
	}
	// Another run of this process collected these answers and has not
	// yet dropped its record.
	if err := store.PutBatch(cache.Batch{ID: "collected", Judge: identity, Keys: keys, Rubric: r.Digest, Scope: "file notes.json salt"}); err != nil {
		t.Fatal(err)
	}
	got, err := a.TidyBatches()
	if err != nil {
		t.Fatal(err)
	}
	if got != (ask.Tidied{Answered: 1}) {
		t.Errorf("dropped %+v, want the collected record counted as answered", got)
	}
}
