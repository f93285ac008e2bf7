package score_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/rubrics"
)

// surfaceReader reads every tool's definition through surface.tools, in
// a tool formula and in a surface signal, so that a run decodes them all
// at once.
const surfaceReader = `
rubric "reader" {
  version = "1"
  grades  = { A = 1, F = 0 }
  tool {
    score = "size(surface.tools.filter(t, t.name == tool.name && has(t.inputSchema))) + surface_signals.described"
  }
  surface {
    signals {
      described = "size(surface.tools.filter(t, has(t.description)))"
    }
    score = "mean(tools.map(t, t.score))"
  }
}`

// TestLeanSurfaceScoresAsParsed: a surface read by ParseLean, whose tools
// keep no tree, gives every rubric that asks no judge the report of the
// same surface read by Parse, byte for byte, whether its tools were
// decoded or kept as written: the built-in ones, none of which reads the
// surface's definitions, and one that does.
func TestLeanSurfaceScoresAsParsed(t *testing.T) {
	heavytest.Later(t)
	reader, err := rubric.Load("reader.hcl", []byte(surfaceReader))
	if err != nil {
		t.Fatal(err)
	}
	if !reader.Reads("surface") {
		t.Fatal("the reader rubric reads no surface")
	}
	rs := []*rubric.Rubric{reader}
	all, err := rubrics.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		if len(r.Questions) == 0 {
			rs = append(rs, r)
		}
	}
	files, _ := filepath.Glob("testdata/corpus/*.tools.json")
	if len(files) < 16 || len(rs) < 3 {
		t.Fatalf("%d captures and %d rubrics, want the 16 of the corpus and at least 3", len(files), len(rs))
	}
	for _, r := range rs {
		for _, f := range files {
			t.Run(r.Name+"/"+filepath.Base(f), func(t *testing.T) {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				whole, err := surface.Parse(f, b)
				if err != nil {
					t.Fatal(err)
				}
				// The surface written back is canonical tool by tool: the
				// lean parse keeps those texts as they stand.
				written := whole.Marshal()
				var reports [3][]byte
				for i, parse := range []func() (*surface.Surface, error){
					func() (*surface.Surface, error) { return whole, nil },
					func() (*surface.Surface, error) { return surface.ParseLean(f, b) },
					func() (*surface.Surface, error) { return surface.ParseLean(f, written) },
				} {
					s, err := parse()
					if err != nil {
						t.Fatal(err)
					}
					rep, err := score.Run(context.Background(), r, s, score.Options{Target: f})
					if err != nil {
						t.Fatal(err)
					}
					rep.Timings = report.Timings{}
					if reports[i], err = report.Marshal(rep); err != nil {
						t.Fatal(err)
					}
				}
				if string(reports[0]) != string(reports[1]) || string(reports[0]) != string(reports[2]) {
					t.Errorf("the lean surface's report differs from the parsed one's")
				}
			})
		}
	}
}
