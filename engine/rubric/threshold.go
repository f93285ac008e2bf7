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
// number; "" means no threshold (nil, nil).
func (r *Rubric) Threshold(s string) (*Threshold, error) {
	if s == "" {
		return nil, nil
	}
	for _, g := range r.Grades {
		if strings.EqualFold(g.Letter, s) {
			return &Threshold{Min: g.Min, Label: "grade " + g.Letter}, nil
		}
	}
	n, err := num.Parse(s)
	if err != nil {
		letters := make([]string, len(r.Grades))
		for i, g := range r.Grades {
			letters[i] = g.Letter
		}
		return nil, fmt.Errorf("--fail-under %q is neither a grade of %s (%s) nor a number", s, r.Name, strings.Join(letters, ", "))
	}
	return &Threshold{Min: n, Label: n.String()}, nil
}
