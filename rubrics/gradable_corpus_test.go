package rubrics_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/internal/race"
	"github.com/rubricmcp/rubric/judges/heuristic"
)

// corpusFiles are the real tools/list captures of 16 published servers.
var corpusFiles = filepath.Join("..", "engine", "score", "testdata", "corpus", "*.tools.json")

// gradeHeuristic scores a surface with Gradable, the heuristic judge
// answering in this process.
func gradeHeuristic(t testing.TB, r *rubric.Rubric, s *surface.Surface) (*report.Report, ask.Stats) {
	t.Helper()
	j := heuristic.New()
	id, err := j.Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rep, stats, err := scoreWith(r, s, j, id)
	if err != nil {
		t.Fatalf("%s: %v", s.Source, err)
	}
	return rep, stats
}

// TestGradableScansTheCorpus: every published server in the corpus is
// scanned to a composite and a grade, offline, with the calls the README
// states: 1 tasks + T defects + 1 confusable + 3T selections, and 3T more
// when any tool has a defect.
func TestGradableScansTheCorpus(t *testing.T) {
	heavytest.Later(t)
	r := builtin(t, "gradable")
	files, err := filepath.Glob(corpusFiles)
	if err != nil || len(files) < 16 {
		t.Fatalf("corpus: %d files (%v)", len(files), err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".tools.json"), func(t *testing.T) {
			s := readSurface(t, f)
			if len(s.Tools) > 100 && (race.Enabled || testing.Short()) {
				// 828 questions, each carrying the whole 231 KB surface:
				// ten seconds of encoding, ninety under the race
				// detector. make test runs it without the detector.
				t.Skip("a surface of more than 100 tools is scanned without -race and -short (make test does)")
			}
			rep, stats := gradeHeuristic(t, r, s)
			if rep.Exact == nil || rep.Grade == nil {
				t.Fatalf("no composite: %s", rep.NoScore)
			}
			n := len(s.Tools)
			defective := false
			for _, tl := range rep.Tools {
				defective = defective || tl.Exact != "100"
			}
			want := 1 + n + 3*n
			if n > 1 {
				want++
			}
			if defective {
				want += 3 * n
			}
			if stats.Calls != want {
				t.Errorf("%d tools: %d calls, want %d", n, stats.Calls, want)
			}
			t.Logf("%3d tools  %s  %s  %d calls", n, *rep.Score, *rep.Grade, stats.Calls)
		})
	}
}

// BenchmarkGradableHeuristic runs the whole harness (tasks, defects,
// confusable pairs, every selection in both runs, and the formulas) on
// the largest corpus server with the heuristic judge in this process, and
// reports tasks per second.
func BenchmarkGradableHeuristic(b *testing.B) {
	r := builtin(b, "gradable")
	s := readSurface(b, filepath.Join("..", "engine", "score", "testdata", "corpus", "gitlab.tools.json"))
	tasks := 0
	for b.Loop() {
		rep, _ := gradeHeuristic(b, r, s)
		tasks = len(rep.Answers) - 2 // less the tasks and confusable questions
	}
	b.ReportMetric(float64(tasks)*float64(b.N)/b.Elapsed().Seconds(), "tasks/s")
	b.ReportMetric(float64(len(s.Tools)), "tools")
}
