package score

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/surface"
)

// TestSurfaceFormulasEstimatedOnTheirData: a surface's formulas are
// evaluated once a run, so each that passes its static bound is
// estimated on the surface it reads, however short that surface's
// values are. One that goes through every tool's words (as Toolset's
// entries does) was tracked at the square of the tools on any surface
// whose longest value (its list of tools, a long description) stayed
// under the length from which a tool's formula is estimated so. Counted,
// not timed: evaluations tracked over the data (lang.TrackedOverData).
func TestSurfaceFormulasEstimatedOnTheirData(t *testing.T) {
	r := loadRubric(t, `rubric "t" {
  version = "1"
  tool { score = "1" }
  surface {
    signals {
      fillers = "['the', 'a', 'of', 'tool']"
      keys    = "surface.tools.map(t, find_all(t.name, r'[A-Za-z]+').map(m, lower(m.text)).filter(w, !(w in surface_signals.fillers)).distinct().sort().join(' '))"
    }
    score = "size(surface_signals.keys.filter(k, k == 'get items'))"
  }
  grades = { A = 0 }
}`)
	const n = 3_000
	tools := make([]any, n)
	for i := range tools {
		tools[i] = map[string]any{"name": fmt.Sprintf("get_items_of_the_tool_%d", i), "description": "Gets items.", "inputSchema": map[string]any{"type": "object"}}
	}
	tools[0].(map[string]any)["description"] = strings.Repeat("d", 5_000)
	b, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("s.json", b)
	if err != nil {
		t.Fatal(err)
	}
	before := lang.TrackedOverData()
	rep, err := Run(context.Background(), r, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tracked := lang.TrackedOverData() - before; tracked != 0 {
		t.Errorf("%d evaluations tracked over the data, want none", tracked)
	}
	if want := fmt.Sprint(n) + ".0"; rep.Score == nil || rep.Score.String() != want {
		t.Errorf("score %s, want %s: every tool's words are get and items", rep.Score, want)
	}
}
