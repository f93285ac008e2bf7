package run_test

import (
	"context"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/collector"
	"github.com/rubricmcp/rubric/rubrics"
)

// watching is the heuristic judge, noting the collector's target at each
// question.
type watching struct {
	inProcess
	mu      sync.Mutex
	targets map[int]int // target -> questions asked under it
}

type watchedJudge struct {
	run.Judge
	w *watching
}

func (j watchedJudge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	j.w.mu.Lock()
	j.w.targets[collector.Target()]++
	j.w.mu.Unlock()
	return j.Judge.Ask(ctx, q)
}

func (w *watching) Judge(ctx context.Context, ref string, cfg judge.Config) (run.Judge, error) {
	j, err := w.inProcess.Judge(ctx, ref, cfg)
	if err != nil {
		return nil, err
	}
	return watchedJudge{Judge: j, w: w}, nil
}

// TestJudgedScoreRaisesTheCollectorsTarget scores a judged rubric and
// checks that every question was asked under the raised target, that the
// target is set back once the scan is over, and that GOGC set by the
// user is kept.
func TestJudgedScoreRaisesTheCollectorsTarget(t *testing.T) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	// The test binary's GOGC (make test runs the tests at 400) holds again
	// for the package's other tests.
	before := collector.Target()
	t.Cleanup(func() { debug.SetGCPercent(before) })
	for _, c := range []struct {
		gogc        string
		start, want int
	}{
		{gogc: "", start: 100, want: 200},
		{gogc: "", start: 150, want: 200},
		{gogc: "", start: 400, want: 400},    // never lowered
		{gogc: "150", start: 150, want: 150}, // the user's GOGC stands
	} {
		t.Setenv("GOGC", c.gogc)
		debug.SetGCPercent(c.start)
		w := &watching{targets: map[int]int{}}
		s := run.New(run.Options{Plugins: w, Version: "test"})
		rep, err := s.Scan(context.Background(), source("git.tools.json"), r, run.ScanOptions{})
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(w.targets) != 1 || w.targets[c.want] != rep.Calls.Questions || rep.Calls.Questions == 0 {
			t.Errorf("GOGC=%q, target %d: questions asked under each target %v, want all %d under %d", c.gogc, c.start, w.targets, rep.Calls.Questions, c.want)
		}
		if got := collector.Target(); got != c.start {
			t.Errorf("GOGC=%q: target %d after the scan, want %d as before it", c.gogc, got, c.start)
		}
	}
}
