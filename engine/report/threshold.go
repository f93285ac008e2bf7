package report

import (
	"fmt"

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
	if num.MustParse(*r.Exact).Cmp(t.Min) < 0 {
		// A grade's bound is given beside it; a number is its own.
		if min := t.Min.String(); min != t.Label {
			return fmt.Sprintf("overall score %s is below %s (%s)", *r.Score, t.Label, min)
		}
		return fmt.Sprintf("overall score %s is below %s", *r.Score, t.Label)
	}
	return ""
}
