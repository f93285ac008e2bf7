package rubric

import (
	"strconv"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/hashicorp/hcl/v2"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
)

// CheckFields are the fields of a check's results as tool formulas see
// them (checks, check.NAME), in order: what scoring gives them, and what
// boundTools gives them for a tool that passes or fails every check.
var CheckFields = []string{"name", "points", "credit", "passed", "total", "skipped"}

// boundTools refuses a rubric whose tool score, computed from its checks
// alone, lies outside its scale for a tool that passes every check or
// fails every one: with these weights (a child's, most often) the best
// or the worst tool would score where no grade and no threshold means
// anything, and every scan would fail at the formula. The rubric is not
// read for what it means: its own formulas are evaluated on those two
// tools, and only when the tool's score and the metrics it reads see
// nothing but the checks' results, so that nothing else moves them.
// The problem is reported where the loaded file sets the weights.
func (l *loader) boundTools(r *Rubric) {
	if r.Scale == nil || len(r.Checks) == 0 || !fromChecks(r.Tool.Score) {
		return
	}
	for _, m := range r.Tool.Metrics {
		if r.Tool.Score.Uses("metrics") && !fromChecks(m.Value) {
			return
		}
	}
	for _, pass := range []bool{true, false} {
		score, ok := toolScoreOf(r, pass)
		if !ok {
			continue
		}
		who, side, end, bound := "passes", "above", "max", r.Scale.Max
		if !pass {
			who, side, end, bound = "fails", "below", "min", r.Scale.Min
		}
		if pass && score.Cmp(bound) <= 0 || !pass && score.Cmp(bound) >= 0 {
			continue
		}
		msg := "with these weights a tool that " + who + " every check scores " + score.String() + " (the tool score at " + l.placeOf(l.toolScoreAt) + "), " + side + " the scale's " + end + " " + bound.String() + " (" + l.placeOf(l.scaleAt[end]) + ")"
		at := l.toolScoreAt
		if len(r.Overrides) > 0 {
			o := r.Overrides[0]
			at = hcl.Range{Filename: o.File, Start: hcl.Pos{Line: o.Line, Column: o.Col}}
			parts := make([]string, len(r.Overrides))
			for i, o := range r.Overrides {
				parts[i] = o.Name + " = " + o.Value.String() + " (the parent's " + o.Was.String() + ")"
			}
			msg += ": this rubric sets " + strings.Join(parts, ", ") + ", and its parent's formulas were written for its own weights; make them add up as the parent's do"
		} else {
			if l.weightsAt.Filename == l.file {
				at = l.weightsAt
			}
			msg += ": lower the weights or points, or raise the scale's " + end
		}
		l.errorf(at, "%s", msg)
		return
	}
}

// fromChecks reports whether p sees nothing of a tool but its checks'
// results and the metrics computed before it: the weights and lets are
// compiled in.
func fromChecks(p *lang.Program) bool {
	if p == nil {
		return false
	}
	for _, v := range ToolVars {
		switch v.Name {
		case "checks", "check", "metrics":
		default:
			if p.Uses(v.Name) {
				return false
			}
		}
	}
	return true
}

// toolScoreOf computes r's tool score for a tool that passes every
// check (pass) or fails every one, a check that stops the checks then
// skipping the rest; ok is false when a formula fails on it.
func toolScoreOf(r *Rubric, pass bool) (num.Num, bool) {
	checks := make([]ref.Val, len(r.Checks))
	byName := make(map[string]any, len(r.Checks))
	stopped := false
	for i, c := range r.Checks {
		credit, passed, total, skipped := num.Int(0), int64(0), int64(0), false
		switch {
		case pass:
			credit, passed, total = num.One, 1, 1
		case stopped:
			skipped = true
		default:
			total = 1
			stopped = c.Stop
		}
		rec := lang.RecordOf(CheckFields, []ref.Val{types.String(c.Name), lang.Num{N: c.Points}, lang.Num{N: credit}, types.Int(passed), types.Int(total), types.Bool(skipped)})
		checks[i], byName[c.Name] = rec, rec
	}
	vars := map[string]any{"checks": types.NewRefValList(lang.Adapter, checks), "check": byName}
	metrics := map[string]any{}
	vars["metrics"] = metrics
	for _, m := range r.Tool.Metrics {
		if !r.Tool.Score.Uses("metrics") {
			break
		}
		v, err := m.Value.Eval(vars)
		if err != nil {
			return num.Num{}, false
		}
		metrics[m.Name] = v
	}
	v, err := r.Tool.Score.Eval(vars)
	if err != nil {
		return num.Num{}, false
	}
	n, err := lang.ToNum(v)
	return n, err == nil
}

// placeOf is a range as a message names it: file:line.
func (l *loader) placeOf(rng hcl.Range) string {
	return l.fileOf(rng) + ":" + strconv.Itoa(rng.Start.Line)
}
