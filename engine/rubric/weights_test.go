package rubric

import "testing"

// TestWeightsReadWhole: a weight no check takes and no formula names is
// refused (testdata/invalid/unread-weight.hcl), but a formula that reads
// the weights whole, by a computed name, may read any of them: every
// weight then loads.
func TestWeightsReadWhole(t *testing.T) {
	for _, score := range []string{
		`weights.map(k, weights[k]).size() + sum(checks.map(c, c.points * c.credit))`,
		`weights['ghost'] + sum(checks.map(c, c.points * c.credit))`,
	} {
		loadString(t, `rubric "t" {
  version = "1"
  weights = { a = 10, ghost = 3 }
  check "a" {
    pass  = "true"
    issue = "x"
  }
  tool {
    score = "`+score+`"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}
`)
	}
}
