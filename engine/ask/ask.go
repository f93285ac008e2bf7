// Package ask puts a rubric's questions to a judge: at a bounded
// concurrency, through the cache, validating every answer against its
// question's schema, asking again for an unreadable answer up to the
// question's retries, waiting out rate limits without spending a retry,
// and refusing any answer from a model other than the pinned one.
//
// Every answer becomes an Observation with its provenance (question
// digest, input hash, model, whether it came from the cache), which is
// all a score needs: scores never call a judge themselves.
package ask

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// Request is one question about one subject, with its input rendered.
type Request struct {
	Question *rubric.Question
	// Subject names what is asked about: a tool's name, "surface", or an
	// item.
	Subject string
	// Input is the structured input as plain values, what the prompt
	// templates see (as decodeJSON reads InputJSON: TemplateInput makes
	// it from the value); InputJSON its canonical JSON; InputHash
	// "sha256:" + the hex sha256 of InputJSON. When Input is nil the
	// asker decodes InputJSON (numbers as written) for the templates
	// just before it renders them.
	Input     any
	InputJSON []byte
	InputHash string
	// Shared, when not nil, is what this request shares with others of
	// the run (see rubric.Question.Shared): sent to the judge beside the
	// input, and its shared prompt rendered once for all of them.
	Shared *Shared
	// MayStayUnreadable, when set, lets the question's answer stay
	// unreadable after its retries without failing the run: the
	// observation comes back with Unreadable saying why and no answer
	// (a rubric that scores the tools it could, see rubric.MinScored).
	MayStayUnreadable bool
	// Value, when not nil, receives the answer's value, as lang.FromJSON
	// reads the observation's Answer, when the asker has it at hand (an
	// answer it read or validated itself), so that the caller need not
	// decode Answer again; it is left alone otherwise, and the caller
	// decodes Answer.
	Value *any
}

// Shared is a value that many requests of a run share: its canonical JSON
// and hash, and the shared prompt rendered from it, once.
type Shared struct {
	// JSON is the value's canonical JSON; Hash "sha256:" + its hex sha256.
	JSON []byte
	Hash string

	once    sync.Once
	context string
	ref     string // names JSON and context together: judge.Question.SharedHash
	err     error

	countOnce sync.Once // the tokens of context, counted once (see countedTokens)
	count     int
	countErr  error
}

// NewShared returns the shared value whose canonical JSON is b.
func NewShared(b []byte) *Shared { return &Shared{JSON: b, Hash: surface.HashBytes(b)} }

// InputHash is the hash a request's answer is kept under: of its input's
// canonical JSON alone, or, when the request shares a value, of the
// canonical JSON {"input": input, "shared": the shared value's hash}, so
// that an answer is never reused for another shared value.
func InputHash(input []byte, shared *Shared) string {
	if shared == nil {
		return surface.HashBytes(input)
	}
	// Hashed as written, without a copy of the input; the fixed parts
	// are written from bytes made once, where io.WriteString copied each
	// into a new slice, and the name is spelt in place (3 allocations a
	// question where there were 8).
	h := sha256.New()
	h.Write(inputOpen)
	h.Write(input)
	h.Write(sharedOpen)
	io.WriteString(h, shared.Hash)
	h.Write(sharedClose)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return surface.HashName(sum)
}

// The fixed parts of the JSON InputHash hashes for a request that shares
// a value.
var (
	inputOpen   = []byte(`{"input":`)
	sharedOpen  = []byte(`,"shared":"`)
	sharedClose = []byte(`"}`)
)

// render renders q's shared prompt from the shared value, once, and
// names the two together.
func (s *Shared) render(q *rubric.Question) (string, error) {
	s.once.Do(func() {
		if q.Context != nil {
			var v any
			if v, s.err = decodeJSON(s.JSON); s.err == nil {
				s.context, s.err = q.RenderContext(v)
			}
		}
		s.ref = surface.HashBytes([]byte(s.Hash + "\x00" + s.context))
	})
	return s.context, s.err
}

// Observation is an answer and where it came from; reports keep them.
type Observation = report.Observation

// Stats counts what a run asked. Calls are the replies the judge gave,
// readable or not, with or without --batch; RateLimited the requests the
// provider turned away for now (a rate limit, a server error) and that
// were asked again; Unanswered the batch items the provider never
// answered (the batch expired or was cancelled first, or the provider
// failed the item). Neither of the last two is a call.
type Stats struct {
	Questions   int           `json:"questions"`
	Calls       int           `json:"calls"`
	CacheHits   int           `json:"cache_hits"`
	Retries     int           `json:"retries"`
	RateLimited int           `json:"rate_limited"`
	Unanswered  int           `json:"unanswered,omitempty"`
	Tokens      report.Tokens `json:"tokens"`
	// CostUSD is what the calls cost, in US dollars, when the model's
	// price is known.
	CostUSD float64 `json:"cost_usd,omitempty"`
}

// Report is what the stats count since before, as a report's calls.
// Pass the zero Stats for everything counted.
func (s Stats) Report(before Stats) report.Calls {
	in, out := s.Tokens.Input-before.Tokens.Input, s.Tokens.Output-before.Tokens.Output
	cached := s.Tokens.Cached - before.Tokens.Cached
	c := report.Calls{
		Model: s.Calls - before.Calls, CacheHits: s.CacheHits - before.CacheHits, Tokens: in + out,
		Questions: s.Questions - before.Questions, Retries: s.Retries - before.Retries,
		RateLimited: s.RateLimited - before.RateLimited, Unanswered: s.Unanswered - before.Unanswered,
		InputTokens: in, OutputTokens: out,
	}
	if in > 0 {
		c.CachedInputTokens, c.UncachedInputTokens = &cached, new(in-cached)
	}
	return c
}

// Progress is a snapshot for a progress display.
type Progress struct {
	Done, Total int
	Stats       Stats
}

// Judge is what the asker needs of a judge.
type Judge interface {
	Ask(ctx context.Context, q judge.Question) (judge.Answer, error)
}

// Asker asks questions of one judge for one rubric.
type Asker struct {
	Judge Judge
	// Identity is the judge's identity as configured; it enters every
	// cache key.
	Identity judge.Identity
	// Model is the pinned model; empty means Identity.Model. An answer
	// from another model ends the run (see SameModel).
	Model  string
	Rubric *rubric.Rubric
	// Cache, when not nil, is read before asking and written as answers
	// arrive.
	Cache *cache.Store
	// Fresh asks the judge even when the cache holds an answer, and still
	// writes the new answer to the cache: calibration runs want answers
	// given afresh, each run its own.
	Fresh bool
	// Concurrency bounds the questions in flight; 0 means
	// DefaultConcurrency.
	Concurrency int
	// Salt, when set, names a request's salt: a non-empty salt gives the
	// answer a cache key of its own (cache.SaltedKey), so the question is
	// asked afresh beside any answer cached without it. The gate's
	// confirming pairs use it; nil or "" keeps the plain key.
	Salt func(Request) string
	// OnProgress, when set, is called after every answer.
	OnProgress func(Progress)
	// Wait is how long to wait before asking again after the n-th rate
	// limit (n from 1) that named no wait; nil means 1s, 2s, 4s ... up to
	// a minute.
	Wait func(n int) time.Duration
	// MaxRateLimits is how many rate limits in a row one question may meet
	// before the run gives up; 0 means 8.
	MaxRateLimits int
	// MaxWait bounds a wait a provider asks for (Retry-After); 0 means
	// DefaultMaxWait.
	MaxWait time.Duration
	// After, when set, stands in for time.After in the wait before asking
	// again after a rate limit: a test records the waits instead of
	// sleeping them and reading the clock.
	After func(d time.Duration) <-chan time.Time
	// MaxPromptBytes bounds the prompts (system and user together) of one
	// question; 0 means DefaultMaxPromptBytes. A larger prompt is not sent
	// (see PromptTooLargeError).
	MaxPromptBytes int
	// Price, when set, is what the model's tokens cost: the stats count
	// what the run spent. A Budget's price stands in for it.
	Price *Price
	// Budget, when set, bounds what the run spends: a call that could
	// pass it is not started, and the run ends with a *BudgetError.
	Budget *Budget
	// OnBudget, when set, is called when the budget stops a call, while
	// the calls in flight go on: a display can say the run is ending.
	OnBudget func(*BudgetError)
	// Batch, when set, puts the questions through the judge's batch API
	// (see Batching); Price and Budget are then the batch prices.
	Batch *Batching
	// OnPendingBatch, when set, is told before a run without Batch asks
	// its judge, once for each batch a stopped --batch run left running
	// in the cache that holds questions it is about to ask: those are
	// paid for already, and a run with Batch would collect them. An
	// error it returns ends Ask before anything is asked.
	OnPendingBatch func(PendingBatch) error
	// CountTokens, when set, counts the tokens of every answer whose
	// judge reported none, and of its prompts, in CountEncoding, into the
	// observation (Observation.Counted) and the cache. Counting is slow
	// (under a megabyte a second), so a run sets it only when the
	// rubric's formulas read what answers cost (rubric.ReadsUsage).
	CountTokens bool
	// StructuredOnly says the judge reads a question's structured input
	// alone, never its prompts (judge.CapabilityStructuredInput): unless
	// tokens are counted, the system and user prompts are then only
	// measured, for the observation's PromptBytes and the size bound, and
	// the judge gets them empty.
	StructuredOnly bool

	// inFlight holds a slot for each question being asked, so that the
	// questions of Ask calls made side by side (a scan's or a caller's
	// own) stay within Concurrency together.
	inFlightOnce sync.Once
	inFlight     chan struct{}

	mu    sync.Mutex
	asked map[string]bool // in batches, the answer keys asked so far (see TidyBatches)
	held  float64         // the greatest cost of the calls in flight
	told  map[string]bool // the ids of the batches OnPendingBatch was told of
	// pending are the batch records of the cache, read once (see
	// pendingBatches): a run without Batch adds none.
	pending     []cache.Batch
	pendingRead bool
	stats       Stats
	done        int
	total       int
	// flights are the questions being asked under their cache keys (see
	// lead); onWait, for tests, is told when a question waits for one.
	flights map[string]chan struct{}
	onWait  func()
}

// DefaultConcurrency is how many questions are in flight at once unless
// the run says otherwise.
const DefaultConcurrency = 6

// LocalConcurrency is how many questions a run keeps in flight, unless it
// says otherwise, with a judge that answers on this machine
// (judge.CapabilityLocal): no provider limits it, and with six in flight
// the two processes woke each other for nearly every answer, so that a
// 5,000-tool TDQS run left a fifth of the machine's CPU idle (see
// bench/README.md). A question in flight holds only its request.
const LocalConcurrency = 128

// DefaultMaxWait is the longest wait for a rate limit, whatever the
// provider's Retry-After says.
const DefaultMaxWait = 5 * time.Minute

// DefaultMaxPromptBytes bounds a prompt unless the run says otherwise:
// far more than any model's context holds, so it stops only definitions
// that amplify (a schema nested thousands deep, indented in the prompt).
const DefaultMaxPromptBytes = 16 << 20

// PromptTooLargeError is a question whose prompt is larger than the
// asker allows: no judge was asked.
type PromptTooLargeError struct {
	Kind, Subject string
	Bytes, Limit  int
}

// Error names the question, what it was about, the size and the limit.
func (e *PromptTooLargeError) Error() string {
	return fmt.Sprintf("the prompt of %s about %q is %d bytes, more than the %d bytes a prompt may have, so no judge was asked: the definition is unusually large (a schema nested very deep, say); shorten it, or score the surface with a rubric that asks no judge",
		e.Kind, e.Subject, e.Bytes, e.Limit)
}

// Stats returns what the asker has counted so far.
func (a *Asker) Stats() Stats {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stats
}

// ModelError is an answer from a model other than the pinned one: the run
// is invalid.
type ModelError struct {
	Pinned, Answered string
	Kind, Subject    string
}

// Error names both models, what would have kept the pin, and what to
// do.
func (e *ModelError) Error() string {
	if e.Answered == "" {
		return fmt.Sprintf("the judge answered %s about %q without naming the model that answered (the judge's Answer.Model is empty), but the run pins model %q: answers from another model are refused, so the run is invalid: the judge plugin must name the model of each answer; update it, or tell its author",
			e.Kind, e.Subject, e.Pinned)
	}
	return fmt.Sprintf("the judge answered %s about %q with model %q, but the run pins model %q (%s): answers from another model are refused, so the run is invalid: to take its answers, pin %q instead (--model, or a config file's model)",
		e.Kind, e.Subject, e.Answered, e.Pinned, judge.KeptBy(e.Pinned), e.Answered)
}

// UnreadableError is a question whose answers were all unreadable.
type UnreadableError struct {
	Kind, Subject string
	Attempts      int
	Last          error
	// Judge is the identity of the judge that answered, named in the
	// message (a team's own plugin is to blame as often as a model).
	Judge judge.Identity
}

// Error says which judge, which question, how often it was asked and the
// last problem.
func (e *UnreadableError) Error() string {
	by := ""
	if e.Judge.Plugin != "" {
		by = fmt.Sprintf(" of the judge %q", e.Judge.Plugin)
		if e.Judge.Model != "" {
			by += fmt.Sprintf(" (model %q)", e.Judge.Model)
		}
	}
	return fmt.Sprintf("the answer%s to %s about %q was still unreadable after %d attempts: %v", by, e.Kind, e.Subject, e.Attempts, e.Last)
}

// Unwrap returns the last problem.
func (e *UnreadableError) Unwrap() error { return e.Last }

// Ask answers every request, in order. On the first failure it starts no
// new call, lets the calls in flight finish (their answers are paid for,
// and cached as they arrive), and returns the error. Cancelling ctx
// (Ctrl-C) stops the calls in flight too.
func (a *Asker) Ask(ctx context.Context, reqs []Request) ([]Observation, error) {
	out := make([]Observation, len(reqs))
	a.mu.Lock()
	a.total += len(reqs)
	a.mu.Unlock()
	if a.Batch != nil {
		return a.askBatch(ctx, reqs)
	}
	if err := a.tellPending(reqs); err != nil {
		return nil, err
	}
	workers := a.Concurrency
	if workers <= 0 {
		workers = DefaultConcurrency
	}
	stop := make(chan struct{})
	var once sync.Once
	var first error
	fail := func(err error) { once.Do(func() { first = err; close(stop) }) }
	jobs := make(chan int)
	var wg sync.WaitGroup
	a.inFlightOnce.Do(func() { a.inFlight = make(chan struct{}, workers) })
	for range min(workers, len(reqs)) {
		wg.Go(func() {
			for i := range jobs {
				a.inFlight <- struct{}{}
				o, err := a.one(ctx, stop, reqs[i])
				<-a.inFlight
				if err != nil && reqs[i].MayStayUnreadable {
					if ur, ok := errors.AsType[*UnreadableError](err); ok {
						o.Unreadable = ur.Error()
						err = nil
					}
				}
				if err != nil {
					if !errors.Is(err, errStopped) {
						fail(err)
					}
					continue
				}
				out[i] = o
				a.progress(o)
			}
		})
	}
feed:
	for i := range reqs {
		select {
		case jobs <- i:
		case <-stop:
			break feed
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	return out, nil
}

// AsksAtOnce says that questions may be put to a at once from several
// goroutines, each Ask on its own, sharing a's concurrency, budget and
// cache (score/stage.AtOnce): true unless a submits each Ask as a
// provider batch, whose batches and their order stay as they were.
func (a *Asker) AsksAtOnce() bool { return a.Batch == nil }

// errStopped is what a question returns when another question has failed
// before it could start a call.
var errStopped = errors.New("stopped: another question failed")

func (a *Asker) progress(o Observation) {
	a.mu.Lock()
	a.done++
	a.stats.Questions++
	if o.Cached {
		a.stats.CacheHits++
	}
	p := Progress{Done: a.done, Total: a.total, Stats: a.stats}
	a.mu.Unlock()
	if a.OnProgress != nil {
		a.OnProgress(p)
	}
}

func (a *Asker) count(f func(*Stats)) {
	a.mu.Lock()
	f(&a.stats)
	a.mu.Unlock()
}

func (a *Asker) pinned() string {
	if a.Model != "" {
		return a.Model
	}
	return a.Identity.Model
}

// fromCacheKey reads r's answer from the cache under key into o: hit
// says whether it was there, readable and valid for r's question.
func (a *Asker) fromCacheKey(o *Observation, key string, r Request) (hit bool, err error) {
	e, ok := a.Cache.Get(key)
	if !ok {
		return false, nil
	}
	q := r.Question
	if !judge.SameModel(a.pinned(), e.Model) {
		return true, &ModelError{Pinned: a.pinned(), Answered: e.Model, Kind: q.Kind, Subject: r.Subject}
	}
	v, ok := validCached(q, e.Answer)
	if !ok {
		return false, nil
	}
	err = a.fromCache(o, e, r)
	if err == nil && r.Value != nil {
		*r.Value = v
	}
	return true, err
}

// lead makes the caller the one that asks the question under key, unless
// another question with that key is being asked: then it returns that
// one's channel, closed when it lands, and false.
func (a *Asker) lead(key string) (landed chan struct{}, lead bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if ch, ok := a.flights[key]; ok {
		return ch, false
	}
	if a.flights == nil {
		a.flights = map[string]chan struct{}{}
	}
	ch := make(chan struct{})
	a.flights[key] = ch
	return ch, true
}

// land ends the flight under key: whoever waits on it looks in the cache
// again (and asks itself if the first failed).
func (a *Asker) land(key string, landed chan struct{}) {
	a.mu.Lock()
	delete(a.flights, key)
	a.mu.Unlock()
	close(landed)
}

// one answers one request: from the cache, or by asking.
func (a *Asker) one(ctx context.Context, stop <-chan struct{}, r Request) (Observation, error) {
	q := r.Question
	o := Observation{Question: q.Name, Kind: q.Kind, Subject: r.Subject, QuestionDigest: q.Digest, InputHash: r.InputHash}
	// The salt and the key name the answer in the cache alone: a run
	// without one (--no-cache) makes neither (a key is a JSON encoding of
	// the judge's identity and a sha256, 5,000 of them at 5,000 tools).
	var salt, key string
	if a.Cache != nil {
		if a.Salt != nil {
			salt = a.Salt(r)
		}
		key = cache.SaltedKey(a.Identity, a.Rubric.Digest, q.Digest, r.InputHash, salt)
	}
	if a.Cache != nil && !a.Fresh {
		// One question asked twice in a run (the same key) is asked
		// once: the second waits for the first's answer and reads it from
		// the cache, however the two were scheduled, so that a run's
		// count of calls and cache hits does not depend on timing.
		for {
			if hit, err := a.fromCacheKey(&o, key, r); hit {
				return o, err
			}
			landed, lead := a.lead(key)
			if lead {
				defer a.land(key, landed)
				// The first may have landed between the look and the lead.
				if hit, err := a.fromCacheKey(&o, key, r); hit {
					return o, err
				}
				break
			}
			if a.onWait != nil {
				a.onWait()
			}
			select {
			case <-landed:
			case <-stop:
				return o, errStopped
			case <-ctx.Done():
				return o, context.Cause(ctx)
			}
		}
	}
	var p prompts
	var err error
	if a.StructuredOnly && !a.CountTokens {
		p, err = measure(r)
	} else {
		p, err = render(r)
	}
	if err != nil {
		return o, err
	}
	o.PromptBytes = p.bytes()
	if limit := a.maxPromptBytes(); o.PromptBytes > limit {
		return o, &PromptTooLargeError{Kind: q.Kind, Subject: r.Subject, Bytes: o.PromptBytes, Limit: limit}
	}
	jq := judge.Question{
		Rubric: a.Rubric.Name, RubricDigest: a.Rubric.Digest, Kind: q.Kind, Subject: r.Subject,
		System: p.system, Context: p.context, User: p.user, AnswerSchema: q.AnswerSchema, Input: r.InputJSON,
	}
	if r.Shared != nil {
		jq.Shared, jq.SharedHash = r.Shared.JSON, r.Shared.ref
	}
	// While answers are cached, the call carries what names the question
	// in the cache, for a judge made of members that keeps each member's
	// answers as the member alone would (MemberMemo).
	actx := ctx
	var meta *asked
	if a.Cache != nil {
		meta = &asked{rubric: a.Rubric.Digest, question: q, kind: q.Kind, subject: r.Subject, inputHash: r.InputHash, salt: salt, promptBytes: o.PromptBytes, fresh: a.Fresh}
		actx = withAsked(ctx, meta)
	}
	var last error // why the last answer could not be read
	limited := 0   // rate limits in a row
	for o.Attempts < 1+q.Retries {
		select {
		case <-stop:
			return o, errStopped
		default:
		}
		hold, err := a.reserve(q.Kind, r.Subject, o.PromptBytes)
		if err != nil {
			return o, err
		}
		if meta != nil {
			meta.kept, meta.put = 0, 0
		}
		ans, err := a.Judge.Ask(actx, jq)
		a.spend(hold, ans.Tokens)
		// An answer made wholly of members' answers the cache kept cost
		// no call: it is reported as read from the cache (progress
		// counts it there).
		kept := err == nil && meta != nil && meta.kept > 0 && meta.put == 0
		// errors.AsType, where errors.As made each question's two
		// targets escape to the heap, error or not.
		rl, isLimit := errors.AsType[*judge.RateLimitError](err)
		_, isUnreadable := errors.AsType[*judge.UnreadableError](err)
		// A call is a reply the judge gave, readable or not; a request
		// the provider turned away (a rate limit, a server error) or that
		// failed answered nothing, and is counted apart or not at all.
		answered := err == nil || isUnreadable
		a.count(func(s *Stats) {
			if answered && !kept {
				s.Calls++
			}
			s.Tokens = s.Tokens.Add(ans.Tokens)
		})
		o.Tokens = o.Tokens.Add(ans.Tokens)
		switch {
		case err == nil:
		case isLimit:
			// A rate limit is not an attempt: the question is asked again
			// without spending a retry.
			limited++
			a.count(func(s *Stats) { s.RateLimited++ })
			if limited >= a.maxRateLimits() {
				return o, fmt.Errorf("asking %s about %q: still rate limited after %d tries: %w", q.Kind, r.Subject, limited, err)
			}
			if err := a.sleep(ctx, stop, a.wait(limited, rl.RetryAfter)); err != nil {
				return o, err
			}
			continue
		case isUnreadable:
			last = a.unreadable(&o, q, err)
			continue
		default:
			if ctx.Err() != nil {
				return o, context.Cause(ctx)
			}
			return o, fmt.Errorf("asking %s about %q: %w", q.Kind, r.Subject, err)
		}
		limited = 0
		if !judge.SameModel(a.pinned(), ans.Model) {
			return o, &ModelError{Pinned: a.pinned(), Answered: ans.Model, Kind: q.Kind, Subject: r.Subject}
		}
		answer, v, err := readAnswer(q, ans.JSON)
		if err != nil {
			last = a.unreadable(&o, q, err)
			continue
		}
		o.Attempts++
		o.Answer, o.Model, o.Cached = answer, ans.Model, kept
		if a.CountTokens {
			if o.Counted, err = countedTokens(r, p, answer, o.Tokens); err != nil {
				return o, err
			}
		}
		if a.Cache != nil {
			if err := a.Cache.Put(cache.Entry{
				Key: key, Judge: a.Identity, Rubric: a.Rubric.Digest, Question: q.Digest, Kind: q.Kind,
				Subject: r.Subject, InputHash: r.InputHash, Answer: answer, Model: ans.Model, Tokens: o.Tokens,
				PromptBytes: o.PromptBytes, Counted: o.Counted, Salt: salt,
			}); err != nil {
				return o, err
			}
		}
		if r.Value != nil {
			*r.Value = v
		}
		return o, nil
	}
	return o, &UnreadableError{Kind: q.Kind, Subject: r.Subject, Attempts: o.Attempts, Last: last, Judge: a.Identity}
}

// prompts are a request's prompts as rendered; measured is the size of
// the system and user prompts when they were measured but not kept (see
// measure).
type prompts struct {
	system, context, user string
	measured              int
}

// bytes is the size of the prompts together.
func (p prompts) bytes() int { return len(p.system) + len(p.context) + len(p.user) + p.measured }

// measure is render without the system and user prompts, whose size it
// counts instead: for a judge that never reads the prompts, their only
// use is their size. The shared prompt, rendered once for every request
// that shares it, is kept as render keeps it.
func measure(r Request) (prompts, error) { return prepare(r, true) }

// render fills r's prompts from its input, decoding InputJSON when r
// carries no decoded input; the shared prompt is rendered once for every
// request that shares r's value.
func render(r Request) (prompts, error) { return prepare(r, false) }

// prepare is render, or with sizeOnly measure.
func prepare(r Request, sizeOnly bool) (prompts, error) {
	var p prompts
	input, err := templateInput(r)
	if err != nil {
		return p, err
	}
	if r.Shared != nil {
		if p.context, err = r.Shared.render(r.Question); err != nil {
			return p, err
		}
	}
	if sizeOnly {
		system, user, err := r.Question.RenderedLen(input)
		p.measured = system + user
		return p, err
	}
	p.system, p.user, err = r.Question.Render(input)
	return p, err
}

// templateInput is what r's templates see: its decoded input, decoding
// InputJSON when r carries none.
func templateInput(r Request) (any, error) {
	if r.Input != nil || len(r.InputJSON) == 0 {
		return r.Input, nil
	}
	input, err := decodeJSON(r.InputJSON)
	if err != nil {
		return nil, fmt.Errorf("question %q: input: %w", r.Question.Name, err)
	}
	return input, nil
}

// unreadable counts an attempt whose answer could not be read, and a
// retry when another attempt is left; it returns why.
func (a *Asker) unreadable(o *Observation, q *rubric.Question, why error) error {
	o.Attempts++
	if o.Attempts < 1+q.Retries {
		a.count(func(s *Stats) { s.Retries++ })
	}
	return why
}

// errEmptyAnswer is an answer with no text: said as such, where decoding
// it said "not JSON: EOF (it begins \"\")".
var errEmptyAnswer = errors.New("the answer is empty: the judge gave no text")

// readAnswer checks that text is one JSON value satisfying the question's
// schema and returns it compacted, with its value as lang.FromJSON reads
// the compacted bytes (see settled): what the formulas see, read once.
func readAnswer(q *rubric.Question, text []byte) (json.RawMessage, any, error) {
	text = unfence(text)
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, nil, errEmptyAnswer
	}
	// Plain JSON is read once, validated as read and then made into the
	// formulas' values; anything else, or an answer the schema refuses,
	// is decoded and validated as text, so its error is the one it always
	// was.
	var v any
	var err error
	exact := true // v may hold an exact number (see settled)
	raw, plain := jsonscan.Decode(text)
	if plain = plain && q.ValidateValue(raw) == nil; plain {
		v, exact, err = fromScanned(raw)
	} else {
		v, err = lang.FromJSON(text)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("the answer is not JSON: %v (it begins %q)", err, prefix(text, 80))
	}
	if !plain {
		if err := q.Validate(text); err != nil {
			return nil, nil, err
		}
	}
	b, err := lang.MarshalCanonical(v)
	if err != nil {
		return nil, nil, err
	}
	if exact {
		if v, err = settled(v); err != nil {
			return nil, nil, err
		}
	}
	return b, v, nil
}

// validCached says whether a cached answer, canonical JSON, still
// satisfies the question's schema (rubric.Question.Validate), and when it
// does returns its value as lang.FromJSON reads it, read once for both;
// nil when the value is left for the caller to decode.
func validCached(q *rubric.Question, answer []byte) (any, bool) {
	raw, ok := jsonscan.Decode(answer)
	if !ok {
		return nil, q.Validate(answer) == nil
	}
	if q.ValidateValue(raw) != nil {
		return nil, false
	}
	v, err := lang.FromScanned(raw)
	if err != nil {
		// The caller's own decoding gives the error.
		return nil, true
	}
	return v, true
}

// unfence takes off a Markdown code fence around the whole answer
// (```json ... ```), which models asked for bare JSON still add.
func unfence(b []byte) []byte {
	t := bytes.TrimSpace(b)
	if !bytes.HasPrefix(t, []byte("```")) || !bytes.HasSuffix(t, []byte("```")) || len(t) < 6 {
		return b
	}
	nl := bytes.IndexByte(t, '\n')
	if nl < 0 {
		return b
	}
	return bytes.TrimSpace(t[nl+1 : len(t)-3])
}

func prefix(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

func (a *Asker) maxRateLimits() int {
	if a.MaxRateLimits > 0 {
		return a.MaxRateLimits
	}
	return 8
}

func (a *Asker) wait(n int, asked time.Duration) time.Duration {
	if asked > 0 {
		return min(asked, a.maxWait())
	}
	if a.Wait != nil {
		return a.Wait(n)
	}
	// 2^6 s is past the minute already; a larger shift would overflow.
	return min(time.Second<<min(n-1, 6), time.Minute)
}

func (a *Asker) maxPromptBytes() int {
	if a.MaxPromptBytes > 0 {
		return a.MaxPromptBytes
	}
	return DefaultMaxPromptBytes
}

func (a *Asker) maxWait() time.Duration {
	if a.MaxWait > 0 {
		return a.MaxWait
	}
	return DefaultMaxWait
}

// sleep waits d, or less when the run is cancelled or stopped.
func (a *Asker) sleep(ctx context.Context, stop <-chan struct{}, d time.Duration) error {
	return waitFor(ctx, stop, d, a.After)
}

// waitFor waits d on the clock after (a real timer when nil), or less
// when ctx ends or stop closes (a nil stop never does).
func waitFor(ctx context.Context, stop <-chan struct{}, d time.Duration, after func(time.Duration) <-chan time.Time) error {
	var done <-chan time.Time
	if after != nil {
		done = after(d)
	} else {
		t := time.NewTimer(d)
		defer t.Stop()
		done = t.C
	}
	select {
	case <-done:
		return nil
	case <-stop:
		return errStopped
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// PendingBatch is a batch a stopped --batch run left running, found in
// the cache by a run without batches that is about to ask some of its
// questions again.
type PendingBatch struct {
	// ID is the provider's id of the batch; Questions how many of its
	// questions have no answer in the cache yet, and Asked how many of
	// those the run is about to ask.
	ID               string
	Questions, Asked int
}

// TellPending tells OnPendingBatch, before the run asks anything, of
// each batch left running in the cache by a --batch run of the same
// judge, rubric and scope (what Batching.Scope would be) whose answers
// the cache does not hold yet: the run is about to ask those questions
// again. Ask tells of the others (a batch of another scope holding some
// of its questions) when it comes to them.
func (a *Asker) TellPending(scope string) error {
	if a.OnPendingBatch == nil || a.Cache == nil || a.Batch != nil || scope == "" {
		return nil
	}
	recs, err := a.pendingBatches()
	if err != nil {
		return err
	}
	for _, rec := range recs {
		if rec.ID == "" || rec.Scope != scope || rec.Rubric != a.Rubric.Digest {
			continue
		}
		if err := a.tell(rec, nil); err != nil {
			return err
		}
	}
	return nil
}

// tell tells OnPendingBatch of rec, once, when the cache does not
// answer all its questions and, unless keys is nil, some of those are
// among keys.
func (a *Asker) tell(rec cache.Batch, keys map[string]bool) error {
	a.mu.Lock()
	told := a.told[rec.ID]
	a.mu.Unlock()
	if told {
		return nil
	}
	p := PendingBatch{ID: rec.ID}
	for _, k := range rec.Keys {
		if _, ok := a.Cache.Get(k); ok {
			continue
		}
		p.Questions++
		if keys == nil || keys[k] {
			p.Asked++
		}
	}
	if p.Asked == 0 {
		return nil
	}
	a.mu.Lock()
	if a.told == nil {
		a.told = map[string]bool{}
	}
	a.told[rec.ID] = true
	a.mu.Unlock()
	return a.OnPendingBatch(p)
}

// tellPending tells OnPendingBatch of each batch left running in the
// cache that holds questions of reqs that the cache does not answer.
func (a *Asker) tellPending(reqs []Request) error {
	if a.OnPendingBatch == nil || a.Cache == nil {
		return nil
	}
	recs, err := a.pendingBatches()
	if err != nil || len(recs) == 0 {
		return err
	}
	keys := map[string]bool{}
	for _, r := range reqs {
		salt := ""
		if a.Salt != nil {
			salt = a.Salt(r)
		}
		keys[cache.SaltedKey(a.Identity, a.Rubric.Digest, r.Question.Digest, r.InputHash, salt)] = true
	}
	for _, rec := range recs {
		if rec.ID == "" {
			continue
		}
		if err := a.tell(rec, keys); err != nil {
			return err
		}
	}
	return nil
}

// pendingBatches are the records of the batches the judge's stopped
// --batch runs left in the cache, read from it the first time they are
// asked for rather than once a batch of questions.
func (a *Asker) pendingBatches() ([]cache.Batch, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.pendingRead {
		recs, err := a.Cache.Batches(a.Identity)
		if err != nil {
			return nil, err
		}
		a.pending, a.pendingRead = recs, true
	}
	return a.pending, nil
}
