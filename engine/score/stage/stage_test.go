package stage

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// TestAskStageAsksTheSurfaceBesideTheTools: in a stage of a question per
// tool and one about the surface, the surface's is asked while the
// tools' is (the tools' question waits here until it has started, which
// a stage asking one question after the other would never reach), and
// the answers still reach put in the rubric's order of questions.
func TestAskStageAsksTheSurfaceBesideTheTools(t *testing.T) {
	tools := &rubric.Question{Name: "tool", Per: rubric.PerTool}
	surf := &rubric.Question{Name: "coherence", Per: rubric.PerSurface}
	started := make(chan struct{})
	askQ := func(ctx context.Context, q *rubric.Question, put func(target, ask.Observation) error) error {
		switch q {
		case surf:
			close(started)
			return put(target{q, -1, -1}, ask.Observation{Subject: "surface"})
		default:
			select {
			case <-started:
			case <-ctx.Done():
				return ctx.Err()
			}
			for i, name := range []string{"a", "b"} {
				if err := put(target{q, i, -1}, ask.Observation{Subject: name}); err != nil {
					return err
				}
			}
			return nil
		}
	}
	var order []string
	put := func(_ target, o ask.Observation) error {
		order = append(order, o.Subject)
		return nil
	}
	if err := askStage(context.Background(), []*rubric.Question{tools, surf}, askQ, put); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "surface"}; !reflect.DeepEqual(order, want) {
		t.Errorf("put got %v, want %v", order, want)
	}
}

// TestAskStageStopsAtTheFirstFailure: when the surface's question fails,
// the tools' question is stopped, the stage returns the surface's error,
// and no answer reaches put.
func TestAskStageStopsAtTheFirstFailure(t *testing.T) {
	tools := &rubric.Question{Name: "tool", Per: rubric.PerTool}
	surf := &rubric.Question{Name: "coherence", Per: rubric.PerSurface}
	failed := errors.New("the judge refused the surface")
	askQ := func(ctx context.Context, q *rubric.Question, put func(target, ask.Observation) error) error {
		if q == surf {
			return failed
		}
		if err := put(target{q, 0, -1}, ask.Observation{Subject: "a"}); err != nil {
			return err
		}
		<-ctx.Done()
		return ctx.Err()
	}
	put := func(target, ask.Observation) error {
		t.Error("an answer reached put")
		return nil
	}
	if err := askStage(context.Background(), []*rubric.Question{tools, surf}, askQ, put); !errors.Is(err, failed) {
		t.Errorf("got %v, want the surface's error", err)
	}
}
