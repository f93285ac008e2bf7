package rubrics_test

import (
	"context"
	"os"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

// builtin is the built-in rubric name.
func builtin(t testing.TB, name string) *rubric.Rubric {
	t.Helper()
	r, err := rubrics.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// parseSurface parses a tools/list JSON (or a capture) named name.
func parseSurface(t testing.TB, name string, src []byte) *surface.Surface {
	t.Helper()
	s, err := surface.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// readSurface parses the tools/list file at path.
func readSurface(t testing.TB, path string) *surface.Surface {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseSurface(t, path, src)
}

// scoreWith scores s with r, the judge j (identified as id) answering in
// this process through the engine's asker, without a cache.
func scoreWith(r *rubric.Rubric, s *surface.Surface, j ask.Judge, id judge.Identity) (*report.Report, ask.Stats, error) {
	a := &ask.Asker{Judge: j, Identity: id, Rubric: r, CountTokens: r.ReadsUsage()}
	rep, err := score.Run(context.Background(), r, s, score.Options{Asker: a})
	return rep, a.Stats(), err
}

// scoreJSON scores the tools/list JSON src, named name, with r, offline
// and without a judge.
func scoreJSON(t testing.TB, r *rubric.Rubric, name, src string) *report.Report {
	t.Helper()
	rep, err := score.Run(context.Background(), r, parseSurface(t, name, []byte(src)), score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
