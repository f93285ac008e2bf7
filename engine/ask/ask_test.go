package ask_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// testRubric asks one question of each tool: how long its name is.
const testRubric = `
rubric "lengths" {
  version = "1"
  grades  = { A = 0 }
  question "len" {
    kind    = "test.len"
    per     = "tool"
    retries = 2
    input   = "{'name': tool.name}"
    system  = "Count."
    user    = "How long is {{ fence \"name\" .name }}?"
    answer_schema = <<-JSON
      {"type": "object", "additionalProperties": false, "required": ["n"],
       "properties": {"n": {"type": "integer", "minimum": 0}}}
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

func loadRubric(t testing.TB) *rubric.Rubric {
	t.Helper()
	r, err := rubric.Load("lengths.hcl", []byte(testRubric))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// requests makes one request per name, as the engine would.
func requests(t testing.TB, r *rubric.Rubric, names ...string) []ask.Request {
	t.Helper()
	out := make([]ask.Request, len(names))
	for i, n := range names {
		b, err := lang.MarshalCanonical(map[string]any{"name": n})
		if err != nil {
			t.Fatal(err)
		}
		out[i] = ask.Request{Question: r.Questions[0], Subject: n, Input: map[string]any{"name": n}, InputJSON: b, InputHash: surface.HashBytes(b)}
	}
	return out
}

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("tool_%02d", i)
	}
	return out
}

// counting is a judge that answers the length of the name and counts its
// calls; script, when set, may replace an answer or an error per call.
type counting struct {
	calls  atomic.Int64
	model  string
	script func(call int64, q judge.Question) (judge.Answer, error, bool)
}

func (c *counting) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	n := c.calls.Add(1)
	if c.script != nil {
		if a, err, ok := c.script(n, q); ok {
			return a, err
		}
	}
	model := c.model
	if model == "" {
		model = "m1"
	}
	return judge.Answer{JSON: []byte(fmt.Sprintf(`{"n": %d}`, len(q.Subject))), Model: model, Tokens: judge.Tokens{Input: 10, Output: 2}}, nil
}

var identity = judge.Identity{Plugin: "counting", Version: "1", Model: "m1"}

func TestSecondRunAsksNothing(t *testing.T) {
	r := loadRubric(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reqs := requests(t, r, names(20)...)
	j := &counting{}
	first := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store}
	obs, err := first.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if j.calls.Load() != 20 || obs[3].Cached || string(obs[3].Answer) != `{"n":7}` || obs[3].Attempts != 1 {
		t.Fatalf("first run: %d calls, observation %+v", j.calls.Load(), obs[3])
	}
	second := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store}
	obs2, err := second.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if j.calls.Load() != 20 {
		t.Errorf("the second identical run made %d judge calls, want 0", j.calls.Load()-20)
	}
	if s := second.Stats(); s.CacheHits != 20 || s.Calls != 0 || s.Questions != 20 {
		t.Errorf("second run stats %+v", s)
	}
	for i := range obs {
		if string(obs[i].Answer) != string(obs2[i].Answer) || !obs2[i].Cached {
			t.Errorf("answer %d: %s then %s (cached %v)", i, obs[i].Answer, obs2[i].Answer, obs2[i].Cached)
		}
		// The prompts' size is known for a cached answer too, without
		// rendering them again.
		if obs[i].PromptBytes == 0 || obs2[i].PromptBytes != obs[i].PromptBytes {
			t.Errorf("answer %d: prompt bytes %d then %d", i, obs[i].PromptBytes, obs2[i].PromptBytes)
		}
	}
	// Another judge identity, rubric or input is another key.
	other := &ask.Asker{Judge: j, Identity: judge.Identity{Plugin: "counting", Version: "2", Model: "m1"}, Rubric: r, Cache: store}
	if _, err := other.Ask(context.Background(), reqs[:1]); err != nil {
		t.Fatal(err)
	}
	if j.calls.Load() != 21 {
		t.Errorf("a new judge version was answered from the cache")
	}
}

// TestFreshAsksAgainAndWrites is what a calibration run needs: a cached
// answer is not read, every question goes to the judge, and the new
// answer replaces the cached one.
func TestFreshAsksAgainAndWrites(t *testing.T) {
	r := loadRubric(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reqs := requests(t, r, "a", "bb")
	j := &counting{}
	if _, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store}).Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	// The second, fresh run answers 9 for everything.
	j.script = func(_ int64, _ judge.Question) (judge.Answer, error, bool) {
		return judge.Answer{JSON: []byte(`{"n": 9}`), Model: "m1"}, nil, true
	}
	fresh := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, Fresh: true}
	obs, err := fresh.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if s := fresh.Stats(); s.Calls != 2 || s.CacheHits != 0 || obs[0].Cached || string(obs[0].Answer) != `{"n":9}` {
		t.Fatalf("fresh run: stats %+v, first observation %+v", s, obs[0])
	}
	// A plain run afterwards reads the fresh answers from the cache.
	again := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store}
	obs, err = again.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if s := again.Stats(); s.CacheHits != 2 || string(obs[1].Answer) != `{"n":9}` {
		t.Errorf("after the fresh run: stats %+v, answer %s", s, obs[1].Answer)
	}
}

// TestInterruptedRunResumes kills a run after some answers arrived and
// checks that the next run asks only the questions that had no answer.
func TestInterruptedRunResumes(t *testing.T) {
	r := loadRubric(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reqs := requests(t, r, names(30)...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var answered atomic.Int64
	j := &counting{script: func(call int64, q judge.Question) (judge.Answer, error, bool) {
		if call > 12 {
			cancel() // the user presses Ctrl-C
			return judge.Answer{}, context.Canceled, true
		}
		answered.Add(1)
		return judge.Answer{}, nil, false
	}}
	_, err = (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, Concurrency: 3}).Ask(ctx, reqs)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	kept, _ := store.Stats()
	if int64(kept.Answers) != answered.Load() || kept.Answers != 12 {
		t.Fatalf("%d answers arrived, %d are in the cache", answered.Load(), kept.Answers)
	}
	again := &counting{}
	obs, err := (&ask.Asker{Judge: again, Identity: identity, Rubric: r, Cache: store}).Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.calls.Load(); got != 30-12 {
		t.Errorf("the resumed run made %d calls, want the %d missing", got, 30-12)
	}
	for i, o := range obs {
		if want := fmt.Sprintf(`{"n":%d}`, len(reqs[i].Subject)); string(o.Answer) != want {
			t.Errorf("answer %d = %s, want %s", i, o.Answer, want)
		}
	}
}

func TestUnreadableAnswersAreAskedAgain(t *testing.T) {
	r := loadRubric(t)
	bad := []string{`not json`, `{"n": "seven"}`, `{"n": 1, "extra": true}`, `{"n": -1}`, `{"n": 1} {"n": 2}`}
	for _, b := range bad {
		t.Run(b, func(t *testing.T) {
			// Wrong twice, then right: the third attempt is the last the
			// two retries allow.
			j := &counting{script: func(call int64, q judge.Question) (judge.Answer, error, bool) {
				if call <= 2 {
					return judge.Answer{JSON: []byte(b), Model: "m1"}, nil, true
				}
				return judge.Answer{}, nil, false
			}}
			a := &ask.Asker{Judge: j, Identity: identity, Rubric: r}
			obs, err := a.Ask(context.Background(), requests(t, r, "abc"))
			if err != nil {
				t.Fatal(err)
			}
			if obs[0].Attempts != 3 || string(obs[0].Answer) != `{"n":3}` || a.Stats().Retries != 2 || a.Stats().Calls != 3 {
				t.Errorf("observation %+v, stats %+v", obs[0], a.Stats())
			}
			// Wrong every time: the run fails after 1 + retries attempts.
			always := &counting{script: func(int64, judge.Question) (judge.Answer, error, bool) {
				return judge.Answer{JSON: []byte(b), Model: "m1"}, nil, true
			}}
			_, err = (&ask.Asker{Judge: always, Identity: identity, Rubric: r}).Ask(context.Background(), requests(t, r, "abc"))
			var ue *ask.UnreadableError
			if !errors.As(err, &ue) || ue.Attempts != 3 || always.calls.Load() != 3 {
				t.Errorf("got %v after %d calls", err, always.calls.Load())
			}
			if err != nil && !strings.Contains(err.Error(), `the answer of the judge "counting" (model "m1") to test.len about "abc" was still unreadable after 3 attempts`) {
				t.Errorf("message: %v", err)
			}
		})
	}
	// A reply the judge itself could not read counts the same way.
	j := &counting{script: func(call int64, q judge.Question) (judge.Answer, error, bool) {
		if call == 1 {
			return judge.Answer{}, &judge.UnreadableError{Msg: "empty content"}, true
		}
		return judge.Answer{}, nil, false
	}}
	obs, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r}).Ask(context.Background(), requests(t, r, "ab"))
	if err != nil || obs[0].Attempts != 2 {
		t.Errorf("after an unreadable reply: %v, %+v", err, obs)
	}
}

func TestFencedAnswersAreRead(t *testing.T) {
	r := loadRubric(t)
	for _, text := range []string{"```json\n{\"n\": 3}\n```", "  ```\n{\"n\": 3}\n```\n"} {
		j := &counting{script: func(int64, judge.Question) (judge.Answer, error, bool) {
			return judge.Answer{JSON: []byte(text), Model: "m1"}, nil, true
		}}
		obs, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r}).Ask(context.Background(), requests(t, r, "abc"))
		if err != nil || string(obs[0].Answer) != `{"n":3}` || obs[0].Attempts != 1 {
			t.Errorf("%q: %v %+v", text, err, obs)
		}
	}
}

func TestRateLimitsAreWaitedOut(t *testing.T) {
	r := loadRubric(t)
	var waits []time.Duration
	var mu sync.Mutex
	j := &counting{script: func(call int64, q judge.Question) (judge.Answer, error, bool) {
		switch call {
		case 1:
			return judge.Answer{}, &judge.RateLimitError{RetryAfter: 30 * time.Millisecond, Msg: "429"}, true
		case 2, 3:
			return judge.Answer{}, &judge.RateLimitError{Msg: "529 overloaded"}, true
		}
		return judge.Answer{}, nil, false
	}}
	a := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Wait: func(n int) time.Duration {
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, time.Duration(n)*time.Millisecond)
		return time.Millisecond
	}}
	var slept []time.Duration
	a.After = func(d time.Duration) <-chan time.Time {
		mu.Lock()
		slept = append(slept, d)
		mu.Unlock()
		return now()
	}
	obs, err := a.Ask(context.Background(), requests(t, r, "abcd"))
	if err != nil {
		t.Fatal(err)
	}
	if obs[0].Attempts != 1 || a.Stats().RateLimited != 3 || a.Stats().Retries != 0 {
		t.Errorf("rate limits were counted as attempts: %+v, %+v", obs[0], a.Stats())
	}
	// A 429 or a 529 (a server error too) answered nothing: no call.
	if st := a.Stats(); st.Calls != 1 {
		t.Errorf("stats %+v: want 1 call, the refused requests counted apart", st)
	}
	if want := []time.Duration{30 * time.Millisecond, time.Millisecond, time.Millisecond}; !slices.Equal(slept, want) {
		t.Errorf("waited %v, want %v: the Retry-After of 30ms, then the back-off's", slept, want)
	}
	// The second and third limits named no wait: they back off by how
	// many limits came in a row.
	if len(waits) != 2 || waits[0] != 2*time.Millisecond || waits[1] != 3*time.Millisecond {
		t.Errorf("back-off without Retry-After: %v, want [2ms 3ms]", waits)
	}
	// A provider that never lets up ends the run.
	always := &counting{script: func(int64, judge.Question) (judge.Answer, error, bool) {
		return judge.Answer{}, &judge.RateLimitError{Msg: "429"}, true
	}}
	_, err = (&ask.Asker{Judge: always, Identity: identity, Rubric: r, MaxRateLimits: 4, Wait: func(int) time.Duration { return 0 }}).Ask(context.Background(), requests(t, r, "x"))
	if err == nil || !strings.Contains(err.Error(), "still rate limited after 4 tries") || always.calls.Load() != 4 {
		t.Errorf("got %v after %d calls", err, always.calls.Load())
	}
}

func TestAnotherModelIsRefused(t *testing.T) {
	r := loadRubric(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j := &counting{model: "m2"}
	_, err = (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store}).Ask(context.Background(), requests(t, r, "a", "b"))
	var me *ask.ModelError
	if !errors.As(err, &me) || me.Pinned != "m1" || me.Answered != "m2" {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), `with model "m2", but the run pins model "m1"`) {
		t.Errorf("message %q names not both models", err)
	}
	if st, _ := store.Stats(); st.Answers != 0 {
		t.Errorf("a refused answer was cached")
	}
	// A pin given apart from the identity is what counts.
	_, err = (&ask.Asker{Judge: &counting{}, Identity: identity, Model: "m3", Rubric: r}).Ask(context.Background(), requests(t, r, "a"))
	if !errors.As(err, &me) || me.Pinned != "m3" {
		t.Errorf("pin m3: %v", err)
	}
	// An answer that names no model is a plugin's omission, said as one.
	anonymous := &counting{script: func(_ int64, q judge.Question) (judge.Answer, error, bool) {
		return judge.Answer{JSON: []byte(`{"n": 1}`)}, nil, true
	}}
	_, err = (&ask.Asker{Judge: anonymous, Identity: identity, Rubric: r}).Ask(context.Background(), requests(t, r, "a"))
	if !errors.As(err, &me) || !strings.Contains(err.Error(), `without naming the model that answered (the judge's Answer.Model is empty), but the run pins model "m1"`) {
		t.Errorf("no model: %v", err)
	}
}

func TestConcurrencyIsBounded(t *testing.T) {
	r := loadRubric(t)
	var in, peak atomic.Int64
	// The first four calls wait until all four are in flight: so the
	// peak reaches the bound whatever the scheduling, and a fifth call
	// started beside them would raise it past.
	full := make(chan struct{})
	var once sync.Once
	j := &counting{script: func(int64, judge.Question) (judge.Answer, error, bool) {
		n := in.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		if n >= 4 {
			once.Do(func() { close(full) })
		}
		<-full
		in.Add(-1)
		return judge.Answer{}, nil, false
	}}
	if _, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Concurrency: 4}).Ask(context.Background(), requests(t, r, names(40)...)); err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p != 4 {
		t.Errorf("peak of %d questions in flight, want 4", p)
	}
}

func TestAJudgeErrorEndsTheRun(t *testing.T) {
	r := loadRubric(t)
	j := &counting{script: func(call int64, q judge.Question) (judge.Answer, error, bool) {
		if q.Subject == "tool_05" {
			return judge.Answer{}, errors.New("invalid api key"), true
		}
		return judge.Answer{}, nil, false
	}}
	_, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Concurrency: 1}).Ask(context.Background(), requests(t, r, names(20)...))
	if err == nil || !strings.Contains(err.Error(), `asking test.len about "tool_05": invalid api key`) {
		t.Fatalf("got %v", err)
	}
	// One worker: tool_00 to tool_05, and nothing once tool_05 failed.
	if n := j.calls.Load(); n != 6 {
		t.Errorf("%d calls, want 6: asking went on after the failure", n)
	}
}

// TestAnswersInFlightAreKept: when one question fails, the calls already
// in flight finish and their answers, paid for, are cached. There are as
// many questions as workers: with more, a worker freed by an answer
// released at the failure could start one more call in the instant before
// the failure is seen, which the code allows; that nothing is started
// once it is seen is TestAJudgeErrorEndsTheRun's.
func TestAnswersInFlightAreKept(t *testing.T) {
	r := loadRubric(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// tool_00 fails once the five others are in flight, and they answer
	// only once it has failed.
	var others atomic.Int64
	inFlight, failed := make(chan struct{}), make(chan struct{})
	j := &counting{script: func(call int64, q judge.Question) (judge.Answer, error, bool) {
		if q.Subject == "tool_00" {
			<-inFlight
			close(failed)
			return judge.Answer{}, errors.New("invalid api key"), true
		}
		if others.Add(1) == 5 {
			close(inFlight)
		}
		<-failed
		return judge.Answer{}, nil, false
	}}
	_, err = (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, Concurrency: 6}).Ask(context.Background(), requests(t, r, names(6)...))
	if err == nil || !strings.Contains(err.Error(), "invalid api key") {
		t.Fatalf("got %v", err)
	}
	st, _ := store.Stats()
	if st.Answers != 5 || j.calls.Load() != 6 {
		t.Errorf("%d calls, %d answers cached; want the 5 in flight beside the failure kept", j.calls.Load(), st.Answers)
	}
}

func TestRetriesAreCountedOnce(t *testing.T) {
	r := loadRubric(t)
	j := &counting{script: func(call int64, q judge.Question) (judge.Answer, error, bool) {
		switch call {
		case 1:
			return judge.Answer{JSON: []byte("no"), Model: "m1"}, nil, true
		case 2:
			return judge.Answer{}, &judge.RateLimitError{RetryAfter: time.Hour, Msg: "429"}, true
		}
		return judge.Answer{}, nil, false
	}}
	var slept []time.Duration
	a := &ask.Asker{Judge: j, Identity: identity, Rubric: r, MaxWait: 5 * time.Millisecond, After: func(d time.Duration) <-chan time.Time {
		slept = append(slept, d)
		return now()
	}}
	obs, err := a.Ask(context.Background(), requests(t, r, "abc"))
	if err != nil {
		t.Fatal(err)
	}
	// The rate-limited request answered nothing: it is no call.
	if s := a.Stats(); obs[0].Attempts != 2 || s.Retries != 1 || s.RateLimited != 1 || s.Calls != 2 {
		t.Errorf("observation %+v, stats %+v: want 2 attempts, 1 retry, 1 rate limit, 2 calls", obs[0], s)
	}
	if len(slept) != 1 || slept[0] != 5*time.Millisecond {
		t.Errorf("waited %v for a Retry-After of an hour, want it cut to MaxWait, [5ms]", slept)
	}
}

// TestSaltAsksAfresh: a salted request is asked again beside the answer
// cached without a salt, and then cached under its salt; an empty salt
// reads the plain answer.
func TestSaltAsksAfresh(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(4)...)
	j := &counting{}
	a := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: cache.Memory()}
	if _, err := a.Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	// The first two are shared, the others salted for a second pair.
	a.Salt = func(q ask.Request) string {
		if q.Subject == "tool_00" || q.Subject == "tool_01" {
			return ""
		}
		return "pair 2"
	}
	obs, err := a.Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if got := j.calls.Load(); got != 6 {
		t.Errorf("%d calls, want 4 then 2 for the salted requests", got)
	}
	if !obs[0].Cached || obs[2].Cached {
		t.Errorf("cached: shared %v, salted %v", obs[0].Cached, obs[2].Cached)
	}
	if _, err := a.Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	if got := j.calls.Load(); got != 6 {
		t.Errorf("the same salts again made %d more calls", got-6)
	}
}

// TestNoCacheMakesNoKey: without a cache a request's salt, which only
// names its answer in the cache, is never asked for, nor its key made.
func TestNoCacheMakesNoKey(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(4)...)
	var salts atomic.Int32
	a := &ask.Asker{Judge: &counting{}, Identity: identity, Rubric: r, Salt: func(ask.Request) string {
		salts.Add(1)
		return "pair 2"
	}}
	if _, err := a.Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	if got := salts.Load(); got != 0 {
		t.Errorf("the salt was asked for %d times without a cache, want 0", got)
	}
}

// now is a channel that has fired: a wait stood in for by Asker.After
// that ends at once.
func now() <-chan time.Time {
	c := make(chan time.Time, 1)
	c <- time.Time{}
	return c
}

// TestPromptsAreBounded: a question whose prompt is larger than the
// asker's bound is not put to the judge, and the error names the
// question, the tool and the bound. (Before, a 74 KB schema nested 2,000
// deep went to the judge as a 40 MB prompt.)
func TestPromptsAreBounded(t *testing.T) {
	testPromptsAreBounded(t, []promptBound{
		{"within the bound", 200, "short", ""},
		{"past the bound", 200, strings.Repeat("x", 300), fmt.Sprintf("about %q is 3", strings.Repeat("x", 300))},
	})
}

// TestPromptsPastTheDefaultBound: the default bound holds when the run
// sets none. Its 16 MiB prompt is rendered before it is refused: a minute
// and a half of a busy machine under the race detector, which has nothing
// to find in one goroutine's rendering, so make test runs it in its pass
// without -race.
func TestPromptsPastTheDefaultBound(t *testing.T) {
	heavytest.Later(t)
	testPromptsAreBounded(t, []promptBound{
		{"past the default bound", 0, strings.Repeat("y", ask.DefaultMaxPromptBytes), fmt.Sprintf("more than the %d bytes a prompt may have", ask.DefaultMaxPromptBytes)},
	})
}

// promptBound is a case of testPromptsAreBounded: a question about tool
// asked under limit (0 for the default).
type promptBound struct {
	name  string
	limit int
	tool  string
	want  string // in the error; "" when the question is asked
}

func testPromptsAreBounded(t *testing.T, tests []promptBound) {
	r := loadRubric(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := &counting{}
			a := &ask.Asker{Judge: j, Identity: identity, Rubric: r, MaxPromptBytes: tt.limit}
			obs, err := a.Ask(context.Background(), requests(t, r, tt.tool))
			if tt.want == "" {
				if err != nil || len(obs) != 1 || j.calls.Load() != 1 {
					t.Fatalf("got %v, %d answers, %d calls", err, len(obs), j.calls.Load())
				}
				return
			}
			var pe *ask.PromptTooLargeError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "test.len") {
				t.Fatalf("got %v, want a PromptTooLargeError containing %q", err, tt.want)
			}
			if tt.limit > 0 && pe.Limit != tt.limit {
				t.Errorf("limit %d, want %d", pe.Limit, tt.limit)
			}
			if n := j.calls.Load(); n != 0 {
				t.Errorf("the judge was asked %d times", n)
			}
		})
	}
}

// TestInputIsDecodedWhenRendered: a request may carry its input as JSON
// alone (the engine does, so that a run holds the decoded inputs of only
// the questions in flight); the prompt reads the same as with the decoded
// input given.
func TestInputIsDecodedWhenRendered(t *testing.T) {
	r := loadRubric(t)
	var users []string
	var mu sync.Mutex
	j := &counting{script: func(_ int64, q judge.Question) (judge.Answer, error, bool) {
		mu.Lock()
		users = append(users, q.User)
		mu.Unlock()
		return judge.Answer{}, nil, false
	}}
	reqs := requests(t, r, "tool_a", "tool_a")
	reqs[1].Input = nil
	a := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Concurrency: 1}
	if _, err := a.Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	if len(users) != 2 || users[0] != users[1] || !strings.Contains(users[0], "tool_a") {
		t.Fatalf("prompts %q", users)
	}
}

// TestModelErrorSaysWhatToDo: the refusal of another model's answer
// ends with what the user can do, where it ended at "the run is
// invalid".
func TestModelErrorSaysWhatToDo(t *testing.T) {
	for _, c := range []struct {
		name string
		err  *ask.ModelError
		want string
	}{
		{"another model", &ask.ModelError{Pinned: "gpt-4o", Answered: "gpt-4o-mini", Kind: "k", Subject: "s"},
			`so the run is invalid: to take its answers, pin "gpt-4o-mini" instead (--model, or a config file's model)`},
		{"no model named", &ask.ModelError{Pinned: "gpt-4o", Kind: "k", Subject: "s"},
			`so the run is invalid: the judge plugin must name the model of each answer; update it, or tell its author`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.err.Error(); !strings.HasSuffix(got, c.want) {
				t.Errorf("message\n%s\ndoes not end with\n%s", got, c.want)
			}
		})
	}
}
