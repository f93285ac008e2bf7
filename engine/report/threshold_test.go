package report

import (
	"encoding/json"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/rubric"
)

func TestBelow(t *testing.T) {
	scored := func(score, exact string) *Report {
		s, e := json.Number(score), exact
		return &Report{Score: &s, Exact: &e}
	}
	gradeB := &rubric.Threshold{Min: num.MustParse("80"), Label: "grade B"}
	for _, tc := range []struct {
		name string
		rep  *Report
		t    *rubric.Threshold
		want string
	}{
		{name: "no threshold", rep: &Report{NoScore: "no tools"}, t: nil, want: ""},
		{name: "reached exactly", rep: scored("80", "80"), t: gradeB, want: ""},
		{name: "above", rep: scored("91", "273/3"), t: gradeB, want: ""},
		{name: "below by a fraction the rounding hides", rep: scored("80", "239/3"), t: gradeB, want: "overall score 80 (239/3 = 79.6667… before rounding) is below grade B (80)"},
		{name: "rounded up to a number", rep: scored("84.2", "505/6"), t: &rubric.Threshold{Min: num.MustParse("84.2"), Label: "84.2"}, want: "overall score 84.2 (505/6 = 84.1667… before rounding) is below 84.2"},
		{name: "rounded up past a bound, a short decimal", rep: scored("90.0", "89.96"), t: &rubric.Threshold{Min: num.MustParse("90"), Label: "grade A"}, want: "overall score 90.0 (89.96 before rounding) is below grade A (90)"},
		{name: "rounded, still below", rep: scored("84.1", "841/10"), t: &rubric.Threshold{Min: num.MustParse("84.2"), Label: "84.2"}, want: "overall score 84.1 is below 84.2"},
		{name: "below a number, given once", rep: scored("70.0", "70"), t: &rubric.Threshold{Min: num.MustParse("75"), Label: "75"}, want: "overall score 70.0 is below 75"},
		{name: "no score", rep: &Report{NoScore: "no tools"}, t: gradeB, want: "no overall score (no tools), so it cannot reach grade B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.rep.Below(tc.t); got != tc.want {
				t.Errorf("Below = %q, want %q", got, tc.want)
			}
		})
	}
}
