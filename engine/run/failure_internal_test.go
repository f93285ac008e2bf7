package run

import (
	"context"
	"errors"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
)

// TestFailBeforeTheRubric: a session whose judge a scan before started
// records a failure that came before any rubric was read (a surface that
// could not be read) with the judge it holds, and without a panic: a
// scan of many servers met it on a broken capture after a judged one.
func TestFailBeforeTheRubric(t *testing.T) {
	s := New(Options{})
	s.block = &report.Judge{Identity: judge.Identity{Plugin: "heuristic", Version: "1"}}
	f := s.fail(context.Background(), &Failure{}, nil, Source{}, errors.New("the capture is not JSON"))
	if f.Judge == nil || f.Judge.Identity.Plugin != "heuristic" {
		t.Errorf("judge %+v, want the session's", f.Judge)
	}
	if f.Rubric.Name != "" || f.Reason != "the capture is not JSON" {
		t.Errorf("rubric %q, reason %q", f.Rubric.Name, f.Reason)
	}
}
