package rubric

import (
	"strings"
	"testing"
)

// TestReadsLooksThroughEveryFormula: Reads finds a variable read in any
// formula, a let included, and nowhere else; a rubric not loaded from a
// file is taken to read everything.
func TestReadsLooksThroughEveryFormula(t *testing.T) {
	tests := []struct {
		name, old, new string
		reads          bool
	}{
		{"no formula reads it", "", "", false},
		{"the tool's score", `score = "sum(checks.map(c, c.points * c.credit)) + share"`,
			`score = "sum(checks.map(c, c.points * c.credit)) + share + size(surface.tools)"`, true},
		{"a let of the surface block", `score = "mean(tools.map(t, t.score))"`,
			`let { n = "size(surface.tools)" }
    score = "mean(tools.map(t, t.score)) + n"`, true},
		{"the surface's score", `score = "mean(tools.map(t, t.score))"`, `score = "mean(tools.map(t, t.score)) + size(surface.tools)"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(letRubric, tt.old, tt.new, 1)
			if tt.old != "" && src == letRubric {
				t.Fatal("the rubric was not changed")
			}
			r := loadString(t, src)
			if got := r.Reads("surface"); got != tt.reads {
				t.Errorf("Reads(surface) = %v, want %v", got, tt.reads)
			}
			if !r.Reads("tool") || r.Reads("surface_answers") {
				t.Errorf("Reads(tool) = %v, Reads(surface_answers) = %v; want true, false", r.Reads("tool"), r.Reads("surface_answers"))
			}
		})
	}
	if !(&Rubric{}).Reads("surface") {
		t.Error("a rubric not loaded from a file must be taken to read the surface")
	}
}
