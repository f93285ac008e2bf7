package report

// The fix list the writers of summaries share: every issue of every tool,
// ordered by what fixing it would gain.

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/rubricmcp/rubric/engine/num"
)

// Fix is one issue of one tool and what fixing it would gain.
type Fix struct {
	Tool  string
	Issue Issue
	// Gain is in the unit of the report's fixes (FixUnit).
	Gain num.Num
	// Moves is how much the value the fixes name moves; HasMoves says
	// whether the rubric says.
	Moves    num.Num
	HasMoves bool
}

// FixList returns every issue of every tool, the largest gain first, then
// by tool name, then by check name. A report written before gains (an
// issue without one) gains what its check missed: the check's points
// times the credit missed, plus the points of the checks it stopped.
func (r *Report) FixList() ([]Fix, error) {
	var fixes []Fix
	for _, t := range r.Tools {
		for _, is := range t.Issues {
			f := Fix{Tool: t.Name, Issue: is}
			var err error
			if is.Gain != "" {
				f.Gain, err = num.Parse(is.Gain)
			} else {
				f.Gain, err = legacyGain(t, is)
			}
			if err == nil && is.Moves != "" {
				f.Moves, err = num.Parse(is.Moves)
				f.HasMoves = err == nil
			}
			if err != nil {
				return nil, fmt.Errorf("tool %q, check %q: %w; the report is damaged, score the surface again", t.Name, is.Check, err)
			}
			fixes = append(fixes, f)
		}
	}
	sort.SliceStable(fixes, func(i, j int) bool {
		a, b := fixes[i], fixes[j]
		if c := a.Gain.Cmp(b.Gain); c != 0 {
			return c > 0
		}
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		return a.Issue.Check < b.Issue.Check
	})
	return fixes, nil
}

// legacyGain is the gain of an issue a report without gains holds.
func legacyGain(t Tool, is Issue) (num.Num, error) {
	points, err := num.Parse(is.Points)
	if err != nil {
		return points, fmt.Errorf("points: %w", err)
	}
	for i, c := range t.Checks {
		if c.Name != is.Check {
			continue
		}
		credit, err := num.Parse(c.Credit)
		if err != nil {
			return points, fmt.Errorf("credit: %w", err)
		}
		lost := points.Mul(num.One.Sub(credit))
		for _, next := range t.Checks[i+1:] {
			if !next.Skipped {
				break
			}
			p, err := num.Parse(next.Points)
			if err != nil {
				return points, fmt.Errorf("points of %q: %w", next.Name, err)
			}
			lost = lost.Add(p)
		}
		return lost, nil
	}
	return points, nil
}

// FixUnit names what the gains of the fix list count: the rubric's unit,
// or "points" for a report whose rubric names none.
func (r *Report) FixUnit() string {
	if r.Fixes != nil && r.Fixes.Unit != "" {
		return r.Fixes.Unit
	}
	return "points"
}

// FixOrder says, for the line above a fix list, its order and its unit,
// once, and what the second figure is when the rubric says what each fix
// moves: "largest gain first: the gain in points".
func (r *Report) FixOrder(fixes []Fix) string {
	h := "largest gain first: the gain in " + r.FixUnit()
	for _, f := range fixes {
		if f.HasMoves && r.Fixes != nil && r.Fixes.Overall != "" {
			h += ", then what it moves " + r.Fixes.Overall
			break
		}
	}
	return h
}

// GainDigits is how many decimal digits show every gain of fixes: the
// rubric's rounding, or one more when that shows a gain inexactly (a
// quarter point at one digit).
func GainDigits(fixes []Fix, round int) int {
	for _, f := range fixes {
		if !exactAt(f.Gain, round) {
			return round + 1
		}
	}
	return round
}

// MovesDigits is how many decimal digits show what a fix moves: two more
// than the rubric's rounding, as a gain spreads over many tools.
func MovesDigits(round int) int { return round + 2 }

func exactAt(n num.Num, digits int) bool {
	d, err := num.Parse(n.Decimal(digits))
	return err == nil && d.Cmp(n) == 0
}

// Signed writes n at digits decimal digits, with a plus sign when it is
// above zero.
func Signed(n num.Num, digits int) string {
	s := n.Decimal(digits)
	if n.Sign() > 0 {
		return "+" + s
	}
	return s
}

// ShortExact is the exact form of a number when it is short enough to
// read (numerator and denominator of at most 4 digits each), "" when it is
// not or adds nothing to the rounded form shown.
func ShortExact(rounded, exact string) string {
	if SameNumber(rounded, exact) {
		return ""
	}
	for _, part := range strings.Split(strings.TrimPrefix(exact, "-"), "/") {
		if len(part) > 4 {
			return ""
		}
	}
	return exact
}

// fraction is how a report writes an exact number with no decimal form
// (a rubric's report value): numerator/denominator.
var fraction = regexp.MustCompile(`^-?[0-9]+/[0-9]+$`)

// ReadableDigits are the decimal digits Readable writes a fraction with:
// those of a metric's value (see Metric), so that one number reads the
// same wherever a page shows it.
const ReadableDigits = 12

// Readable is a value a report holds as text, as a person reads it: an
// exact fraction ("92446/13", a report value with no decimal form) as its
// decimal at ReadableDigits digits, followed by "(exactly ...)" when the
// fraction is short (see ShortExact); any other text as it is.
func Readable(s string) string {
	if !fraction.MatchString(s) {
		return s
	}
	n, err := num.Parse(s)
	if err != nil {
		return s
	}
	d := n.Decimal(ReadableDigits)
	if e := ShortExact(d, s); e != "" {
		return d + " (exactly " + e + ")"
	}
	return d
}
