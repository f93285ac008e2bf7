package rubric

import "testing"

// TestGradeNames: grades named by words rank by their starts alone, in
// any order written; single capital letters may be written in any order
// too, as long as A starts highest and each next letter lower
// (testdata/invalid/grade-letters-order.hcl is the swap refused).
func TestGradeNames(t *testing.T) {
	for _, tc := range []struct{ grades, top string }{
		{`{ bronze = 0, gold = 90, silver = 75 }`, "gold"},
		{`{ F = 0, D = 40, C = 60, B = 75, A = 90 }`, "A"},
		{`{ A = 90, C = 60, F = 0 }`, "A"},
		{`{ pass = 50, A = 90, F = 0 }`, "A"},
		// S-tier: an S above A is its own convention, not a swap.
		{`{ S = 95, A = 90, B = 75, F = 0 }`, "S"},
	} {
		r := loadString(t, `rubric "t" {
  version = "1"
  tool {
    score = "100"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = `+tc.grades+`
}
`)
		if got := r.Grades[0].Letter; got != tc.top {
			t.Errorf("%s: the top grade is %s, want %s", tc.grades, got, tc.top)
		}
	}
}
