package assemble

// What each issue gains when it is fixed, in the unit of the rubric's
// fixes block, and how much that moves the overall value it names (see
// rubric.Fixes).

import (
	"fmt"
	"slices"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/eval"
)

// checkGains sets the gain of each issue of a failed check in out (every
// issue it holds before the issues formula's are added): the fixes
// block's gain, or else the check's points times the credit missed plus
// the points of the checks its failure skipped.
func checkGains(r *rubric.Rubric, sc *eval.Scope, out *report.Tool, score num.Num) error {
	var gain *lang.Program
	if r.Fixes != nil {
		gain = r.Fixes.Gain
	}
	for k := range out.Issues {
		is := &out.Issues[k]
		i := slices.IndexFunc(out.Checks, func(c report.Check) bool { return c.Name == is.Check })
		if i < 0 {
			continue
		}
		c := out.Checks[i]
		points, credit, err := pointsAndCredit(c)
		if err != nil {
			return err
		}
		var skipped num.Num
		stops := false
		for _, next := range out.Checks[i+1:] {
			if !next.Skipped {
				break
			}
			p, err := num.Parse(next.Points)
			if err != nil {
				return fmt.Errorf("points of check %q: %w", next.Name, err)
			}
			skipped, stops = skipped.Add(p), true
		}
		if gain == nil {
			is.Gain = points.Mul(num.One.Sub(credit)).Add(skipped).Exact()
			continue
		}
		sc.Set("score", score)
		sc.Set("grade", out.Grade)
		sc.Set("this", map[string]any{
			"name": c.Name, "points": points, "credit": credit, "passed": int64(c.Passed), "total": int64(c.Total),
			"skipped": c.Skipped, "stops": stops,
		})
		v, err := sc.Eval(gain)
		delete(sc.Vars, "this")
		if err != nil {
			return fmt.Errorf("check %q: %w", c.Name, err)
		}
		n, err := lang.ToNum(v)
		if err != nil {
			return fmt.Errorf("check %q: %w", c.Name, eval.At(gain, err))
		}
		is.Gain = n.Exact()
	}
	return nil
}

func pointsAndCredit(c report.Check) (points, credit num.Num, err error) {
	if points, err = num.Parse(c.Points); err != nil {
		return points, credit, fmt.Errorf("points of check %q: %w", c.Name, err)
	}
	if credit, err = num.Parse(c.Credit); err != nil {
		return points, credit, fmt.Errorf("credit of check %q: %w", c.Name, err)
	}
	return points, credit, nil
}

// formulaGain reads the gain an issue of the issues formula says it has
// (its member "gain"), or else its points.
func formulaGain(m map[string]any, is *report.Issue) error {
	g, ok := m["gain"]
	if !ok {
		is.Gain = is.Points
		return nil
	}
	n, err := lang.ToNum(lang.Adapter.NativeToValue(g))
	if err != nil {
		return fmt.Errorf("gain: %w", err)
	}
	is.Gain = n.Exact()
	return nil
}

// Fixes records what the report's gains count in, computes how much
// each issue moves the overall value the rubric names, and notes an
// overall grade that is above or below every tool's.
func Fixes(r *rubric.Rubric, rep *report.Report) error {
	f := r.Fixes
	if f == nil {
		return nil
	}
	rep.Fixes = &report.Fixes{Unit: f.Unit, Overall: f.Overall}
	if f.Moves != nil {
		vars := map[string]any{"tool_count": int64(len(rep.Tools))}
		for i := range rep.Tools {
			for k := range rep.Tools[i].Issues {
				is := &rep.Tools[i].Issues[k]
				g, err := num.Parse(is.Gain)
				if err != nil {
					return &eval.Error{Tool: rep.Tools[i].Name, Formula: "fixes moves", Err: fmt.Errorf("gain: %w", err)}
				}
				vars["gain"] = g
				v, err := f.Moves.Eval(vars)
				if err != nil {
					return &eval.Error{Tool: rep.Tools[i].Name, Formula: "fixes moves", Program: f.Moves, Err: err}
				}
				n, err := lang.ToNum(v)
				if err != nil {
					return &eval.Error{Tool: rep.Tools[i].Name, Formula: "fixes moves", Program: f.Moves, Err: err}
				}
				is.Moves = n.Exact()
			}
		}
	}
	if note := liftNote(r, rep); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	return nil
}

// liftNote says why the overall grade is above every tool's grade, or
// below every tool's, when it is: the overall includes more than the
// tools' own scores. Below is the case that misleads most: a set of
// tools graded A each, no issue to fix and a D headline.
func liftNote(r *rubric.Rubric, rep *report.Report) string {
	if rep.Grade == nil || len(rep.Tools) == 0 {
		return ""
	}
	rank := func(g string) int {
		i := slices.IndexFunc(r.Grades, func(b rubric.Grade) bool { return b.Letter == g })
		if i < 0 {
			return len(r.Grades)
		}
		return i
	}
	// Grades run best first: a smaller rank is a better grade.
	overall, best, worst := rank(*rep.Grade), len(r.Grades), -1
	bestGrade, worstGrade := "", ""
	for _, t := range rep.Tools {
		k := rank(t.Grade)
		if k < best {
			best, bestGrade = k, t.Grade
		}
		if k < len(r.Grades) && k > worst {
			worst, worstGrade = k, t.Grade
		}
	}
	what := "more than the tools' own scores"
	if terms := r.Fixes.Terms; len(terms) > 0 {
		what = "surface-level terms beside the tools' own scores: " + joinAnd(terms)
	}
	switch {
	case bestGrade != "" && overall < best:
		return fmt.Sprintf("the overall grade %s is above every tool's grade (the best is %s) because the overall includes %s", *rep.Grade, bestGrade, what)
	case worstGrade != "" && overall < len(r.Grades) && overall > worst:
		return fmt.Sprintf("the overall grade %s is below every tool's grade (the worst is %s) because the overall includes %s", *rep.Grade, worstGrade, what)
	}
	return ""
}

func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := ""
	for i, x := range s {
		switch {
		case i == 0:
		case i == len(s)-1:
			out += " and "
		default:
			out += ", "
		}
		out += x
	}
	return out
}
