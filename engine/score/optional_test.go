package score

import (
	"context"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
)

// TestOptionalSignalsAreData: a signal or a metric that yields an
// optional is kept as the value it holds, or null when it holds none
// (the README says so): the formulas after it read it as data, and a
// report holds it as JSON.
func TestOptionalSignalsAreData(t *testing.T) {
	r := toolRubric(t, `    signals {
      held  = "optional.of(tool.name)"
      empty = "optional.none()"
    }
    metric "read" { value = "signals.held == 'read' && signals.empty == null ? 1 : 0" }
    metric "kept" { value = "optional.of(tool.name)" }
    score = "metrics.read"`)
	rep, err := Run(context.Background(), r, surfacetest.OneTool(t, "read", "Reads a note."), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Tools[0].Score; got != "1.0" {
		t.Errorf("score %s, want 1.0: the optionals were not read as their values", got)
	}
	for _, m := range rep.Tools[0].Metrics {
		if m.Name == "kept" && m.Value != "read" {
			t.Errorf("metric kept = %#v, want the string it held", m.Value)
		}
	}
}
