// Package assemble turns a tool's checks, signals and answers into its
// part of the report (metrics, score, grade, issues, report values), and
// the scored tools into the surface's (metrics, validity, warnings, the
// overall score and grade, the gate's value, report sections), with what
// each issue gains when it is fixed.
package assemble

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/google/cel-go/common/types"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/check"
	"github.com/rubricmcp/rubric/engine/score/eval"
)

// InvalidError is a rubric's verdict that the observations cannot be
// scored (its surface invalid formula gave a reason): the run produces no
// report.
type InvalidError struct {
	Reason string
}

// Error gives the rubric's reason.
func (e *InvalidError) Error() string {
	return "the rubric cannot score these observations: " + e.Reason
}

// Scored is what the surface's formulas need of a scored tool.
type Scored struct {
	score   num.Num
	metrics map[string]any // the tool's metrics as plain values
	answers map[string]any // the tool's answers, by question
	// answersSize is eval.ValueSize(answers), worked out once with each
	// answer's own bound: Surface's bound of the tools reads it rather
	// than walk every answer again.
	answersSize uint64
}

// Tool computes a tool's metrics, score, issues and report values
// from its checks, signals and answers.
func Tool(r *rubric.Rubric, st *check.State, out *report.Tool) (Scored, error) {
	return tool(r, st, out, false)
}

// Early says whether a tool can be assembled in two steps (ToolEarly,
// then ToolLate): when, of its formulas, only report values read the
// surface's answers (surface_answers), so that the rest may be evaluated
// as soon as the tool's own answers are in, while questions about the
// surface are still being asked.
func Early(r *rubric.Rubric) bool {
	for _, m := range r.Tool.Metrics {
		if m.Value.MayRead("surface_answers") {
			return false
		}
	}
	if r.Tool.Score.MayRead("surface_answers") || r.Tool.Issues.MayRead("surface_answers") || r.Fixes != nil && r.Fixes.Gain.MayRead("surface_answers") {
		return false
	}
	return true
}

// ToolEarly is Tool up to the first report value that reads the
// surface's answers: that value and the ones after it are left null in
// out.Fields for ToolLate to fill, so that an error ToolEarly returns is
// the one Tool returns. See Early.
func ToolEarly(r *rubric.Rubric, st *check.State, out *report.Tool) (Scored, error) {
	return tool(r, st, out, true)
}

// ToolLate fills in the report values ToolEarly left, in order, once the
// tool's scope sees the surface's answers.
func ToolLate(r *rubric.Rubric, st *check.State, out *report.Tool) error {
	k, from := 0, lateFrom(r)
	for _, rb := range r.Tool.Reports {
		for _, f := range rb.Fields {
			if k >= from {
				b, err := fieldJSON(f, st.Scope)
				if err != nil {
					err.Tool = st.Name
					return err
				}
				out.Fields[k].Value = b
			}
			k++
		}
	}
	return nil
}

// lateFrom is the place, among the tool's report values in order, of the
// first that reads the surface's answers: where ToolEarly stops and
// ToolLate starts. It is the number of values when none reads them.
func lateFrom(r *rubric.Rubric) int {
	k := 0
	for _, rb := range r.Tool.Reports {
		for _, f := range rb.Fields {
			if f.Value.MayRead("surface_answers") {
				return k
			}
			k++
		}
	}
	return k
}

// tool is Tool, or with early ToolEarly.
func tool(r *rubric.Rubric, st *check.State, out *report.Tool, early bool) (Scored, error) {
	sc := st.Scope
	var answersSize uint64
	if st.Answers != nil {
		// Each question's answer bounded on its own, for the formulas
		// that read one (answers.tool.scores); the answers whole are
		// bounded from those bounds, where eval.ValueSize walked every
		// answer a second time.
		sizes := make(map[string]uint64, len(st.Answers))
		for q, a := range st.Answers {
			sizes[q] = eval.ValueSize(a)
		}
		answersSize = eval.MembersSize(sizes)
		sc.Size = max(sc.Size, answersSize)
		sc.SetMembers("answers", st.Answers, sizes)
	}
	// Metrics leaves them set, each bounded on its own.
	metrics, mvals, merr := eval.Metrics(r.Tool.Metrics, sc)
	if merr != nil {
		merr.Tool = st.Name
		return Scored{}, merr
	}
	out.Metrics = mvals
	score, err := eval.Num(r.Tool.Score, sc)
	if err != nil {
		return Scored{}, &eval.Error{Tool: st.Name, Formula: "tool score", Program: r.Tool.Score, Err: err}
	}
	out.Score = rounded(score, r.Round)
	if err := outsideScale(r, "tool score", score, out.Score); err != nil {
		return Scored{}, &eval.Error{Tool: st.Name, Formula: "tool score", Program: r.Tool.Score, Err: err}
	}
	out.Exact = score.Exact()
	out.Grade = r.GradeOf(score)
	if err := checkGains(r, sc, out, score); err != nil {
		return Scored{}, &eval.Error{Tool: st.Name, Formula: "fixes gain", Err: err}
	}
	if r.Tool.Issues != nil {
		issues, err := extraIssues(r.Tool.Issues, r.Tool.Titles, sc)
		if err != nil {
			return Scored{}, &eval.Error{Tool: st.Name, Formula: "tool issues", Program: r.Tool.Issues, Err: err}
		}
		out.Issues = append(out.Issues, issues...)
	}
	if len(r.Tool.Reports) > 0 {
		sc.Set("score", score)
		sc.Set("grade", out.Grade)
		// With early, the values from the first that reads the surface's
		// answers on are left for ToolLate.
		late := math.MaxInt
		if early {
			late = lateFrom(r)
		}
		k := 0 // the place of rb's first value among the tool's
		for _, rb := range r.Tool.Reports {
			fields, err := reportFields(rb, sc, late-k)
			if err != nil {
				err.Tool = st.Name
				return Scored{}, err
			}
			out.Fields = append(out.Fields, fields...)
			k += len(rb.Fields)
		}
	}
	return Scored{score: score, metrics: metrics, answers: st.Answers, answersSize: answersSize}, nil
}

// Surface computes the surface's part of rep from its scored tools
// (results, in tool order), the surface's values and signals, and the
// surface's answers and their usage: metrics, validity, warnings, the
// overall score and grade, the gate's value and the report sections.
func Surface(ctx context.Context, r *rubric.Rubric, rep *report.Report, results []Scored, sv *check.Surface, answers, usage map[string]any) error {
	if len(results) == 0 {
		rep.NoScore = "the surface has no tools, so there is nothing to grade"
		rep.Warnings = append(rep.Warnings, rep.NoScore)
		return nil
	}
	// Each tool is an entry of its name, score, grade and metrics; the
	// longest string, list or map among them bounds the size.
	tools := make([]any, len(results))
	size := uint64(len(tools))
	for i, res := range results {
		t := rep.Tools[i]
		// Made at its size: TDQS's nine entries outgrew the map a literal
		// of three makes, which grew it again for every tool.
		m := make(map[string]any, 4+len(res.metrics))
		m["name"], m["score"], m["grade"] = t.Name, res.score, t.Grade
		if res.answers != nil {
			m["answers"] = res.answers
		}
		for k, v := range res.metrics {
			if _, clash := m[k]; !clash {
				m[k] = v
			}
		}
		tools[i] = m
		size = max(size, sizeWith(m, "answers", res.answersSize))
	}
	// Answers are data a judge sent: their length is known only now.
	size = max(size, eval.ValueSize(answers), eval.ValueSize(usage))
	sc := &eval.Scope{Vars: lang.Vars{"tools": tools, "surface": sv.Val, "surface_signals": sv.Signals, "answers": answers, "usage": usage, "grades": sv.Grades},
		Size: size, Surface: sv.Size, Limit: eval.OverSurface(len(tools), sv.Bytes), Once: true, Observe: sv.Observe, Ctx: ctx}
	_, mvals, merr := eval.Metrics(r.Surface.Metrics, sc)
	if merr != nil {
		return merr
	}
	rep.Metrics = mvals
	if r.Surface.Invalid != nil {
		why, err := sc.Eval(r.Surface.Invalid)
		if err != nil {
			return &eval.Error{Formula: "surface invalid", Program: r.Surface.Invalid, Err: err}
		}
		if s, ok := why.(types.String); ok {
			return &InvalidError{Reason: string(s)}
		}
		if why.Type() != types.NullType {
			return &eval.Error{Formula: "surface invalid", Program: r.Surface.Invalid, Err: fmt.Errorf("want null or a string saying why, got %s", why.Type().TypeName())}
		}
	}
	if r.Surface.Warnings != nil {
		ws, err := sc.Eval(r.Surface.Warnings)
		if err != nil {
			return &eval.Error{Formula: "surface warnings", Program: r.Surface.Warnings, Err: err}
		}
		n, err := lang.Native(ws)
		if err != nil {
			return &eval.Error{Formula: "surface warnings", Program: r.Surface.Warnings, Err: err}
		}
		for _, w := range n.([]any) {
			rep.Warnings = append(rep.Warnings, fmt.Sprint(w))
		}
	}
	v, err := sc.Eval(r.Surface.Score)
	if err != nil {
		return &eval.Error{Formula: "surface score", Program: r.Surface.Score, Err: err}
	}
	sc.Set("score", nil)
	sc.Set("grade", nil)
	if v.Type() == types.NullType {
		rep.NoScore = "the rubric computes no overall score for this surface (its surface score is null)"
		rep.Warnings = append(rep.Warnings, rep.NoScore)
	} else {
		score, err := lang.ToNum(v)
		if err != nil {
			return &eval.Error{Formula: "surface score", Program: r.Surface.Score, Err: err}
		}
		s := rounded(score, r.Round)
		if err := outsideScale(r, "surface score", score, s); err != nil {
			return &eval.Error{Formula: "surface score", Program: r.Surface.Score, Err: err}
		}
		e := score.Exact()
		g := r.GradeOf(score)
		rep.Score, rep.Exact, rep.Grade = &s, &e, &g
		sc.Set("score", score)
		sc.Set("grade", g)
	}
	rep.Gate = rep.Exact
	if r.Gate != nil && r.Gate.Value != nil {
		var err error
		if rep.Gate, err = gateValue(r.Gate.Value, sc); err != nil {
			return &eval.Error{Formula: "gate value", Program: r.Gate.Value, Err: err}
		}
	}
	for _, rb := range r.Surface.Reports {
		fields, ferr := reportFields(rb, sc, math.MaxInt)
		if ferr != nil {
			return ferr
		}
		rep.Sections = append(rep.Sections, report.Field{Name: rb.Name, Value: fields})
	}
	return nil
}

// sizeWith is eval.ValueSize(m) for a map whose member key, when it has
// one, is known to have the bound size (a tool's answers, bounded as the
// tool was finished): the map's length, and each key's and member's, the
// largest; that member is not walked again.
func sizeWith(m map[string]any, key string, size uint64) uint64 {
	n := uint64(len(m))
	for k, v := range m {
		s := size
		if k != key {
			s = eval.ValueSize(v)
		}
		n = max(n, uint64(len(k)), s)
	}
	return n
}

// outsideScale is the error of a score (a tool's or the surface's,
// shown as shown) outside r's scale, nil when r has none or the score
// lies in it. A score outside the rubric's own scale is a broken
// formula, not a grade: no band and no threshold means anything there.
// When r sets its parent's weights to other numbers, the error names
// them where r sets them: the parent's formulas were written for its
// own.
func outsideScale(r *rubric.Rubric, what string, score num.Num, shown json.Number) error {
	sc := r.Scale
	if sc == nil || score.Cmp(sc.Min) >= 0 && score.Cmp(sc.Max) <= 0 {
		return nil
	}
	msg := fmt.Sprintf("%s %s is outside the rubric's scale %s to %s: ", what, shown, sc.Min, sc.Max)
	if note := r.OverridesNote(); note != "" {
		msg += note + ", or fix the formula"
	} else {
		msg += "fix the formula"
	}
	return errors.New(msg + ", or the scale block if the rubric means scores there")
}

// gateValue evaluates a gate block's value: an exact number, or nil when
// the formula yields null.
func gateValue(p *lang.Program, sc *eval.Scope) (*string, error) {
	v, err := sc.Eval(p)
	if err != nil {
		return nil, err
	}
	if v.Type() == types.NullType {
		return nil, nil
	}
	n, err := lang.ToNum(v)
	if err != nil {
		return nil, err
	}
	e := n.Exact()
	return &e, nil
}

func rounded(n num.Num, digits int) json.Number {
	return json.Number(n.Decimal(digits))
}

// extraIssues evaluates a tool's issues formula: a list of maps, each
// with a check name and a message (and optionally params, points, gain
// and severity); titles are the titles the rubric gives their checks.
func extraIssues(p *lang.Program, titles map[string]string, sc *eval.Scope) ([]report.Issue, error) {
	v, err := sc.Eval(p)
	if err != nil {
		return nil, err
	}
	n, err := lang.Native(v)
	if err != nil {
		return nil, err
	}
	list, ok := n.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of issues, got %T", n)
	}
	out := make([]report.Issue, 0, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		check, _ := m["check"].(string)
		msg, _ := m["message"].(string)
		if !ok || check == "" || msg == "" {
			return nil, fmt.Errorf("issue %d: want a map with a check and a message", i)
		}
		is := report.Issue{Check: check, Title: titles[check], Message: msg, Params: []string{}, Points: "0"}
		if ps, ok := m["params"].([]any); ok {
			for _, p := range ps {
				is.Params = append(is.Params, fmt.Sprint(p))
			}
		}
		if pts, ok := m["points"]; ok {
			pv, err := lang.ToNum(lang.Adapter.NativeToValue(pts))
			if err != nil {
				return nil, fmt.Errorf("issue %d: points: %w", i, err)
			}
			is.Points = pv.Exact()
		}
		if err := formulaGain(m, &is); err != nil {
			return nil, fmt.Errorf("issue %d: %w", i, err)
		}
		if sev, ok := m["severity"]; ok && sev != nil {
			if is.Severity, _ = sev.(string); !report.ValidSeverity(is.Severity) {
				return nil, fmt.Errorf("issue %d: severity %v is none of %s", i, sev, strings.Join(report.Severities, ", "))
			}
		}
		out = append(out, is)
	}
	return out, nil
}

// reportFields evaluates a report block's values as JSON-ready values:
// exact numbers as JSON numbers in their shortest exact decimal form. The
// values from the late-th on are left null (see ToolEarly).
func reportFields(rb *rubric.Report, sc *eval.Scope, late int) (report.Fields, *eval.Error) {
	out := make(report.Fields, 0, len(rb.Fields))
	for i, f := range rb.Fields {
		if i >= late {
			out = append(out, report.Field{Name: f.Name})
			continue
		}
		b, err := fieldJSON(f, sc)
		if err != nil {
			return nil, err
		}
		out = append(out, report.Field{Name: f.Name, Value: b})
	}
	return out, nil
}

// fieldJSON evaluates a report value as its JSON.
func fieldJSON(f *rubric.Metric, sc *eval.Scope) (json.RawMessage, *eval.Error) {
	v, err := sc.Eval(f.Value)
	if err != nil {
		return nil, &eval.Error{Formula: fmt.Sprintf("report value %q", f.Name), Program: f.Value, Err: err}
	}
	b, err := lang.CanonicalJSON(v)
	if err != nil {
		return nil, &eval.Error{Formula: fmt.Sprintf("report value %q", f.Name), Program: f.Value, Err: err}
	}
	return json.RawMessage(b), nil
}
