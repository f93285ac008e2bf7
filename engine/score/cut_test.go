package score_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/score/stage"
)

// failThenCut is an asker whose judge fails, after which the run's
// context ends (a scan job's --timeout passing as the calls in flight
// finish): the error fires first, then the cut.
type failThenCut struct {
	err error
	cut context.CancelFunc
}

func (f failThenCut) Ask(context.Context, []ask.Request) ([]ask.Observation, error) {
	f.cut()
	return nil, f.err
}

// TestAskErrorBeforeTheCut: when asking failed on an error of its own
// and the run's context ended after it, while the checks held by their
// lead (stage.MaxLead) were still to run, the run ends with asking's
// error, the one that fired first; it ended with the checks' "context
// canceled", which a scan read as its timeout alone. A check that
// failed on its own still wins (TestFailedCheckPastTheChecksLead). The
// context ends at the stage the asker reaches, not by a clock, and the
// checks cannot have passed the lead by then.
func TestAskErrorBeforeTheCut(t *testing.T) {
	n := stage.MaxLead + 200
	s := namedTools(t, n)
	r, err := rubric.Load("ahead.hcl", []byte(aheadRubric("1", "1", "1")))
	if err != nil {
		t.Fatal(err)
	}
	crashed := errors.New(`the judge plugin "j" (pid 7) exited: signal: killed`)
	for _, workers := range []int{1, 2} {
		ctx, cancel := context.WithCancel(context.Background())
		_, err := score.Run(ctx, r, s, score.Options{Workers: workers, Asker: failThenCut{err: crashed, cut: cancel}})
		cancel()
		if !errors.Is(err, crashed) {
			t.Errorf("%d workers: the run ended with %v, want the judge's error", workers, err)
		}
	}
}
