package report

import (
	"fmt"
	"strings"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// Below says why the report's overall score does not reach t (rubric
// score --fail-under): it is below t, or there is none. It is empty when
// the score reaches t, or t is nil.
func (r *Report) Below(t *rubric.Threshold) string {
	if t == nil {
		return ""
	}
	if r.Exact == nil {
		return fmt.Sprintf("no overall score (%s), so it cannot reach %s", r.NoScore, t.Label)
	}
	exact := num.MustParse(*r.Exact)
	if exact.Cmp(t.Min) >= 0 {
		return ""
	}
	score := string(*r.Score)
	if rounded, err := num.Parse(score); err == nil && rounded.Cmp(t.Min) >= 0 {
		// The rounding lifted the score to the bound or past it: the
		// number compared is said, or the message would read "84.2 is
		// below 84.2".
		score += " (" + unrounded(exact) + " before rounding)"
	}
	// A grade's bound is given beside it; a number is its own.
	if min := t.Min.String(); min != t.Label {
		return fmt.Sprintf("overall score %s is below %s (%s)", score, t.Label, min)
	}
	return fmt.Sprintf("overall score %s is below %s", score, t.Label)
}

// unrounded writes an exact score: its decimal when it has a short one
// ("84.15"), else the fraction and its first decimals ("239/3 =
// 79.6667…").
func unrounded(n num.Num) string {
	s := n.String()
	if !strings.Contains(s, "/") {
		return s
	}
	return s + " = " + n.Decimal(4) + "…"
}
