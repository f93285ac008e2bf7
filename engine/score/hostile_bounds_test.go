package score

import (
	"context"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
)

// TestHostileBoundsSurfaceSignals: a surface signal is computed in a
// scope of its own, which holds the surface but no Surface bound (its
// Size bounds the surface there). The signals before it are bounded
// member by member, and the surface's variables are skipped when a
// formula's own bound is worked out, so a formula over the surface read
// as bounded by nothing: a quadratic walk of a long description ran
// untracked, far past its cost limit, where it must stop at it.
func TestHostileBoundsSurfaceSignals(t *testing.T) {
	words := strings.TrimSpace(strings.Repeat("ab ", 700))
	pairs := "size(surface.tools[0].description.split(' ').filter(x, surface.tools[0].description.split(' ').exists(y, y == x + 'z')))"
	for _, tt := range []struct {
		name    string
		signals string
	}{
		{"the only signal", `pairs = "` + pairs + `"`},
		{"the surface read after a signal", `first = "1"
      pairs = "` + pairs + `"`},
		{"the surface and a signal before it", `first = "1"
      pairs = "surface_signals.first + ` + pairs + `"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := rubric.Load("hostile.hcl", []byte(`rubric "hostile" {
  version = "1"
  tool { score = "1" }
  surface {
    signals {
      `+tt.signals+`
    }
    score = "min(tools.map(t, t.score))"
  }
  grades = { A = 0 }
}`))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Run(context.Background(), r, oneTool(t, "read", words), Options{})
			if err == nil || !strings.Contains(err.Error(), "cost limit") {
				t.Fatalf("error %v, want the cost limit", err)
			}
		})
	}
}

// TestHostileBoundsSignalValues: a signal is bounded on its own by the
// length of its value as kept (eval.ValueSize), and a formula that reads
// only that signal by that length. A value kept in a form ValueSize did
// not look into (what an optional wraps: a list of strings, a list of
// lists, a map the formula built) was sized 0 or by its map's length
// alone, so a quadratic walk of a long description's words, reached
// through such a signal, ran untracked far past its cost limit, where
// it must stop at it.
func TestHostileBoundsSignalValues(t *testing.T) {
	words := strings.TrimSpace(strings.Repeat("ab ", 700))
	const split = "tool.description.split(' ')"
	for _, tt := range []struct {
		name   string
		signal string // the signal w, computed from the words
		list   string // the words, read from signals.w
	}{
		{"the words", split, "signals.w"},
		{"an optional of the words", "optional.of(" + split + ")", "signals.w"},
		{"an optional of a map of the words", "optional.of({'l': " + split + "})", "signals.w.l"},
		{"an optional of a list of the words", "optional.of([" + split + "])", "signals.w[0]"},
		{"a map of an optional of the words", "{'l': optional.of(" + split + ")}", "signals.w.l"},
		{"a list of an optional of the words", "[optional.of(" + split + ")]", "signals.w[0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			walk := "size(" + tt.list + ".filter(x, " + tt.list + ".exists(y, y == x + 'z')))"
			r, err := rubric.Load("hostile.hcl", []byte(`rubric "hostile" {
  version = "1"
  tool {
    signals {
      w = "`+tt.signal+`"
    }
    metric "walk" { value = "`+walk+`" }
    score = "1"
  }
  surface { score = "min(tools.map(t, t.score))" }
  grades = { A = 0 }
}`))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Run(context.Background(), r, oneTool(t, "read", words), Options{})
			if err == nil || !strings.Contains(err.Error(), "cost limit") {
				t.Fatalf("error %v, want the cost limit", err)
			}
		})
	}
}
