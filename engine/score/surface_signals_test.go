package score_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
)

// surfaceSignalsRubric computes the tools' names once, as a surface
// signal, and a second signal from the first; each tool's signal, its
// report values and the surface's metrics read them.
const surfaceSignalsRubric = `
rubric "siblings" {
  version = "1"
  grades  = { A = 0 }
  tool {
    signals {
      siblings = "surface_signals.names.filter(n, n != tool.name)"
    }
    score = "size(signals.siblings)"
    report {
      siblings = "signals.siblings"
      count    = "surface_signals.count"
    }
  }
  surface {
    signals {
      names = "surface.tools.map(t, t.name)"
      count = "size(surface_signals.names)"
    }
    metric "names" {
      value = "surface_signals.names"
    }
    score = "surface_signals.count"
  }
}
`

// TestSurfaceSignals: surface signals are computed once from the whole
// surface, and every tool's formulas and the surface's see them; each tool
// gets the same siblings it got when it read every definition itself.
func TestSurfaceSignals(t *testing.T) {
	r, err := rubric.Load("siblings.hcl", []byte(surfaceSignalsRubric))
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Run(context.Background(), r, s, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": `["b","c"]`, "b": `["a","c"]`, "c": `["a","b"]`}
	for _, tool := range rep.Tools {
		got := map[string]string{}
		for _, f := range tool.Fields {
			b, err := f.JSON()
			if err != nil {
				t.Fatal(err)
			}
			got[f.Name] = string(b)
		}
		if got["siblings"] != want[tool.Name] || got["count"] != "3" || string(tool.Score) != "2.0" {
			t.Errorf("tool %s: score %s, fields %v; want siblings %s, count 3, score 2.0", tool.Name, tool.Score, got, want[tool.Name])
		}
	}
	if len(rep.Metrics) != 1 || rep.Score == nil || *rep.Score != "3.0" {
		t.Fatalf("surface: metrics %+v, score %v", rep.Metrics, rep.Score)
	}
	if b, _ := json.Marshal(rep.Metrics[0].Value); string(b) != `["a","b","c"]` {
		t.Errorf("the names metric is %s", b)
	}
}

// TestSurfaceSignalErrors: a surface signal sees the surface, not a tool
// (an error with file:line:col when the rubric loads), and one that fails
// names itself.
func TestSurfaceSignalErrors(t *testing.T) {
	tests := []struct {
		name, signal string
		load         bool   // the error comes when the rubric loads
		want         string // in the error
	}{
		{"reads a tool", "tool.name", true, "siblings.hcl:7:"},
		{"reads a tool's signals", "signals.x", true, "undeclared reference to 'signals'"},
		{"fails", "surface.tools[7].name", false, `scoring the surface: surface signal "bad"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(`
rubric "siblings" {
  version = "1"
  grades  = { A = 0 }
  surface {
    signals {
      bad = "SIGNAL"
    }
    score = "1"
  }
  tool { score = "1" }
}
`, "SIGNAL", tt.signal, 1)
			r, err := rubric.Load("siblings.hcl", []byte(src))
			if tt.load {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("load: got %v, want an error containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s, _ := surface.Parse("t.json", []byte(`{"tools": [{"name": "a"}]}`))
			_, err = score.Run(context.Background(), r, s, score.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
