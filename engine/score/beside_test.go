package score_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

// besideRubric asks a question of each tool and computes the tools'
// names as a surface signal, which its questions share and its tools'
// report values and score read. CHECK is a check's pass formula, OWN a
// tool signal's and SIGNAL the surface signal's.
const besideRubric = `
rubric "beside" {
  version = "1"
  grades  = { A = 0 }
  check "named" {
    points = 1
    pass   = "CHECK"
    issue  = "name it"
  }
  question "rate" {
    kind   = "test.rate"
    per    = "tool"
    input  = "{'name': tool.name}"
    shared = "{'names': surface_signals.names}"
    system = "Rate it."
    user   = "{{ .name }}"
    answer_schema = "{\"type\": \"object\", \"required\": [\"n\"]}"
  }
  tool {
    signals {
      own = "OWN"
    }
    score = "answers.rate.n + size(surface_signals.names)"
    report {
      siblings = "surface_signals.names.filter(n, n != tool.name)"
    }
  }
  surface {
    signals {
      names = "SIGNAL"
    }
    score = "size(surface_signals.names)"
  }
}
`

func besideRun(t *testing.T, check, own, signal string) (*report.Report, error) {
	t.Helper()
	src := strings.NewReplacer("CHECK", check, "OWN", own, "SIGNAL", signal).Replace(besideRubric)
	r, err := rubric.Load("beside.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	j := scripted(func(q judge.Question) string { return `{"n": 1}` })
	return score.Run(context.Background(), r, s, score.Options{Asker: &ask.Asker{Judge: j, Identity: judge.Identity{Model: "m"}, Rubric: r}})
}

// TestSurfaceSignalsBesideTheChecks: a rubric that asks questions, and
// whose checks and tool signals read neither the surface nor its
// signals, checks its first tools while the surface's signals are
// computed (they begin only once a tool is checked here, and the run
// ends), and every formula after sees the signals as when they came
// first; a rubric whose tool signal reads them computes them first.
func TestSurfaceSignalsBesideTheChecks(t *testing.T) {
	for _, tt := range []struct {
		name, own string
		beside    bool
	}{
		{"the tools' formulas read no surface signal", "tool.name", true},
		{"a tool signal reads the surface's", "tool.name in surface_signals.names", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var called atomic.Bool
			score.SetBeforeSignals(t.Cleanup, func(firstChecked <-chan struct{}) {
				called.Store(true)
				<-firstChecked
			})
			rep, err := besideRun(t, "tool.name != ''", tt.own, "surface.tools.map(t, t.name)")
			if err != nil {
				t.Fatal(err)
			}
			if called.Load() != tt.beside {
				t.Errorf("signals computed beside the checks: %v, want %v", called.Load(), tt.beside)
			}
			want := map[string]string{"a": `["b","c"]`, "b": `["a","c"]`, "c": `["a","b"]`}
			for _, tool := range rep.Tools {
				b, err := tool.Fields[0].JSON()
				if err != nil {
					t.Fatal(err)
				}
				if string(b) != want[tool.Name] || string(tool.Score) != "4.0" || len(tool.Issues) != 0 {
					t.Errorf("tool %s: score %s, siblings %s, issues %v; want 4.0, %s, none", tool.Name, tool.Score, b, tool.Issues, want[tool.Name])
				}
			}
			if rep.Score == nil || *rep.Score != "3.0" {
				t.Errorf("surface score %v, want 3.0", rep.Score)
			}
		})
	}
}

// TestSurfaceSignalFailsBeforeTheChecks: computed beside the checks, a
// surface signal that fails still ends the run with its own error, not
// with that of a tool's check that fails too.
func TestSurfaceSignalFailsBeforeTheChecks(t *testing.T) {
	_, err := besideRun(t, "tool.name == 'a' || 1 / 0 == 1", "tool.name", "surface.tools.map(t, t.name).filter(n, 1 / 0 == 1)")
	if err == nil || !strings.Contains(err.Error(), `surface signal "names"`) {
		t.Fatalf("got %v, want the surface signal's error", err)
	}
}

// TestTDQSSignalsBeside: TDQS computes its surface's signals beside the
// first tools' checks, and its report is the one it was when they came
// first (a run traced by Observe computes them first).
func TestTDQSSignalsBeside(t *testing.T) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/corpus/notion.tools.json")
	if err != nil {
		t.Fatal(err)
	}
	run := func(observe bool) []byte {
		s, err := surface.Parse("notion.json", data)
		if err != nil {
			t.Fatal(err)
		}
		opt := score.Options{Asker: &ask.Asker{Judge: fixedJudge{}, Identity: judge.Identity{Model: "fixed"}, Rubric: r, StructuredOnly: true}}
		if observe {
			opt.Observe = func(string, *lang.Program, lang.Vars) {}
		}
		rep, err := score.Run(context.Background(), r, s, opt)
		if err != nil {
			t.Fatal(err)
		}
		rep.Timings = report.Timings{}
		b, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var called atomic.Bool
	score.SetBeforeSignals(t.Cleanup, func(firstChecked <-chan struct{}) {
		called.Store(true)
		<-firstChecked
	})
	beside := run(false)
	if !called.Load() {
		t.Fatal("TDQS computed its surface's signals before its checks")
	}
	called.Store(false)
	first := run(true)
	if called.Load() {
		t.Fatal("a traced run computed the surface's signals beside the checks")
	}
	if string(beside) != string(first) {
		t.Error("the report differs when the surface's signals are computed beside the checks")
	}
}
