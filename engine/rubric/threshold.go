package rubric

import (
	"fmt"
	"strings"

	"github.com/rubricmcp/rubric/engine/num"
)

// Threshold is the lowest overall score a user accepts (rubric score
// --fail-under): one of the rubric's grades, or a number.
type Threshold struct {
	// Min is the lowest exact score that passes.
	Min num.Num
	// Label says what was given: "grade B" or the number.
	Label string
}

// Threshold reads s as a grade letter of r (in any case) or an exact
// number; "" means no threshold (nil, nil). A number outside the
// rubric's scale, when it declares one, is refused: 75 under a 1-5
// rubric is a threshold in another rubric's unit, which every score
// would fail (or pass) without saying so.
func (r *Rubric) Threshold(s string) (*Threshold, error) {
	if s == "" {
		return nil, nil
	}
	for _, g := range r.Grades {
		if strings.EqualFold(g.Letter, s) {
			return &Threshold{Min: g.Min, Label: "grade " + g.Letter}, nil
		}
	}
	letters := make([]string, len(r.Grades))
	for i, g := range r.Grades {
		letters[i] = g.Letter
	}
	grades := strings.Join(letters, ", ")
	n, err := num.Parse(s)
	if err != nil {
		if r.Scale != nil {
			return nil, fmt.Errorf("--fail-under %q is neither a grade of %s (%s) nor a score from %s to %s", s, r.Name, grades, r.Scale.Min, r.Scale.Max)
		}
		return nil, fmt.Errorf("--fail-under %q is neither a grade of %s (%s) nor a number", s, r.Name, grades)
	}
	if sc := r.Scale; sc != nil && (n.Cmp(sc.Min) < 0 || n.Cmp(sc.Max) > 0) {
		return nil, fmt.Errorf("--fail-under %s is outside the scale of %s, %s to %s: give a score from %s to %s, or a grade (%s)", s, r.Name, sc.Min, sc.Max, sc.Min, sc.Max, grades)
	}
	return &Threshold{Min: n, Label: n.String()}, nil
}

// Doubt says why the threshold t may not be what was meant, or "" when
// nothing does: a number in the lowest twentieth of the rubric's scale
// (3.5 under a rubric of 0 to 100) lets almost every score pass, and is
// most likely a threshold in another rubric's unit (a 1 to 5 one), set
// for that rubric beside it in a config file.
func (r *Rubric) Doubt(t *Threshold) string {
	sc := r.Scale
	if t == nil || sc == nil || strings.HasPrefix(t.Label, "grade ") {
		return ""
	}
	span := sc.Max.Sub(sc.Min)
	// t.Min - sc.Min < span / 20, in exact numbers.
	if span.Sign() <= 0 || t.Min.Sub(sc.Min).Mul(num.Int(20)).Cmp(span) >= 0 {
		return ""
	}
	return fmt.Sprintf("--fail-under %s is in the lowest twentieth of the scale of %s, %s to %s, so almost every score passes it: if it was meant for a rubric of another scale, give one of this rubric's (a score from %s to %s, or a grade)", t.Label, r.Name, sc.Min, sc.Max, sc.Min, sc.Max)
}
