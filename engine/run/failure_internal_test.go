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

// TestFailInterrupted: a scan stopped by a signal records that it was
// interrupted and at which stage, not "context canceled".
func TestFailInterrupted(t *testing.T) {
	signalled := func() context.Context {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(errors.New("interrupt signal received")) // as os/signal.NotifyContext does
		return ctx
	}
	cancelled := func() context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx
	}
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		stage string
		err   error
		want  string
	}{
		{"a signal while exporting", signalled(), StageExport, context.Canceled,
			"interrupted (interrupt signal received) while reading the server's tools, at the export stage"},
		{"cancelled while scoring", cancelled(), StageScore, context.Canceled,
			"interrupted while asking the questions and computing the scores, at the score stage"},
		{"another error after the signal", signalled(), StageJudge, errors.New("plugin exited"),
			"interrupted (interrupt signal received) while starting the judge, at the judge stage: plugin exited"},
		{"not interrupted", context.Background(), StageExport, errors.New("no such server"), "no such server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := New(Options{}).fail(tc.ctx, &Failure{stage: tc.stage}, nil, Source{}, tc.err)
			if f.Reason != tc.want {
				t.Errorf("reason %q, want %q", f.Reason, tc.want)
			}
			if f.Interrupted != (tc.ctx.Err() != nil) {
				t.Errorf("interrupted %v", f.Interrupted)
			}
		})
	}
}
