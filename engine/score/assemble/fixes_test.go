package assemble

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// TestLiftNote pins the note a headline needs when the overall grade is
// outside every tool's: above them (a surface term lifts it), and below
// them, where a summary showed a D beside tools graded A each and "No
// issues" with nothing saying why (the Toolset rubric's count and token
// budget).
func TestLiftNote(t *testing.T) {
	grades := []rubric.Grade{{Letter: "A"}, {Letter: "B"}, {Letter: "C"}, {Letter: "D"}, {Letter: "F"}}
	cases := []struct {
		name    string
		overall string
		tools   []string
		terms   []string
		want    string
	}{
		{"above", "A", []string{"B", "C"}, []string{"coherence"},
			"the overall grade A is above every tool's grade (the best is B) because the overall includes surface-level terms beside the tools' own scores: coherence"},
		{"below", "D", []string{"A", "A", "B"}, nil,
			"the overall grade D is below every tool's grade (the worst is B) because the overall includes more than the tools' own scores"},
		{"below with terms", "F", []string{"C"}, []string{"count", "budget"},
			"the overall grade F is below every tool's grade (the worst is C) because the overall includes surface-level terms beside the tools' own scores: count and budget"},
		{"among the tools", "B", []string{"A", "C"}, nil, ""},
		{"the same as every tool", "A", []string{"A"}, nil, ""},
		{"no grade", "", []string{"A"}, nil, ""},
		{"a tool without a grade", "D", []string{""}, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &rubric.Rubric{Grades: grades, Fixes: &rubric.Fixes{Terms: c.terms}}
			rep := &report.Report{Grade: &c.overall}
			for _, g := range c.tools {
				rep.Tools = append(rep.Tools, report.Tool{Grade: g})
			}
			if got := liftNote(r, rep); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
