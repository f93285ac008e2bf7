// Package score runs a rubric's static checks and formulas over a surface
// and builds the report.
//
// Scoring is a pure function of the rubric and the surface: checks read the
// definitions, formulas read the checks' results, nothing else. Tools are
// scored in parallel; the result does not depend on the order.
package score

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
)

// Options tune a run.
type Options struct {
	// Target is what the user asked to score, recorded in the report.
	Target string
	// Version is the version of rubric recorded in the report; "dev" when
	// empty.
	Version string
	// Workers bounds parallelism; 0 means GOMAXPROCS.
	Workers int
	// Asker answers the rubric's questions; a rubric that asks questions
	// cannot be scored without one.
	Asker Asker
	// Observe, when set, is called before each tool and surface formula
	// is evaluated, with the tool's name ("" for the surface) and the
	// variables the formula sees, so that it can be traced (explain). It
	// is called from several goroutines unless Workers is 1, and must not
	// keep vars past the call.
	Observe func(tool string, p *lang.Program, vars lang.Vars)
}

// Asker answers questions: a judge behind the cache (package ask), or the
// answers a report recorded.
type Asker interface {
	Ask(ctx context.Context, reqs []ask.Request) ([]ask.Observation, error)
}

// InvalidError is a rubric's verdict that the observations cannot be
// scored (its surface invalid formula gave a reason): the run produces no
// report.
type InvalidError struct {
	Reason string
}

func (e *InvalidError) Error() string {
	return "the rubric cannot score these observations: " + e.Reason
}

// RubricOf is a report's record of the rubric r: what a report, a gate
// report or a failure record says it was scored with.
func RubricOf(r *rubric.Rubric) report.Rubric {
	return report.Rubric{Name: r.Name, Version: r.Version, Digest: r.Digest, Title: r.Title, File: r.File, Round: r.Round}
}

// Error is a formula that failed while scoring: the run cannot produce a
// whole report.
type Error struct {
	Tool    string // empty for the surface level
	Formula string // such as check "typed_params" pass
	Err     error
}

// Error names the tool (or the surface), the formula and what went wrong.
func (e *Error) Error() string {
	where := "the surface"
	if e.Tool != "" {
		where = fmt.Sprintf("tool %q", e.Tool)
	}
	return fmt.Sprintf("scoring %s: %s: %v", where, e.Formula, e.Err)
}

// Unwrap returns the formula's own error.
func (e *Error) Unwrap() error { return e.Err }

// Run scores s with r.
func Run(ctx context.Context, r *rubric.Rubric, s *surface.Surface, opt Options) (*report.Report, error) {
	start := time.Now()
	version := opt.Version
	if version == "" {
		version = "dev"
	}
	rep := &report.Report{
		ReportVersion: report.Version,
		Generator:     report.Generator{Name: "rubric", Version: version},
		Rubric:        RubricOf(r),
		Target:        opt.Target,
		Surface: report.Surface{
			Hash: s.Hash(), ToolCount: len(s.Tools), Format: s.Format, Source: s.Source, Server: s.Server,
		},
		Tools: make([]report.Tool, len(s.Tools)),
		// What the transport noticed comes first.
		Warnings: append([]string{}, s.Warnings...),
	}
	rep.Embed(s)
	if len(r.Questions) > 0 && opt.Asker == nil {
		return nil, fmt.Errorf("rubric %s asks a judge questions: choose a judge", r.Name)
	}
	results := make([]scored, len(s.Tools))
	states := make([]*toolState, len(s.Tools))
	consts := newCheckConsts(r)
	sv, err := newSurfaceValue(r, s)
	if err != nil {
		return nil, err
	}
	sv.observe = opt.Observe
	if err := forEach(ctx, len(s.Tools), opt.Workers, func(i int) error {
		var err error
		rep.Tools[i], states[i], err = checkTool(ctx, r, consts, sv, s.Tools[i])
		return err
	}); err != nil {
		return nil, err
	}
	surfaceAnswers, usage, err := askAll(ctx, r, opt.Asker, sv, rep, states)
	if err != nil {
		return nil, err
	}
	if err := forEach(ctx, len(s.Tools), opt.Workers, func(i int) error {
		var err error
		results[i], err = finishTool(r, states[i], &rep.Tools[i])
		states[i] = nil
		return err
	}); err != nil {
		return nil, err
	}
	if err := surfaceLevel(ctx, r, rep, results, sv, surfaceAnswers, usage); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	if err := fixesOf(r, rep); err != nil {
		return nil, err
	}
	rep.Complete = true
	rep.Timings.ScoreMS = float64(time.Since(start).Microseconds()) / 1000
	return rep, nil
}

// forEach runs fn(0..n-1) on up to workers goroutines and returns the error
// of the lowest index that failed, so that the error is the same whatever
// the scheduling.
func forEach(ctx context.Context, n, workers int, fn func(int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	const batch = 64
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, max(n, 1)) {
		wg.Go(func() {
			for {
				lo := int(next.Add(batch)) - batch
				if lo >= n || ctx.Err() != nil {
					return
				}
				for k := lo; k < min(lo+batch, n) && ctx.Err() == nil; k++ {
					errs[k] = fn(k)
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// scope is what a formula is evaluated in: its variables, and a bound on
// the length of any string, list or map among them, which lets formulas
// whose worst case fits the cost limit skip cost tracking.
type scope struct {
	vars lang.Vars
	size uint64
	// surface bounds the surface's values and signals, for the formulas
	// that read them.
	surface uint64
	// limit, when not 0, is the cost limit formulas run under here in
	// place of their own: formulas that see every tool get a budget that
	// grows with the number of tools (see overSurface).
	limit uint64
	// observe and tool are Options.Observe and the tool the scope is of.
	observe func(string, *lang.Program, lang.Vars)
	tool    string
	// ctx, when set, is checked before each formula, so that a run over
	// many tools and formulas ends promptly when it is interrupted.
	ctx context.Context
}

func (s *scope) eval(p *lang.Program) (ref.Val, error) {
	if s.observe != nil {
		s.observe(s.tool, p, s.vars)
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		return nil, s.ctx.Err()
	}
	size := s.size
	if s.surface > size && (p.Uses("surface") || p.Uses("surface_signals")) {
		size = s.surface
	}
	if s.limit > 0 {
		var err error
		if p, err = p.WithCostLimit(s.limit); err != nil {
			return nil, err
		}
	}
	return p.EvalSized(s.vars, size)
}

// overSurface is the cost limit of formulas that see all of n tools: the
// surface's own, and those of questions about the surface and its items.
func overSurface(n int) uint64 {
	return uint64(lang.CostLimit + lang.CostPerItem*n)
}

// unbounded is the size of data no bound is known for.
const unbounded = math.MaxUint64

// sizeOf bounds the values formulas see of a tool: none is longer than
// its canonical JSON. That holds for what params() inlines through $refs
// too: inlining copies strings and lists as they are, and a map it merges
// (a $ref's target under the keys beside the $ref) holds keys that each
// occur in some object of the definition, and each takes more than one
// byte of its canonical JSON. So a $ref costs no bound, and formulas over
// such tools stay on the untracked path when their estimate allows.
func sizeOf(t surface.Tool) uint64 {
	return uint64(len(t.Canonical))
}

// checkKeys are the fields of a check's results as tool formulas see them.
var checkKeys = []string{"name", "points", "credit", "passed", "total", "skipped"}

// checkConsts are the parts of the checks' results that every tool shares,
// made into formula values once a run rather than once a tool.
type checkConsts struct {
	names        []string  // the keys of the check map, in check order
	name, points []ref.Val // each check's name and points
}

func newCheckConsts(r *rubric.Rubric) checkConsts {
	k := checkConsts{
		names:  make([]string, len(r.Checks)),
		name:   make([]ref.Val, len(r.Checks)),
		points: make([]ref.Val, len(r.Checks)),
	}
	for i, c := range r.Checks {
		k.names[i], k.name[i], k.points[i] = c.Name, types.String(c.Name), lang.Num{N: c.Points}
	}
	return k
}

// scored is what the surface's formulas need of a scored tool.
type scored struct {
	score   num.Num
	metrics map[string]any // the tool's metrics as plain values
	answers map[string]any // the tool's answers, by question
}

// toolState is a tool between its checks and its score: the scope its
// formulas are evaluated in, and its answers once asked.
type toolState struct {
	name    string
	sc      *scope
	answers map[string]any
}

// checkTool runs every check of r on one tool and computes its signals.
func checkTool(ctx context.Context, r *rubric.Rubric, k checkConsts, sv *surfaceValue, t surface.Tool) (report.Tool, *toolState, error) {
	out := report.Tool{Name: t.Name, Hash: t.Hash, Checks: make([]report.Check, 0, len(r.Checks)), Issues: []report.Issue{}}
	toolVal := lang.ToolValue(t.Def)
	size := sizeOf(t)
	checkScope := &scope{vars: lang.Vars{"tool": toolVal, "item": nil}, size: size, ctx: ctx}
	checkVals := make([]ref.Val, 0, len(r.Checks))
	fields := make([]ref.Val, 0, len(checkKeys)*len(r.Checks)) // every check's record, one after the other
	stopped := ""
	for i, c := range r.Checks {
		var res report.Check
		var credit num.Num
		if stopped != "" {
			res = report.Check{Name: c.Name, Title: c.Title, Points: c.Points.Exact(), Credit: "0", Skipped: true, Items: c.Each != nil}
		} else {
			var err error
			res, credit, err = runCheck(c, checkScope)
			if err != nil {
				return out, nil, &Error{Tool: t.Name, Formula: fmt.Sprintf("check %q", c.Name), Err: err}
			}
			if credit.Cmp(num.One) < 0 {
				out.Issues = append(out.Issues, report.Issue{
					Check: c.Name, Message: issueText(c.Issue, res.Failed), Params: nonNil(res.Failed), Points: c.Points.Exact(),
				})
				if c.Stop {
					stopped = c.Name
				}
			}
		}
		out.Checks = append(out.Checks, res)
		start := len(fields)
		fields = append(fields, k.name[i], k.points[i], lang.Num{N: credit}, types.Int(res.Passed), types.Int(res.Total), types.Bool(res.Skipped))
		checkVals = append(checkVals, lang.RecordOf(checkKeys, fields[start:len(fields):len(fields)]))
	}
	sc := &scope{vars: lang.Vars{
		"tool":            toolVal,
		"checks":          types.NewRefValList(lang.Adapter, checkVals),
		"check":           lang.RecordOf(k.names, checkVals),
		"surface":         sv.val,
		"surface_signals": sv.signals,
		"signals":         map[string]any{},
		"answers":         map[string]any{},
		"metrics":         map[string]any{},
		"grades":          sv.grades,
	}, size: size, surface: sv.size, observe: sv.observe, tool: t.Name, ctx: ctx}
	if n := uint64(len(r.Checks) + len(r.Tool.Metrics) + len(r.Tool.Signals)); sc.size < n {
		sc.size = n
	}
	st := &toolState{name: t.Name, sc: sc}
	if len(r.Tool.Signals) > 0 {
		signals, _, serr := evalNamed(r.Tool.Signals, sc, "signals", "signal")
		if serr != nil {
			serr.Tool = t.Name
			return out, nil, serr
		}
		sc.vars["signals"] = signals
	}
	return out, st, nil
}

// finishTool computes a tool's metrics, score, issues and report values
// from its checks, signals and answers.
func finishTool(r *rubric.Rubric, st *toolState, out *report.Tool) (scored, error) {
	sc := st.sc
	if st.answers != nil {
		sc.vars["answers"] = st.answers
		sc.size = max(sc.size, valueSize(st.answers))
	}
	metrics, mvals, merr := evalMetrics(r.Tool.Metrics, sc)
	if merr != nil {
		merr.Tool = st.name
		return scored{}, merr
	}
	out.Metrics = mvals
	sc.vars["metrics"] = metrics
	score, err := evalNum(r.Tool.Score, sc)
	if err != nil {
		return scored{}, &Error{Tool: st.name, Formula: "tool score", Err: err}
	}
	out.Score = rounded(score, r.Round)
	out.Exact = score.Exact()
	out.Grade = r.GradeOf(score)
	if err := checkGains(r, sc, out, score); err != nil {
		return scored{}, &Error{Tool: st.name, Formula: "fixes gain", Err: err}
	}
	if r.Tool.Issues != nil {
		issues, err := extraIssues(r.Tool.Issues, sc)
		if err != nil {
			return scored{}, &Error{Tool: st.name, Formula: "tool issues", Err: err}
		}
		out.Issues = append(out.Issues, issues...)
	}
	if len(r.Tool.Reports) > 0 {
		sc.vars["score"], sc.vars["grade"] = score, out.Grade
		for _, rb := range r.Tool.Reports {
			fields, err := reportFields(rb, sc)
			if err != nil {
				err.Tool = st.name
				return scored{}, err
			}
			out.Fields = append(out.Fields, fields...)
		}
	}
	return scored{score: score, metrics: metrics, answers: st.answers}, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func issueText(tmpl string, items []string) string {
	return strings.ReplaceAll(tmpl, "{items}", strings.Join(items, ", "))
}

// runCheck runs one check in sc, the tool's scope shared by its checks.
func runCheck(c *rubric.Check, sc *scope) (report.Check, num.Num, error) {
	res := report.Check{Name: c.Name, Title: c.Title, Points: c.Points.Exact(), Items: c.Each != nil}
	sc.vars["item"] = nil // not the last item of the check before
	if c.Each == nil {
		ok, err := evalBool(c.Pass, sc)
		if err != nil {
			return res, num.Num{}, fmt.Errorf("pass: %w", err)
		}
		credit := num.Zero
		if ok {
			credit = num.One
		}
		res.Credit = credit.Exact()
		return res, credit, nil
	}
	items, err := evalList(c.Each, sc)
	if err != nil {
		return res, num.Num{}, fmt.Errorf("each: %w", err)
	}
	// An item may be a value each built, longer than anything in the
	// definition, so the formulas that see one alone are always tracked.
	sc = &scope{vars: sc.vars, size: unbounded, ctx: sc.ctx}
	for i, item := range items {
		sc.vars["item"] = item
		ok, err := evalBool(c.Pass, sc)
		if err != nil {
			return res, num.Num{}, fmt.Errorf("pass (item %d): %w", i, err)
		}
		if ok {
			res.Passed++
			continue
		}
		label, err := itemLabel(c, item, sc)
		if err != nil {
			return res, num.Num{}, err
		}
		res.Failed = append(res.Failed, label)
	}
	res.Total = len(items)
	return res, itemCredit(&res), nil
}

// itemCredit is the credit of a check over items: the fraction that
// passed, full when there were none. It also records it in res.
func itemCredit(res *report.Check) num.Num {
	credit := num.One
	if res.Total > 0 {
		credit = num.Frac(int64(res.Passed), int64(res.Total))
	}
	res.Credit = credit.Exact()
	return credit
}

func itemLabel(c *rubric.Check, item ref.Val, sc *scope) (string, error) {
	if c.Label != nil {
		s, err := evalString(c.Label, sc)
		if err != nil {
			return "", fmt.Errorf("label: %w", err)
		}
		return s, nil
	}
	if m, ok := item.(traits.Mapper); ok {
		if name, found := m.Find(types.String("name")); found {
			if s, ok := name.(types.String); ok {
				return string(s), nil
			}
		}
	}
	return fmt.Sprint(item.Value()), nil
}

// evalString evaluates a formula that must yield a string.
func evalString(p *lang.Program, sc *scope) (string, error) {
	v, err := sc.eval(p)
	if err != nil {
		return "", err
	}
	s, ok := v.(types.String)
	if !ok {
		return "", fmt.Errorf("want a string, got %s", v.Type().TypeName())
	}
	return string(s), nil
}

func evalBool(p *lang.Program, sc *scope) (bool, error) {
	v, err := sc.eval(p)
	if err != nil {
		return false, err
	}
	b, ok := v.(types.Bool)
	if !ok {
		return false, fmt.Errorf("want true or false, got %s", v.Type().TypeName())
	}
	return bool(b), nil
}

func evalNum(p *lang.Program, sc *scope) (num.Num, error) {
	v, err := sc.eval(p)
	if err != nil {
		return num.Num{}, err
	}
	return lang.ToNum(v)
}

// evalMetrics evaluates metrics in order; each sees the ones before it.
func evalMetrics(ms []*rubric.Metric, sc *scope) (map[string]any, []report.Metric, *Error) {
	return evalNamed(ms, sc, "metrics", "metric")
}

// evalNamed evaluates named values in order, each seeing the ones before
// it as the variable group.
func evalNamed(ms []*rubric.Metric, sc *scope, group, what string) (map[string]any, []report.Metric, *Error) {
	values := map[string]any{}
	var out []report.Metric
	for _, m := range ms {
		sc.vars[group] = values
		v, err := sc.eval(m.Value)
		if err != nil {
			return nil, nil, &Error{Formula: fmt.Sprintf("%s %q", what, m.Name), Err: err}
		}
		nv, err := lang.Native(v)
		if err != nil {
			return nil, nil, &Error{Formula: fmt.Sprintf("%s %q", what, m.Name), Err: err}
		}
		values[m.Name] = nv
		// A metric is data for the formulas after it: a list it built may
		// be longer than anything in the definition.
		sc.size = max(sc.size, valueSize(nv))
		rm := report.Metric{Name: m.Name, Value: nv}
		if n, ok := nv.(num.Num); ok {
			rm.Value = decimalNumber(n)
			rm.Exact = n.Exact()
		}
		out = append(out, rm)
	}
	return values, out, nil
}

func surfaceLevel(ctx context.Context, r *rubric.Rubric, rep *report.Report, results []scored, sv *surfaceValue, answers, usage map[string]any) error {
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
		m := map[string]any{"name": t.Name, "score": res.score, "grade": t.Grade}
		if res.answers != nil {
			m["answers"] = res.answers
		}
		for k, v := range res.metrics {
			if _, clash := m[k]; !clash {
				m[k] = v
			}
		}
		tools[i] = m
		size = max(size, valueSize(m))
	}
	// Answers are data a judge sent: their length is known only now.
	size = max(size, valueSize(answers), valueSize(usage))
	sc := &scope{vars: lang.Vars{"tools": tools, "surface": sv.val, "surface_signals": sv.signals, "answers": answers, "usage": usage, "grades": sv.grades},
		size: size, surface: sv.size, limit: overSurface(len(tools)), observe: sv.observe, ctx: ctx}
	metrics, mvals, merr := evalMetrics(r.Surface.Metrics, sc)
	if merr != nil {
		return merr
	}
	rep.Metrics = mvals
	sc.vars["metrics"] = metrics
	if r.Surface.Invalid != nil {
		why, err := sc.eval(r.Surface.Invalid)
		if err != nil {
			return &Error{Formula: "surface invalid", Err: err}
		}
		if s, ok := why.(types.String); ok {
			return &InvalidError{Reason: string(s)}
		}
		if why.Type() != types.NullType {
			return &Error{Formula: "surface invalid", Err: fmt.Errorf("want null or a string saying why, got %s", why.Type().TypeName())}
		}
	}
	if r.Surface.Warnings != nil {
		ws, err := sc.eval(r.Surface.Warnings)
		if err != nil {
			return &Error{Formula: "surface warnings", Err: err}
		}
		n, err := lang.Native(ws)
		if err != nil {
			return &Error{Formula: "surface warnings", Err: err}
		}
		for _, w := range n.([]any) {
			rep.Warnings = append(rep.Warnings, fmt.Sprint(w))
		}
	}
	v, err := sc.eval(r.Surface.Score)
	if err != nil {
		return &Error{Formula: "surface score", Err: err}
	}
	sc.vars["score"], sc.vars["grade"] = nil, nil
	if v.Type() == types.NullType {
		rep.NoScore = "the rubric computes no overall score for this surface (its surface score is null)"
		rep.Warnings = append(rep.Warnings, rep.NoScore)
	} else {
		score, err := lang.ToNum(v)
		if err != nil {
			return &Error{Formula: "surface score", Err: err}
		}
		s := rounded(score, r.Round)
		e := score.Exact()
		g := r.GradeOf(score)
		rep.Score, rep.Exact, rep.Grade = &s, &e, &g
		sc.vars["score"], sc.vars["grade"] = score, g
	}
	rep.Gate = rep.Exact
	if r.Gate != nil && r.Gate.Value != nil {
		var err error
		if rep.Gate, err = gateValue(r.Gate.Value, sc); err != nil {
			return &Error{Formula: "gate value", Err: err}
		}
	}
	for _, rb := range r.Surface.Reports {
		fields, ferr := reportFields(rb, sc)
		if ferr != nil {
			return ferr
		}
		rep.Sections = append(rep.Sections, report.Field{Name: rb.Name, Value: fields})
	}
	return nil
}

// gateValue evaluates a gate block's value: an exact number, or nil when
// the formula yields null.
func gateValue(p *lang.Program, sc *scope) (*string, error) {
	v, err := sc.eval(p)
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

// valueSize is the length of the longest string, list or map in v.
func valueSize(v any) uint64 {
	switch x := v.(type) {
	case string:
		return uint64(len(x))
	case []any:
		n := uint64(len(x))
		for _, e := range x {
			n = max(n, valueSize(e))
		}
		return n
	case map[string]any:
		n := uint64(len(x))
		for k, e := range x {
			n = max(n, uint64(len(k)), valueSize(e))
		}
		return n
	}
	return 0
}

func rounded(n num.Num, digits int) json.Number {
	return json.Number(n.Decimal(digits))
}

// decimalNumber writes an exact number as a JSON number: its shortest
// exact decimal, or 12 decimal digits for a fraction that has none (the
// exact value is kept beside it).
func decimalNumber(n num.Num) json.Number {
	if d := n.String(); !strings.Contains(d, "/") {
		return json.Number(d)
	}
	return json.Number(n.Decimal(12))
}
