package score_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
)

// earlyRubric asks a question per tool whose input reads a surface
// signal, and scores each tool from its own signal (toolSignal), a
// surface signal (names, or the failing surfaceSignal) and its answer.
func earlyRubric(toolSignal, surfaceSignal string) string {
	return fmt.Sprintf(`
rubric "early" {
  version = "1"
  grades  = { A = 0 }
  question "tool" {
    kind   = "test.tool"
    per    = "tool"
    input  = "{'name': tool.name, 'count': size(surface_signals.names)}"
    system = "s"
    user   = "{{ .name }}"
    answer_schema = "{\"type\": \"object\", \"required\": [\"n\"]}"
  }
  tool {
    signals {
      own = %q
    }
    metric "sum" {
      value = "signals.own + size(surface_signals.names) + answers.tool.n"
    }
    score = "metrics.sum"
  }
  surface {
    signals {
      names = %q
    }
    score = "sum(tools.map(t, t.score))"
  }
}
`, toolSignal, surfaceSignal)
}

// TestToolsCheckedBesideTheSurfaceSignals: when the tools' signals read
// neither the surface nor its signals, the first tools are checked while
// the surface's signals are computed (the signals wait for one to be), and
// every tool's question and formulas see the signals all the same: a tool
// named tN (N of 40) scores its name's length, plus 40, plus its answer,
// which is the tool count its question's input held. When a tool's
// signal reads a surface signal, no tool is checked before them; and when
// a surface signal fails, the run returns its error.
func TestToolsCheckedBesideTheSurfaceSignals(t *testing.T) {
	const n = 40
	var tools []string
	for i := range n {
		tools = append(tools, fmt.Sprintf(`{"name": "t%d"}`, i))
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [`+strings.Join(tools, ", ")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	j := scripted(func(q judge.Question) string {
		var in struct{ Count int }
		if err := json.Unmarshal(q.Input, &in); err != nil {
			t.Error(err)
		}
		return fmt.Sprintf(`{"n": %d}`, in.Count)
	})
	names := "surface.tools.map(t, t.name)"
	for _, tc := range []struct {
		name, toolSignal, surfaceSignal string
		early                           bool
		wantErr                         string
	}{
		{"beside", "size(tool.name)", names, true, ""},
		{"after", "size(tool.name) + size(surface_signals.names) - size(surface_signals.names)", names, false, ""},
		{"a failing surface signal", "size(tool.name)", "[surface.tools][5]", true, `surface signal "names"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := rubric.Load("early.hcl", []byte(earlyRubric(tc.toolSignal, tc.surfaceSignal)))
			if err != nil {
				t.Fatal(err)
			}
			var checkedEarly atomic.Int32
			first := make(chan struct{})
			var once sync.Once
			// The signals start once a tool is checked beside them.
			defer score.SetEarlyHooks(func() { <-first }, func(int) {
				checkedEarly.Add(1)
				once.Do(func() { close(first) })
			})()
			rep, err := score.Run(context.Background(), r, s, score.Options{Asker: &ask.Asker{Judge: j, Identity: judge.Identity{Model: "m"}, Rubric: r}})
			if got := checkedEarly.Load() > 0; got != tc.early {
				t.Errorf("%d tools checked before the surface's signals, want some: %v", checkedEarly.Load(), tc.early)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want the error of %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			total := 0
			for i, tl := range rep.Tools {
				want := len(fmt.Sprintf("t%d", i)) + 2*n
				total += want
				if tl.Exact != fmt.Sprint(want) {
					t.Errorf("tool %d scored %s, want %d", i, tl.Exact, want)
				}
			}
			if rep.Exact == nil || *rep.Exact != fmt.Sprint(total) {
				t.Errorf("surface scored %v, want %d", rep.Exact, total)
			}
		})
	}
}
