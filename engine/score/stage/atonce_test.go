package stage

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/eval"
)

// atOnceAsker is a batchAsker that takes questions at once, or says it
// does not (a batch asker). When holdTools is set, its first call about
// the tools waits until it is closed; a call holding a subject of
// failOn fails.
type atOnceAsker struct {
	batchAsker
	atOnce    bool
	holdTools chan struct{}
	held      sync.Once
	failOn    []string
}

func (a *atOnceAsker) Ask(ctx context.Context, reqs []ask.Request) ([]ask.Observation, error) {
	if a.holdTools != nil && len(reqs) > 0 && reqs[0].Question.Per == rubric.PerTool {
		a.held.Do(func() { <-a.holdTools })
	}
	for _, r := range reqs {
		if slices.Contains(a.failOn, r.Subject) {
			return nil, fmt.Errorf("no answer about %s", r.Subject)
		}
	}
	return a.batchAsker.Ask(ctx, reqs)
}

func (a *atOnceAsker) AsksAtOnce() bool { return a.atOnce }

// TestAtOnce: a stage's questions are asked at once only when the asker
// takes them so, and the stage is one question per tool beside questions
// about the surface.
func TestAtOnce(t *testing.T) {
	tool := &rubric.Question{Name: "tool", Per: rubric.PerTool}
	tool2 := &rubric.Question{Name: "tool2", Per: rubric.PerTool}
	all := &rubric.Question{Name: "all", Per: rubric.PerSurface}
	all2 := &rubric.Question{Name: "all2", Per: rubric.PerSurface}
	item := &rubric.Question{Name: "item", Per: rubric.PerItem}
	for _, tc := range []struct {
		name  string
		asker Asker
		stage []*rubric.Question
		want  bool
	}{
		{"tool and surface", &atOnceAsker{atOnce: true}, []*rubric.Question{tool, all}, true},
		{"surface and tool", &atOnceAsker{atOnce: true}, []*rubric.Question{all, tool}, true},
		{"tool and two about the surface", &atOnceAsker{atOnce: true}, []*rubric.Question{tool, all, all2}, true},
		{"two about the surface", &atOnceAsker{atOnce: true}, []*rubric.Question{all, all2}, true},
		{"a batch asker", &atOnceAsker{atOnce: false}, []*rubric.Question{tool, all}, false},
		{"an asker that does not say", &batchAsker{}, []*rubric.Question{tool, all}, false},
		{"one question", &atOnceAsker{atOnce: true}, []*rubric.Question{tool}, false},
		{"two per tool", &atOnceAsker{atOnce: true}, []*rubric.Question{tool, tool2, all}, false},
		{"one per item", &atOnceAsker{atOnce: true}, []*rubric.Question{item, all}, false},
	} {
		if got := atOnce(tc.asker, tc.stage); got != tc.want {
			t.Errorf("%s: at once %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestStageAskedAtOnce: the question about the surface is asked while
// the tools' question is (the tools' first call is held until it has
// been), and the answers are handed on as asking one question after the
// other hands them: every tool's in request order, then the surface's.
// When one question fails, its error is returned and nothing is handed
// on (unless the tools' answers are handed on as they come); when both
// do, the tools' error, the first question's, whatever failed first. The
// tools' answers handed on as they come make the same sequence.
func TestStageAskedAtOnce(t *testing.T) {
	r, err := rubric.Load("ahead.hcl", []byte(aheadRubric))
	if err != nil {
		t.Fatal(err)
	}
	stage := r.Questions
	for _, toolsNow := range []bool{false, true} {
		for _, n := range []int{1, minBatch + 1, 300} {
			for _, tc := range []struct {
				failOn  []string
				wantErr string
			}{
				{nil, ""},
				{[]string{"surface"}, "no answer about surface"},
				{[]string{"t0"}, "no answer about t0"},
				// The surface's fails first (the tools' first call waits for
				// it), yet the tools' error is the one returned.
				{[]string{"surface", "t0"}, "no answer about t0"},
			} {
				t.Run(fmt.Sprintf("%d tools, failing on %v, tools now %v", n, tc.failOn, toolsNow), func(t *testing.T) {
					states := toolScopes(n)
					surfaceAsked := make(chan struct{})
					a := &atOnceAsker{atOnce: true}
					a.failOn = tc.failOn
					a.holdTools = surfaceAsked
					askOne := func(ctx context.Context, q *rubric.Question, hand func(target, ask.Observation) error) error {
						if q.Per == rubric.PerSurface {
							defer close(surfaceAsked)
							return askEach(ctx, a, q, nil, 1, false, hand, func(int) (*eval.Scope, string, target, error) {
								return &eval.Scope{Vars: map[string]any{}, Size: eval.Unbounded}, "surface", target{q: q, tool: -1, item: -1}, nil
							}, states, nil)
						}
						return askEach(ctx, a, q, nil, n, false, hand, func(i int) (*eval.Scope, string, target, error) {
							return states[i].Scope, states[i].Name, target{q: q, tool: i, item: -1}, nil
						}, states, nil)
					}
					var got []string
					put := func(_ target, o ask.Observation) error {
						got = append(got, o.Subject)
						return nil
					}
					err := askAtOnce(context.Background(), stage, askOne, put, toolsNow)
					if tc.wantErr != "" {
						if err == nil || err.Error() != tc.wantErr {
							t.Errorf("got %v, want %s", err, tc.wantErr)
						}
						if len(got) != 0 && !toolsNow {
							t.Errorf("%d answers handed on, want none", len(got))
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					var want []string
					for _, st := range states {
						want = append(want, st.Name)
					}
					want = append(want, "surface")
					if strings.Join(got, " ") != strings.Join(want, " ") {
						t.Errorf("handed on %v, want %v", got, want)
					}
				})
			}
		}
	}
}
