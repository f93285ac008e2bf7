package stage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/check"
	"github.com/rubricmcp/rubric/engine/score/eval"
)

// aheadRubric asks one question per tool and one about the surface.
const aheadRubric = `
rubric "ahead" {
  version = "1"
  grades  = { A = 1, F = 0 }
  question "tool" {
    kind   = "test.tool"
    per    = "tool"
    input  = "{'name': tool.name}"
    system = "Grade it."
    user   = "{{ .name }}"
    answer_schema = "{\"type\": \"object\"}"
  }
  question "all" {
    kind   = "test.all"
    per    = "surface"
    input  = "{'n': 1}"
    system = "Grade them."
    user   = "{{ .n }}"
    answer_schema = "{\"type\": \"object\"}"
  }
  tool {
    score = "1"
  }
  surface {
    score = "1"
  }
}
`

// batchAsker records the subjects of each Ask call, fails the call that
// holds failOn, and runs hold (when set) inside the first call.
type batchAsker struct {
	mu       sync.Mutex
	calls    [][]string
	inFlight atomic.Int32
	overlap  atomic.Bool
	failOn   string
	hold     func()
}

func (a *batchAsker) Ask(_ context.Context, reqs []ask.Request) ([]ask.Observation, error) {
	if a.inFlight.Add(1) > 1 {
		a.overlap.Store(true)
	}
	defer a.inFlight.Add(-1)
	a.mu.Lock()
	first := len(a.calls) == 0
	var subjects []string
	for _, r := range reqs {
		subjects = append(subjects, r.Subject)
	}
	a.calls = append(a.calls, subjects)
	a.mu.Unlock()
	if first && a.hold != nil {
		a.hold()
	}
	obs := make([]ask.Observation, len(reqs))
	for i, r := range reqs {
		if r.Subject == a.failOn {
			return nil, fmt.Errorf("no answer about %s", r.Subject)
		}
		obs[i] = ask.Observation{Question: r.Question.Name, Kind: r.Question.Kind, Subject: r.Subject, Answer: []byte(`{}`)}
	}
	return obs, nil
}

// toolScopes are the scopes of n tools named t0, t1, ...
func toolScopes(n int) []*check.State {
	states := make([]*check.State, n)
	for i := range states {
		name := fmt.Sprintf("t%d", i)
		states[i] = &check.State{Name: name, Scope: &eval.Scope{Vars: map[string]any{"tool": map[string]any{"name": name}}, Size: eval.Unbounded}}
	}
	return states
}

// TestToolBatchesAreBuiltAhead: the requests of a question per tool are
// built a batch ahead of the batch the judge is answering (the first
// call is held until a tool of the second batch is being built), yet the
// batches are asked one after the other, every tool once and in order,
// and the answers are handed on in request order.
func TestToolBatchesAreBuiltAhead(t *testing.T) {
	r, err := rubric.Load("ahead.hcl", []byte(aheadRubric))
	if err != nil {
		t.Fatal(err)
	}
	q := r.Questions[0]
	for _, n := range []int{1, minBatch, minBatch + 1, 300, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			states := toolScopes(n)
			building := make(chan struct{})
			var once sync.Once
			a := &batchAsker{}
			if n > minBatch {
				a.hold = func() { <-building }
			}
			at := func(i int) (*eval.Scope, string, target, error) {
				if i >= minBatch {
					once.Do(func() { close(building) })
				}
				return states[i].Scope, states[i].Name, target{q: q, tool: i, item: -1}, nil
			}
			var got []string
			put := func(tg target, o ask.Observation) error {
				if o.Subject != states[tg.tool].Name {
					t.Errorf("the answer about %s went to %s", o.Subject, states[tg.tool].Name)
				}
				got = append(got, o.Subject)
				return nil
			}
			if err := askEach(context.Background(), a, q, nil, n, false, put, at, states, nil); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, st := range states {
				want = append(want, st.Name)
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("handed on %v, want %v", got, want)
			}
			var asked []string
			for _, c := range a.calls {
				asked = append(asked, c...)
			}
			if strings.Join(asked, " ") != strings.Join(want, " ") {
				t.Errorf("asked %v, want %v", asked, want)
			}
			if len(a.calls[0]) != min(n, minBatch) {
				t.Errorf("the first batch holds %d requests, want %d", len(a.calls[0]), min(n, minBatch))
			}
			if a.overlap.Load() {
				t.Error("two batches were asked at once")
			}
		})
	}
}

// TestToolBatchFailures: a batch the judge fails ends the question with
// its error, none of its answers handed on, and nothing after it asked;
// a request that cannot be built ends it with the build's error once the
// batch before it is handed on.
func TestToolBatchFailures(t *testing.T) {
	r, err := rubric.Load("ahead.hcl", []byte(aheadRubric))
	if err != nil {
		t.Fatal(err)
	}
	q := r.Questions[0]
	const n = 100
	states := toolScopes(n)
	run := func(a *batchAsker, broken int) (handed int, err error) {
		at := func(i int) (*eval.Scope, string, target, error) {
			if i == broken {
				return nil, "", target{}, errors.New("broken scope")
			}
			return states[i].Scope, states[i].Name, target{q: q, tool: i, item: -1}, nil
		}
		put := func(target, ask.Observation) error { handed++; return nil }
		err = askEach(context.Background(), a, q, nil, n, false, put, at, states, nil)
		return handed, err
	}

	a := &batchAsker{failOn: "t20"}
	handed, err := run(a, -1)
	if err == nil || !strings.Contains(err.Error(), "no answer about t20") {
		t.Errorf("judge failed: %v", err)
	}
	if handed != minBatch || len(a.calls) != 2 {
		t.Errorf("judge failed: %d answers handed on and %d batches asked, want %d and 2", handed, len(a.calls), minBatch)
	}

	a = &batchAsker{}
	handed, err = run(a, minBatch+3)
	if err == nil || !strings.Contains(err.Error(), "broken scope") {
		t.Errorf("build failed: %v", err)
	}
	if handed != minBatch || len(a.calls) != 1 {
		t.Errorf("build failed: %d answers handed on and %d batches asked, want %d and 1", handed, len(a.calls), minBatch)
	}
}

// TestSurfaceQuestionIsAskedOnce: a question about the surface is one
// request, built after the answers before it are handed on.
func TestSurfaceQuestionIsAskedOnce(t *testing.T) {
	r, err := rubric.Load("ahead.hcl", []byte(aheadRubric))
	if err != nil {
		t.Fatal(err)
	}
	q := r.Questions[1]
	a := &batchAsker{}
	var got []report.Observation
	put := func(_ target, o ask.Observation) error { got = append(got, o); return nil }
	at := func(int) (*eval.Scope, string, target, error) {
		return &eval.Scope{Vars: map[string]any{}, Size: eval.Unbounded}, "surface", target{q: q, tool: -1, item: -1}, nil
	}
	if err := askEach(context.Background(), a, q, nil, 1, false, put, at, nil, nil); err != nil {
		t.Fatal(err)
	}
	if len(a.calls) != 1 || len(got) != 1 || got[0].Subject != "surface" {
		t.Errorf("asked %v, handed on %d answers", a.calls, len(got))
	}
}
