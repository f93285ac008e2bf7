// Package explain shows how a report's scores follow from its
// observations: it scores the report's embedded surface again from the
// answers the report recorded, tracing each formula on the way, and walks
// a value down to its inputs, each computation with the values it saw.
//
// Nothing here knows a rubric's shape: what a formula reads comes from
// its syntax tree, and what it computed from its trace. A report that
// does not agree with itself (a recorded value its observations do not
// give, a damaged exact value) is said to be so, never presented as
// genuine.
package explain

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/score/eval"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/nearest"
)

// Request says what to explain: one tool's score, one surface metric,
// or (neither set) the overall score.
type Request struct {
	Tool   string
	Metric string
}

// NewRequest is the request of rubric explain's --tool, --metric and
// --category, the last two one flag under two names (Gradable calls its
// surface scores categories): naming two metrics is refused, and a tool
// wins over a metric.
func NewRequest(tool, metric, category string) (Request, error) {
	if metric != "" && category != "" && metric != category {
		return Request{}, fmt.Errorf("--metric %q and --category %q name two metrics (one may come from RUBRIC_METRIC or RUBRIC_CATEGORY): give one", metric, category)
	}
	if tool != "" {
		return Request{Tool: tool}, nil
	}
	return Request{Metric: cmp.Or(metric, category)}, nil
}

// UnknownError is a request for a tool the report does not hold, or a
// surface metric the rubric does not declare. Its message speaks of
// rubric explain's flags; a front-end that takes other arguments words
// it with its own Words.
type UnknownError struct {
	Kind   string   // "tool" or "metric"
	Name   string   // the tool or metric asked for
	Rubric string   // the rubric's name
	Known  []string // the report's tools, or the rubric's surface metrics
	// Unscored, for a tool the report lists as left unscored (its
	// rubric's min_scored), is why: there is no score of it to explain.
	Unscored string
}

// Words are how a front-end picks what to explain, for the messages of
// an UnknownError.
type Words struct {
	Overall string // how the overall score is picked: "give neither --metric nor --category"
	Tool    string // how a tool's score is picked: "--tool"
	Lister  string // what lists a report's tools: "rubric score --max-rows 0"
}

// listedTools is how many tools a report may have for the message about
// a tool it does not hold to name them all.
const listedTools = 12

// CLI are rubric explain's words.
var CLI = Words{Overall: "give neither --metric nor --category", Tool: "--tool", Lister: "rubric score --max-rows 0"}

// Error words e for the command line.
func (e *UnknownError) Error() string { return e.Worded(CLI) }

// Worded is e's message in a front-end's words.
func (e *UnknownError) Worded(w Words) string {
	if e.Kind == "tool" {
		switch {
		case e.Unscored != "":
			return fmt.Sprintf("the tool %q was left unscored, so there is no score of it to explain: %s", printable(e.Name), e.Unscored)
		case len(e.Known) == 0:
			return fmt.Sprintf("no tool %q in the report: it has no tools, so explain its overall score (%s)", printable(e.Name), w.Overall)
		case len(e.Known) <= listedTools:
			// The names are the server's: written printable, as the
			// name asked for is.
			names := make([]string, len(e.Known))
			for i, n := range e.Known {
				names[i] = printable(n)
			}
			return fmt.Sprintf("no tool %q in the report%s; its tools are: %s", printable(e.Name), didYouMean(e.Name, e.Known), strings.Join(names, ", "))
		}
		return fmt.Sprintf("no tool %q in the report%s (%s; %s lists them all)", printable(e.Name), didYouMean(e.Name, e.Known), report.Plural(len(e.Known), "tool"), w.Lister)
	}
	if len(e.Known) == 0 {
		return fmt.Sprintf("the rubric %s has no surface metric %q: it declares none, so explain its overall score (%s) or a tool's (%s)", e.Rubric, printable(e.Name), w.Overall, w.Tool)
	}
	return fmt.Sprintf("the rubric %s has no surface metric %q%s; its metrics are: %s", e.Rubric, printable(e.Name), didYouMean(e.Name, e.Known), strings.Join(e.Known, ", "))
}

// DisagreeError is a report whose recorded values its own observations
// do not give: it was edited by hand, or damaged.
type DisagreeError struct {
	Problems []string
}

// Error lists what the report contradicts itself on and says to score
// the server again.
func (e *DisagreeError) Error() string {
	return fmt.Sprintf("the report does not agree with itself (%s): it was edited by hand or damaged, so its recorded values are not to be trusted; score the server again", strings.Join(e.Problems, "; "))
}

// Check scores rep again from its own observations with r, the rubric it
// was scored with, as Write does, and returns a *DisagreeError when a
// value it records is not what its observations give: rescore checks so
// the report whose old scores it shows. Nothing is written.
func Check(ctx context.Context, r *rubric.Rubric, rep *report.Report) error {
	x, err := newRun(ctx, r, rep, Request{})
	if err != nil {
		return err
	}
	if len(x.problems) > 0 {
		return &DisagreeError{Problems: x.problems}
	}
	return nil
}

// maxItems is how many items of a comprehension an explanation shows.
const maxItems = 30

// Write explains what req names in rep, scored with r, to w. It returns
// a *DisagreeError, after the explanation, when the report does not
// agree with itself.
func Write(ctx context.Context, w io.Writer, r *rubric.Rubric, rep *report.Report, req Request) error {
	x, err := newRun(ctx, r, rep, req)
	if err != nil {
		return err
	}
	switch {
	case req.Tool != "":
		err = x.tool(w)
	default:
		err = x.surface(w)
	}
	if err != nil {
		return err
	}
	if len(x.problems) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "The report does not agree with itself; the arithmetic above is that of its observations, not its recorded values:")
		for _, p := range x.problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
		return &DisagreeError{Problems: x.problems}
	}
	return nil
}

// run is one explanation: the report, the same report scored again from
// its observations, and the traces of the formulas it shows.
type run struct {
	r        *rubric.Rubric
	rep, re  *report.Report
	req      Request
	names    map[*lang.Program]string // the level's formulas, as score or metrics.NAME
	mu       sync.Mutex
	traced   map[string]*formula
	problems []string
	// shown is where a long value read was first written whole, by the
	// read's ref and the value's text: a later formula reading the same
	// value points there rather than writing it again.
	shown map[[2]string]string
	// limit is the cost limit a traced formula runs under: the most the
	// run gives a formula of the level explained (see eval.OverTool and
	// eval.OverSurface, never below lang.CostLimit), so that a trace
	// stops where scoring would, not before it on a long definition.
	limit uint64
}

// formula is one traced evaluation of a rubric formula.
type formula struct {
	name  string
	prog  *lang.Program
	trace *lang.Trace
	err   error
	reads []read
}

// read is one of a formula's reads with its value in the evaluation.
type read struct {
	ref lang.Ref
	val any // a ref.Val, or nil when the member is missing
}

// didYouMean is " (did you mean NAME?)" for the name of names nearest
// to the misspelt name, or "" when none is near.
func didYouMean(name string, names []string) string {
	if near := nearest.Key(name, names); near != "" {
		return fmt.Sprintf(" (did you mean %q?)", near) // %q writes hidden characters out
	}
	return ""
}

func newRun(ctx context.Context, r *rubric.Rubric, rep *report.Report, req Request) (*run, error) {
	x := &run{r: r, rep: rep, req: req, names: map[*lang.Program]string{}, traced: map[string]*formula{}}
	level := r.Surface
	if req.Tool != "" {
		level = r.Tool
		if name, ok := shownName(rep, req.Tool); ok {
			x.req.Tool = name
		} else if findTool(rep, req.Tool) == nil {
			var names []string
			for _, t := range rep.Tools {
				names = append(names, t.Name)
			}
			e := &UnknownError{Kind: "tool", Name: req.Tool, Rubric: r.Name, Known: names}
			for _, t := range rep.UnscoredTools {
				if t.Name == req.Tool {
					e.Unscored = t.Reason
				}
			}
			return nil, e
		}
	}
	for _, m := range level.Metrics {
		x.names[m.Value] = "metrics." + m.Name
	}
	if level.Score != nil {
		x.names[level.Score] = "score"
	}
	if req.Metric != "" {
		if _, ok := x.formulaOf("metrics." + req.Metric); !ok {
			var names []string
			for _, m := range r.Surface.Metrics {
				names = append(names, m.Name)
			}
			return nil, &UnknownError{Kind: "metric", Name: req.Metric, Rubric: r.Name, Known: names}
		}
	}
	s, err := surface.Parse("the report's embedded surface", rep.Embedded)
	if err != nil {
		return nil, fmt.Errorf("cannot explain the report: its embedded surface is damaged (%v): it was edited or truncated; score the server again", err)
	}
	if h := s.Hash(); h != rep.Surface.Hash {
		x.problems = append(x.problems, fmt.Sprintf("the embedded surface hashes to %s, not the recorded %s", h, printable(rep.Surface.Hash)))
	}
	var bytes uint64
	for _, t := range s.Tools {
		bytes += eval.SizeOf(t)
	}
	// A tool's formula that reads the surface may do as much as the
	// surface is long, which is at least as much as its own tool allows.
	x.limit = eval.OverTool(bytes)
	if req.Tool == "" {
		x.limit = eval.OverSurface(len(s.Tools), bytes)
	}
	opts := score.Options{Target: rep.Target, Workers: 1, Observe: x.observe}
	if len(r.Questions) > 0 {
		opts.Asker = ask.FromReport(rep)
	}
	x.re, err = score.Run(ctx, r, s, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var inv *score.InvalidError
		if errors.As(err, &inv) {
			return nil, &DisagreeError{Problems: []string{"the rubric finds its observations invalid (" + inv.Reason + "), yet the report was written"}}
		}
		return nil, &DisagreeError{Problems: []string{"its observations cannot be scored again: " + err.Error()}}
	}
	x.compare()
	return x, nil
}

// observe traces the formulas of the level explained as the run
// evaluates them.
func (x *run) observe(tool string, p *lang.Program, vars lang.Vars) {
	if tool != x.req.Tool {
		return
	}
	name, ok := x.names[p]
	if !ok {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, done := x.traced[name]; done {
		return
	}
	f := &formula{name: name, prog: p}
	q := p
	if lim, err := p.WithCostLimit(x.limit); err == nil {
		q = lim
	}
	f.trace, f.err = q.Trace(vars)
	for _, r := range p.Refs() {
		v, ok := r.Value(p.In(vars))
		rd := read{ref: r}
		if ok {
			rd.val = v
		}
		f.reads = append(f.reads, rd)
	}
	x.traced[name] = f
}

// formulaOf is the level's formula of a name (score, metrics.NAME,
// signals.NAME).
func (x *run) formulaOf(name string) (*lang.Program, bool) {
	for p, n := range x.names {
		if n == name {
			return p, true
		}
	}
	return nil, false
}

func findTool(rep *report.Report, name string) *report.Tool {
	if rep == nil {
		return nil
	}
	for i := range rep.Tools {
		if rep.Tools[i].Name == name {
			return &rep.Tools[i]
		}
	}
	return nil
}

// shownName is the name of the report's tool that the summaries write as
// shown, its invisible and control characters escaped ("rd\u202efile"
// for a name holding a right-to-left override), when no tool has the name
// shown itself and exactly one is written so: the name a reviewer copies
// from the table can be explained.
func shownName(rep *report.Report, shown string) (string, bool) {
	if rep == nil || findTool(rep, shown) != nil {
		return "", false
	}
	found := ""
	for _, t := range rep.Tools {
		if t.Name != shown && report.ShownName(t.Name) == shown {
			if found != "" {
				return "", false
			}
			found = t.Name
		}
	}
	return found, found != ""
}

// compare sets down every recorded value the recomputed report does not
// give: the explained tool's, or the surface's and every tool's.
func (x *run) compare() {
	tools := x.rep.Tools
	if x.req.Tool != "" {
		tools = []report.Tool{*findTool(x.rep, x.req.Tool)}
	}
	for _, t := range tools {
		rt := findTool(x.re, t.Name)
		what := fmt.Sprintf("tool %q", printable(t.Name))
		if rt == nil {
			x.problems = append(x.problems, what+" is not on the embedded surface")
			continue
		}
		x.exact(what+" score", t.Exact, rt.Exact)
		x.same(what+" grade", t.Grade, rt.Grade)
		x.sameNumber(what+" rounded score", string(t.Score), string(rt.Score))
		x.metrics(what+" metric", t.Metrics, rt.Metrics)
	}
	if x.req.Tool != "" {
		return
	}
	if len(x.rep.Tools) != len(x.re.Tools) {
		x.problems = append(x.problems, fmt.Sprintf("the report lists %d tools, its embedded surface has %d", len(x.rep.Tools), len(x.re.Tools)))
	}
	x.exact("the overall score", deref(x.rep.Exact), deref(x.re.Exact))
	x.same("the overall grade", deref(x.rep.Grade), deref(x.re.Grade))
	x.sameNumber("the overall rounded score", numText(x.rep.Score), numText(x.re.Score))
	x.metrics("surface metric", x.rep.Metrics, x.re.Metrics)
}

func (x *run) metrics(what string, rec, re []report.Metric) {
	for _, m := range re {
		if m.Exact == "" {
			continue
		}
		var got *report.Metric
		for i := range rec {
			if rec[i].Name == m.Name {
				got = &rec[i]
			}
		}
		if got == nil {
			x.problems = append(x.problems, fmt.Sprintf("%s %s is missing", what, m.Name))
			continue
		}
		x.exact(what+" "+m.Name, got.Exact, m.Exact)
	}
}

// exact compares a recorded exact value with the recomputed one. A
// recorded value is written whole up to maxValue characters, as any
// value is: it is what the reader sets against the recomputed one.
func (x *run) exact(what, rec, re string) {
	if rec == re {
		return
	}
	if rec == "" || re == "" {
		x.problems = append(x.problems, fmt.Sprintf("%s: recorded %s, its observations give %s", what, orNone(rec), orNone(re)))
		return
	}
	n, err := num.Parse(rec)
	if err != nil {
		x.problems = append(x.problems, fmt.Sprintf("%s: the recorded exact value %q is not a number; its observations give %s", what, bounded(printable(rec), maxValue), decimal(num.MustParse(re))))
		return
	}
	if m := num.MustParse(re); n.Cmp(m) != 0 {
		x.problems = append(x.problems, fmt.Sprintf("%s: recorded %s, its observations give %s", what, decimal(n), decimal(m)))
	}
}

// sameNumber compares a recorded rounded score with the recomputed one
// by value, so that a report a JSON tool wrote again ("80.0" as "80", as
// jq does) still agrees with itself.
func (x *run) sameNumber(what, rec, re string) {
	if rec != re {
		if a, err := num.Parse(rec); err == nil {
			if b, err := num.Parse(re); err == nil && a.Cmp(b) == 0 {
				return
			}
		}
	}
	x.same(what, rec, re)
}

func (x *run) same(what, rec, re string) {
	if rec != re {
		x.problems = append(x.problems, fmt.Sprintf("%s: recorded %s, its observations give %s", what, orNone(bounded(printable(rec), maxValue)), orNone(re)))
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func numText(n *json.Number) string {
	if n == nil {
		return ""
	}
	return n.String()
}
