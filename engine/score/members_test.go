package score_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/rubrics"
)

// namesReader reads surface.tools only through members of each tool, in
// the ways the cut-down tools must answer as whole ones do: a member
// selected, tested with has() and with in, indexed, missing.
const namesReader = `
rubric "names" {
  version = "1"
  grades  = { A = 1, F = 0 }
  tool {
    score = "size(surface_signals.names.filter(n, n < tool.name)) + (surface_signals.described > 0 ? 1 : 0)"
  }
  surface {
    signals {
      names     = "surface.tools.map(t, t.name)"
      described = "size(surface.tools.map(t, has(t.description) && 'inputSchema' in t).filter(x, x))"
      titles    = "surface.tools.map(t, has(t.title) ? t['title'] : '')"
    }
    score = "mean(tools.map(t, t.score))"
    report "shapes" {
      schemas = "surface.tools.map(t, has(t.inputSchema) ? t.inputSchema : {})"
    }
  }
}`

// TestToolsCutToMembersScoreAsWhole: a rubric whose formulas read only
// members of surface.tools' tools gives the report it gives when every
// tool is whole (as for an explanation, whose observer sees the values
// in between), byte for byte; and a formula that reads a missing member
// fails with the same error either way.
func TestToolsCutToMembersScoreAsWhole(t *testing.T) {
	heavytest.Later(t)
	names, err := rubric.Load("names.hcl", []byte(namesReader))
	if err != nil {
		t.Fatal(err)
	}
	rs := []*rubric.Rubric{names}
	for _, n := range []string{"tool-safety", "toolset"} {
		r, err := rubrics.Find(n)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	for _, r := range rs {
		if _, ok := r.ItemMembers("surface", "tools"); !ok || len(r.Questions) > 0 {
			t.Fatalf("%s: its tools would not be cut down", r.Name)
		}
	}
	files, _ := filepath.Glob("testdata/corpus/*.tools.json")
	if len(files) < 3 {
		t.Fatalf("%d captures, want the corpus", len(files))
	}
	for _, r := range rs {
		for _, f := range files[:3] {
			t.Run(r.Name+"/"+filepath.Base(f), func(t *testing.T) {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				var reports [2][]byte
				for i, observe := range []func(string, *lang.Program, lang.Vars){nil, func(string, *lang.Program, lang.Vars) {}} {
					s, err := surface.ParseLean(f, b)
					if err != nil {
						t.Fatal(err)
					}
					rep, err := score.Run(context.Background(), r, s, score.Options{Target: f, Observe: observe})
					if err != nil {
						t.Fatal(err)
					}
					rep.Timings = report.Timings{}
					if reports[i], err = report.Marshal(rep); err != nil {
						t.Fatal(err)
					}
				}
				if string(reports[0]) != string(reports[1]) {
					t.Errorf("the report over tools cut down to their members differs from the one over whole tools")
				}
			})
		}
	}
	missing, err := rubric.Load("missing.hcl", []byte(`
rubric "missing" {
  version = "1"
  grades  = { A = 1, F = 0 }
  tool { score = "1" }
  surface {
    signals { absent = "surface.tools.map(t, t.absent)" }
    score = "size(surface_signals.absent)"
  }
}`))
	if err != nil {
		t.Fatal(err)
	}
	var errs [2]string
	for i, observe := range []func(string, *lang.Program, lang.Vars){nil, func(string, *lang.Program, lang.Vars) {}} {
		s, err := surface.ParseLean("in.json", []byte(`{"tools":[{"name":"a","description":"x"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, err = score.Run(context.Background(), missing, s, score.Options{Observe: observe}); err == nil {
			t.Fatal("a missing member read without an error")
		}
		errs[i] = err.Error()
	}
	if errs[0] != errs[1] {
		t.Errorf("a missing member: %q over cut tools, %q over whole ones", errs[0], errs[1])
	}
}
