package ask

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/words"
)

// Batching makes an asker put its questions through the judge's batch
// API: the questions the cache does not answer go out as one batch,
// whose id is kept in the cache (cache.Batch) before anything else
// happens; the batch is polled until it has ended, its answers are
// collected, validated and cached as usual, and those that could not be
// read go out again in a follow-up batch, up to each question's retries.
// A run stopped while a batch runs (Ctrl-C, a crash, a kill) leaves its
// record, and the next run of the same questions takes the batch up
// instead of submitting them again.
type Batching struct {
	// Judge is the judge's batch side (see judge.AsBatcher).
	Judge judge.Batcher
	// Poll is the wait between two looks at a running batch; 0 means
	// DefaultPoll.
	Poll time.Duration
	// After, when set, stands in for time.After in that wait: a test
	// decides when the next look comes instead of sleeping.
	After func(d time.Duration) <-chan time.Time
	// OnEvent, when set, is told each step of each batch.
	OnEvent func(BatchEvent)
	// Scope names what the run scores (its target), kept in each batch's
	// record: TidyBatches drops the records of the same rubric and scope
	// that a finished run did not need.
	Scope string
	// OnIntent, when set, is called once the intent record of a labeled
	// batch is kept, before the batch is submitted: a test can stop the
	// run at that stage.
	OnIntent func(cache.Batch)
	// Now, when set, stands in for time.Now as the time an intent record
	// is kept: a test decides which batches were created since.
	Now func() time.Time
}

// DefaultPoll is the wait between two looks at a running batch: batches
// take minutes to hours, and every look is a request.
const DefaultPoll = 30 * time.Second

// BatchEvent is one step of a batch, for a log or a display.
type BatchEvent struct {
	// Step is "submitted", "found" (a batch a stopped run submitted
	// without keeping its id), "pending" (once, when a batch that may be
	// such a one has not ended, so the run waits to tell), "foreign" (a batch found
	// that way whose results prove it another's: none of its answers is
	// taken, and its questions go out anew), "resumed", "polled",
	// "collected" or "stopped" (the run ended while the batch still
	// runs).
	Step string
	// ID is the provider's id of the batch; Questions how many it holds.
	ID        string
	Questions int
	// Status is what the latest look said.
	Status judge.BatchStatus
}

// waiting is one distinct question of a batch run (requests with the
// same answer key share it): what it is, and how far it got.
type waiting struct {
	req  Request
	key  string
	salt string
	jq   judge.Question
	o    Observation
	idx  []int // the requests it answers
	done bool
	last error // why the latest answer could not be read
	// unanswered counts the batches that ended without the provider
	// answering the question (see judge.BatchResult.Unanswered): no
	// attempt, but bounded as attempts are; why says why the latest.
	unanswered int
	why        string
}

// spent says whether w has been sent as often as its question allows,
// answered or not.
func (w *waiting) spent() bool {
	return w.o.Attempts+w.unanswered >= 1+w.req.Question.Retries
}

// askBatch is Ask through the judge's batch API (see Batching).
func (a *Asker) askBatch(ctx context.Context, reqs []Request) ([]Observation, error) {
	if a.Cache == nil {
		return nil, errors.New("--batch keeps the ids of its batches in the answer cache, so that a stopped run can collect them: drop --no-cache")
	}
	out := make([]Observation, len(reqs))
	byKey := map[string]*waiting{}
	var order []*waiting
	for i, r := range reqs {
		q := r.Question
		salt := ""
		if a.Salt != nil {
			salt = a.Salt(r)
		}
		key := cache.SaltedKey(a.Identity, a.Rubric.Digest, q.Digest, r.InputHash, salt)
		a.mu.Lock()
		if a.asked == nil {
			a.asked = map[string]bool{}
		}
		a.asked[key] = true
		a.mu.Unlock()
		if w := byKey[key]; w != nil {
			w.idx = append(w.idx, i)
			continue
		}
		o, hit, err := a.cached(r, key)
		if err != nil {
			return nil, err
		}
		if hit {
			out[i] = o
			a.progress(o)
			continue
		}
		jq, bytes, err := a.question(r)
		if err != nil {
			return nil, err
		}
		o.PromptBytes = bytes
		w := &waiting{req: r, key: key, salt: salt, jq: jq, o: o, idx: []int{i}}
		byKey[key] = w
		order = append(order, w)
	}
	// First the batches a stopped run left with any of these questions.
	recs, err := a.Cache.Batches(a.Identity)
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		if rec.ID == "" {
			// A run stopped while submitting: the provider may have
			// accepted the batch without the run learning its id. Only
			// a record of these questions is looked for: another asks
			// other questions, perhaps this process's own other asker
			// submitting it now (a calibration's runs go at once).
			if !slices.ContainsFunc(rec.Keys, func(k string) bool { return byKey[k] != nil }) {
				continue
			}
			if rec, err = a.found(ctx, rec); err != nil {
				return nil, err
			}
			if rec.ID == "" {
				continue
			}
		}
		var mine []*waiting
		collected := true
		for _, k := range rec.Keys {
			if w := byKey[k]; w != nil && !w.done {
				mine = append(mine, w)
			}
			if _, ok := a.Cache.Get(k); !ok {
				collected = false
			}
		}
		if len(mine) == 0 {
			if collected { // collected, but stopped before the record went
				if err := a.Cache.DropBatch(rec.Key()); err != nil {
					return nil, err
				}
			}
			continue
		}
		a.event(BatchEvent{Step: "resumed", ID: rec.ID, Questions: len(rec.Keys)})
		if err := a.await(ctx, rec, mine, 0, out); err != nil {
			return nil, err
		}
	}
	// Then the rest, and again what came back unreadable.
	for {
		var items []judge.BatchItem
		var mine []*waiting
		var keys []string
		bound := 0.0
		for _, w := range order {
			if w.done {
				continue
			}
			items = append(items, judge.BatchItem{ID: w.key, Question: w.jq})
			mine = append(mine, w)
			keys = append(keys, w.key)
			if a.Budget != nil {
				bound += a.Budget.bound(w.o.PromptBytes)
			}
		}
		if len(items) == 0 {
			break
		}
		hold, err := a.reserveBatch(mine[0], len(items), bound)
		if err != nil {
			return nil, err
		}
		rec, err := a.submit(ctx, items, keys)
		if err != nil {
			a.spend(hold, judge.Tokens{})
			return nil, err
		}
		a.event(BatchEvent{Step: "submitted", ID: rec.ID, Questions: len(items)})
		if err := a.await(ctx, rec, mine, hold, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// cached is the answer the cache holds under key for r, when there is
// one the run may use.
func (a *Asker) cached(r Request, key string) (Observation, bool, error) {
	q := r.Question
	o := Observation{Question: q.Name, Kind: q.Kind, Subject: r.Subject, QuestionDigest: q.Digest, InputHash: r.InputHash}
	if a.Fresh {
		return o, false, nil
	}
	e, ok := a.Cache.Get(key)
	if !ok {
		return o, false, nil
	}
	if !judge.SameModel(a.pinned(), e.Model) {
		return o, false, &ModelError{Pinned: a.pinned(), Answered: e.Model, Kind: q.Kind, Subject: r.Subject}
	}
	if q.Validate(e.Answer) != nil {
		return o, false, nil
	}
	if err := a.fromCache(&o, e, r); err != nil {
		return o, false, err
	}
	return o, true, nil
}

// question renders r into the question a judge is sent, and its prompts'
// size; a prompt over the limit is refused.
func (a *Asker) question(r Request) (judge.Question, int, error) {
	q := r.Question
	p, err := render(r)
	if err != nil {
		return judge.Question{}, 0, err
	}
	if limit := a.maxPromptBytes(); p.bytes() > limit {
		return judge.Question{}, 0, &PromptTooLargeError{Kind: q.Kind, Subject: r.Subject, Bytes: p.bytes(), Limit: limit}
	}
	jq := judge.Question{
		Rubric: a.Rubric.Name, RubricDigest: a.Rubric.Digest, Kind: q.Kind, Subject: r.Subject,
		System: p.system, Context: p.context, User: p.user, AnswerSchema: q.AnswerSchema, Input: r.InputJSON,
	}
	if r.Shared != nil {
		jq.Shared, jq.SharedHash = r.Shared.JSON, r.Shared.ref
	}
	return jq, p.bytes(), nil
}

// reserveBatch holds the greatest cost of a whole batch (bound), or
// returns the BudgetError that stops it, naming its first question.
func (a *Asker) reserveBatch(first *waiting, n int, bound float64) (float64, error) {
	if a.Budget == nil {
		return 0, nil
	}
	subject := first.req.Subject
	if n > 1 {
		subject = fmt.Sprintf("%s and %d more in one batch", subject, n-1)
	}
	return a.reserveCost(first.req.Question.Kind, subject, bound)
}

// await polls the batch id until it has ended, then collects its
// results for the questions mine: each readable answer is cached and
// handed to its requests in out; an unreadable one spends a retry.
// hold is what the batch holds of the budget.
func (a *Asker) await(ctx context.Context, rec cache.Batch, mine []*waiting, hold float64, out []Observation) error {
	b, id := a.Batch.Judge, rec.ID
	var st judge.BatchStatus
	limited := 0 // rate limits in a row
	for {
		var err error
		st, err = b.PollBatch(ctx, id)
		var rl *judge.RateLimitError
		if errors.As(err, &rl) && limited+1 < a.maxRateLimits() {
			limited++
			a.count(func(s *Stats) { s.RateLimited++ })
			if err := a.pause(ctx); err != nil {
				a.spend(hold, judge.Tokens{})
				return a.stopped(ctx, id, len(mine), err)
			}
			continue
		}
		limited = 0
		if err != nil {
			a.spend(hold, judge.Tokens{})
			return a.stopped(ctx, id, len(mine), fmt.Errorf("looking at the batch %s: %w; it is still kept, so running again collects it", id, err))
		}
		a.event(BatchEvent{Step: "polled", ID: id, Questions: len(mine), Status: st})
		if st.Ended {
			break
		}
		if err := a.pause(ctx); err != nil {
			a.spend(hold, judge.Tokens{})
			return a.stopped(ctx, id, len(mine), err)
		}
	}
	if st.Failed != "" {
		a.spend(hold, judge.Tokens{})
		if err := a.Cache.DropBatch(rec.Key()); err != nil {
			return err
		}
		return fmt.Errorf("the batch %s failed at the provider: %s; nothing of it was answered, so running again submits its questions anew", id, st.Failed)
	}
	results, err := b.CollectBatch(ctx, id)
	if err != nil {
		a.spend(hold, judge.Tokens{})
		return a.stopped(ctx, id, len(mine), fmt.Errorf("collecting the batch %s: %w; it is still kept, so running again collects it", id, err))
	}
	if rec.LabeledIDs && !ours(rec, results) {
		// Found by its creation and size alone, and its results are
		// another's: nothing of it is taken, and the questions go out
		// anew.
		a.spend(hold, judge.Tokens{})
		a.event(BatchEvent{Step: "foreign", ID: id, Questions: len(mine), Status: st})
		return a.Cache.DropBatch(rec.Key())
	}
	byID := make(map[string]*waiting, len(mine))
	for _, w := range mine {
		byID[rec.ItemID(w.key)] = w
	}
	var spent judge.Tokens
	var failed error
	seen := map[string]bool{}
	for _, res := range results {
		w := byID[res.ID]
		if w == nil || w.done || seen[res.ID] {
			continue
		}
		seen[res.ID] = true
		q := w.req.Question
		// A call is a reply the judge gave, readable or not: an item the
		// provider never answered, or refused, is none.
		answered := res.Unanswered == "" && res.Err == ""
		a.count(func(s *Stats) {
			if answered {
				s.Calls++
			} else if res.Unanswered != "" {
				s.Unanswered++
			}
			s.Tokens = s.Tokens.Add(res.Answer.Tokens)
		})
		spent = spent.Add(res.Answer.Tokens)
		w.o.Tokens = w.o.Tokens.Add(res.Answer.Tokens)
		switch {
		case res.Unanswered != "":
			w.unanswered++
			w.why, w.last = res.Unanswered, nil
			continue
		case res.Err != "":
			if failed == nil {
				failed = fmt.Errorf("asking %s about %q in the batch %s: %s", q.Kind, w.req.Subject, id, res.Err)
			}
			continue
		case res.Unreadable != "":
			w.last = a.unreadable(&w.o, q, &judge.UnreadableError{Msg: res.Unreadable})
			continue
		}
		model := res.Answer.Model
		if model == "" {
			model = a.pinned()
		}
		if !judge.SameModel(a.pinned(), model) {
			if failed == nil {
				failed = &ModelError{Pinned: a.pinned(), Answered: model, Kind: q.Kind, Subject: w.req.Subject}
			}
			continue
		}
		answer, _, err := readAnswer(q, res.Answer.JSON)
		if err != nil {
			w.last = a.unreadable(&w.o, q, err)
			continue
		}
		w.o.Attempts++
		w.o.Answer, w.o.Model = answer, model
		if a.CountTokens {
			p := prompts{system: w.jq.System, context: w.jq.Context, user: w.jq.User}
			if w.o.Counted, err = countedTokens(w.req, p, answer, w.o.Tokens); err != nil {
				return err
			}
		}
		if err := a.Cache.Put(cache.Entry{
			Key: w.key, Judge: a.Identity, Rubric: a.Rubric.Digest, Question: q.Digest, Kind: q.Kind,
			Subject: w.req.Subject, InputHash: w.req.InputHash, Answer: answer, Model: model, Tokens: w.o.Tokens,
			PromptBytes: w.o.PromptBytes, Counted: w.o.Counted, Salt: w.salt,
		}); err != nil {
			return err
		}
		w.done = true
		for _, i := range w.idx {
			out[i] = w.o
			a.progress(w.o)
		}
	}
	a.spend(hold, spent)
	for _, w := range mine {
		if !w.done && !seen[rec.ItemID(w.key)] {
			a.count(func(s *Stats) { s.Unanswered++ })
			w.unanswered++
			w.why, w.last = fmt.Sprintf("the batch ended (%s) without a result for it", st.State), nil
		}
	}
	a.event(BatchEvent{Step: "collected", ID: id, Questions: len(mine), Status: st})
	if err := a.Cache.DropBatch(rec.Key()); err != nil {
		return err
	}
	if failed != nil {
		return failed
	}
	var never *UnansweredError
	for _, w := range mine {
		if w.done || !w.spent() {
			continue
		}
		if w.last != nil {
			return &UnreadableError{Kind: w.req.Question.Kind, Subject: w.req.Subject, Attempts: w.o.Attempts, Last: w.last, Judge: a.Identity}
		}
		if never == nil {
			never = &UnansweredError{Batch: id, Why: w.why, Sent: w.unanswered + w.o.Attempts}
		}
		never.Questions++
	}
	if never != nil {
		return never
	}
	return nil
}

// UnansweredError is a --batch run whose provider never answered some of
// its questions, in as many batches as their retries allow: the batch
// expired or was cancelled before it came to them, or the provider
// failed them. No judge answered, so nothing was wrong with an answer.
type UnansweredError struct {
	// Batch is the latest batch; Questions how many of its questions it
	// left unanswered; Sent how often each was sent; Why what the
	// provider said of one of them.
	Batch     string
	Questions int
	Sent      int
	Why       string
}

// Error says what the provider did and what to do.
func (e *UnansweredError) Error() string {
	sent := ""
	if e.Sent > 1 {
		sent = fmt.Sprintf(", after sending %s %s", words.Pick(e.Questions, "it", "them"), words.Count(e.Sent, "time"))
	}
	return fmt.Sprintf("the provider ended the batch %s before answering %s (%s)%s: no judge answered %s, so no answer was wrong; run the same command again to submit %s anew",
		e.Batch, words.Count(e.Questions, "question"), e.Why, sent, words.Pick(e.Questions, "it", "them"), words.Pick(e.Questions, "it", "them"))
}

// submit sends items as one batch and keeps its record. With a judge
// that finds its batches by a label (judge.BatchFinder), an intent
// record with a fresh nonce and the time is kept first, and the nonce
// sent with the batch and at the head of every item's ID, so that a run
// killed before it learns the batch's id finds it again.
func (a *Asker) submit(ctx context.Context, items []judge.BatchItem, keys []string) (cache.Batch, error) {
	rec := cache.Batch{Judge: a.Identity, Keys: keys, Rubric: a.Rubric.Digest, Scope: a.Batch.Scope}
	finder, labels := a.Batch.Judge.(judge.BatchFinder)
	labels = labels && finder.LabelsBatches()
	var id string
	var err error
	if labels {
		if rec.Nonce, err = newNonce(); err != nil {
			return rec, err
		}
		rec.LabeledIDs, rec.Since = true, a.now()
		if items, err = labeledItems(rec, items); err != nil {
			return rec, err
		}
		if err := a.Cache.PutBatch(rec); err != nil {
			return rec, fmt.Errorf("keeping the record of a batch before submitting it: %w", err)
		}
		if a.Batch.OnIntent != nil {
			a.Batch.OnIntent(rec)
		}
		id, err = finder.SubmitLabeledBatch(ctx, items, rec.Nonce)
	} else {
		id, err = a.Batch.Judge.SubmitBatch(ctx, items)
	}
	if err != nil {
		if ctx.Err() != nil {
			// The provider may have accepted it: the intent stays, and
			// the next run looks for the batch by its nonce.
			return rec, context.Cause(ctx)
		}
		if labels {
			if err := a.Cache.DropBatch(rec.Key()); err != nil {
				return rec, err
			}
		}
		return rec, fmt.Errorf("submitting a batch of %d questions: %w", len(items), err)
	}
	rec.ID = id
	if err := a.Cache.PutBatch(rec); err != nil {
		return rec, fmt.Errorf("the batch %s was submitted, but its id could not be kept (%w): collect it by hand or it will be asked again", id, err)
	}
	return rec, nil
}

// found looks for the batch of an intent record at the provider: the
// record with the batch's id when the provider accepted it, else the
// record dropped and returned without an id (its questions go out anew).
// While the judge says a batch that may be it has not ended, it waits
// and looks again: submitting the questions meanwhile could pay for them
// twice.
func (a *Asker) found(ctx context.Context, rec cache.Batch) (cache.Batch, error) {
	finder, ok := a.Batch.Judge.(judge.BatchFinder)
	if !ok || !finder.LabelsBatches() || rec.Nonce == "" {
		// Kept by a judge that finds its batches and run now with one
		// that does not: nothing can find it.
		return rec, nil
	}
	label := judge.BatchLabel{Nonce: rec.Nonce, Since: rec.Since, Items: len(rec.Keys)}
	var id string
	waited := false
	for {
		f, err := finder.FindBatch(ctx, label)
		if err != nil {
			if ctx.Err() != nil {
				return rec, context.Cause(ctx)
			}
			return rec, fmt.Errorf("looking for a batch a stopped run may have submitted (nonce %s): %w; run again to look once more", rec.Nonce, err)
		}
		if id = f.ID; id != "" || !f.Pending {
			break
		}
		if !waited {
			a.event(BatchEvent{Step: "pending", Questions: len(rec.Keys)})
			waited = true
		}
		if err := a.pause(ctx); err != nil {
			return rec, fmt.Errorf("%w; a batch that may be the one a stopped run submitted (nonce %s) has not ended, so running the same command again looks for it again without asking anew", err, rec.Nonce)
		}
	}
	if id == "" {
		return rec, a.Cache.DropBatch(rec.Key())
	}
	rec.ID = id
	if err := a.Cache.PutBatch(rec); err != nil {
		return rec, err
	}
	a.event(BatchEvent{Step: "found", ID: id, Questions: len(rec.Keys)})
	return rec, nil
}

// TidyBatches, called once a run has asked everything it needs, drops
// the records of the judge's batches that no run will take up: those
// whose questions are all answered in the cache (whichever run answered
// them, with or without --batch), and those of the same rubric and scope
// (Batching.Scope) none of whose questions this run asked, left by an
// earlier run of definitions or prompts that have changed since. It
// returns how many of each it dropped. The first kind may include a
// record another run in this process is finishing (it has put the
// answers and not yet dropped the record: dropping twice is harmless),
// so only the second says something about this run.
func (a *Asker) TidyBatches() (Tidied, error) {
	var t Tidied
	if a.Batch == nil || a.Cache == nil {
		return t, nil
	}
	recs, err := a.Cache.Batches(a.Identity)
	if err != nil {
		return t, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, rec := range recs {
		answered, needed := true, false
		for _, k := range rec.Keys {
			if _, ok := a.Cache.Get(k); !ok {
				answered = false
			}
			needed = needed || a.asked[k]
		}
		unneeded := a.Batch.Scope != "" && rec.Scope == a.Batch.Scope && rec.Rubric == a.Rubric.Digest && !needed
		if !answered && !unneeded {
			continue
		}
		if err := a.Cache.DropBatch(rec.Key()); err != nil {
			return t, err
		}
		if answered {
			t.Answered++
		} else {
			t.Stale++
		}
	}
	return t, nil
}

// Tidied counts the batch records TidyBatches dropped, by why.
type Tidied struct {
	// Answered records had every question answered in the cache.
	Answered int
	// Stale records were of this run's rubric and scope, and this run
	// asked none of their questions.
	Stale int
}

// labeledItems is items under the IDs of the labeled batch rec
// (cache.Batch.ItemID), which must stay unique.
func labeledItems(rec cache.Batch, items []judge.BatchItem) ([]judge.BatchItem, error) {
	out := make([]judge.BatchItem, len(items))
	seen := make(map[string]bool, len(items))
	for i, it := range items {
		it.ID = rec.ItemID(it.ID)
		if seen[it.ID] {
			return nil, fmt.Errorf("two questions of a batch share the item id %s: run without --batch", it.ID)
		}
		seen[it.ID] = true
		out[i] = it
	}
	return out, nil
}

// ours reports whether results can be those of the labeled batch rec:
// every result's ID is one of its items' (none when there are none, and
// then nothing is taken either). A batch found by when it was created
// and its size alone is taken only then.
func ours(rec cache.Batch, results []judge.BatchResult) bool {
	ids := make(map[string]bool, len(rec.Keys))
	for _, k := range rec.Keys {
		ids[rec.ItemID(k)] = true
	}
	for _, r := range results {
		if !ids[r.ID] {
			return false
		}
	}
	return true
}

// now is the time an intent record is kept.
func (a *Asker) now() time.Time {
	if a.Batch.Now != nil {
		return a.Batch.Now()
	}
	return time.Now()
}

// newNonce is a random label for a batch: 128 bits, in hex.
func newNonce() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// stopped is err for a run that ends while the batch id still runs: the
// record stays, so that the next run takes it up.
func (a *Asker) stopped(ctx context.Context, id string, n int, err error) error {
	a.event(BatchEvent{Step: "stopped", ID: id, Questions: n})
	if ctx.Err() != nil {
		return fmt.Errorf("%w; the batch %s is still running at the provider and its id is kept in the answer cache, so running the same command again collects its answers without asking again", context.Cause(ctx), id)
	}
	return err
}

// pause waits the poll interval, or less when the run is cancelled.
func (a *Asker) pause(ctx context.Context) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	d := a.Batch.Poll
	if d <= 0 {
		d = DefaultPoll
	}
	return waitFor(ctx, nil, d, a.Batch.After)
}

func (a *Asker) event(e BatchEvent) {
	if a.Batch.OnEvent != nil {
		a.Batch.OnEvent(e)
	}
}
