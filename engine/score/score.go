// Package score runs a rubric's static checks and formulas over a surface
// and builds the report.
//
// Scoring is a pure function of the rubric and the surface: checks read the
// definitions, formulas read the checks' results, nothing else. Tools are
// scored in parallel; the result does not depend on the order.
//
// This package orchestrates a run; each step is a package of its own:
// eval (the scope formulas are evaluated in), check (static checks and
// signals), stage (putting the questions to a judge), assemble (metrics,
// scores, grades, issues, fixes and the report's values) and parallel
// (running a step over the tools on every core).
package score

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/assemble"
	"github.com/rubricmcp/rubric/engine/score/check"
	"github.com/rubricmcp/rubric/engine/score/eval"
	"github.com/rubricmcp/rubric/engine/score/parallel"
	"github.com/rubricmcp/rubric/engine/score/stage"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/words"
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
type Asker = stage.Asker

// InvalidError is a rubric's verdict that the observations cannot be
// scored (its surface invalid formula gave a reason): the run produces no
// report.
type InvalidError = assemble.InvalidError

// RubricOf is a report's record of the rubric r: what a report, a gate
// report or a failure record says it was scored with.
func RubricOf(r *rubric.Rubric) report.Rubric {
	return report.Rubric{Name: r.Name, Version: r.Version, Digest: r.Digest, Title: r.Title, File: r.File, Round: r.Round, Maxima: maximaOf(r)}
}

// maximaOf is what r's report blocks declare as their values' maxima,
// nil when none declares any.
func maximaOf(r *rubric.Rubric) *report.Maxima {
	var m report.Maxima
	for _, rb := range r.Tool.Reports {
		for _, b := range rb.Max {
			if m.Tool == nil {
				m.Tool = map[string]string{}
			}
			m.Tool[b.Name] = b.Max.Exact()
		}
	}
	for _, rb := range r.Surface.Reports {
		for _, b := range rb.Max {
			if m.Surface == nil {
				m.Surface = map[string]map[string]string{}
			}
			if m.Surface[rb.Name] == nil {
				m.Surface[rb.Name] = map[string]string{}
			}
			m.Surface[rb.Name][b.Name] = b.Max.Exact()
		}
	}
	if m.Tool == nil && m.Surface == nil {
		return nil
	}
	return &m
}

// Error is a formula that failed while scoring: the run cannot produce a
// whole report. It names the tool (empty for the surface level), the
// formula and what went wrong.
type Error = eval.Error

// Run scores s with r.
func Run(ctx context.Context, r *rubric.Rubric, s *surface.Surface, opt Options) (*report.Report, error) {
	start := time.Now()
	// The surface's hash (a sort of the names and a sha256 of every
	// definition: a twentieth of a large run's CPU) is computed beside
	// the tools' pass rather than before it, on one core.
	hash := make(chan string, 1)
	go func() { hash <- s.Hash() }()
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
			ToolCount: len(s.Tools), Format: s.Format, Source: s.Source, Server: s.Server,
		},
		Tools: make([]report.Tool, len(s.Tools)),
		// What the transport noticed comes first.
		Warnings: append([]string{}, s.Warnings...),
	}
	rep.Embed(s)
	if len(r.Questions) > 0 && opt.Asker == nil {
		return nil, fmt.Errorf("rubric %s asks a judge questions: choose a judge", r.Name)
	}
	results := make([]assemble.Scored, len(s.Tools))
	states := make([]*check.State, len(s.Tools))
	consts := check.NewConsts(r)
	sv, signals := check.NewSurfaceBeforeSignals(r, s, opt.Observe)
	if len(r.Questions) == 0 || len(r.Surface.Signals) == 0 || opt.Observe != nil || !check.ChecksBeforeSignals(r) {
		// Computed first when there are none, when the tools are
		// checked and scored in one pass (no questions), when the
		// formulas are traced, or when a tool's signals may read them.
		if err := signals(); err != nil {
			return nil, err
		}
		signals = nil
	}
	if len(r.Questions) == 0 {
		// Nothing is asked between a tool's checks and its score, so
		// each tool is scored as soon as it is checked, in one pass, and
		// its scope is let go at once instead of being kept for a second
		// pass (at 100,000 tools the scopes weigh about half a GB).
		if err := parallel.For(ctx, len(s.Tools), opt.Workers, func(i int) error {
			var st *check.State
			var err error
			if rep.Tools[i], st, err = check.Tool(ctx, r, consts, sv, sv.Tool(s, i)); err != nil {
				return err
			}
			results[i], err = assemble.Tool(r, st, &rep.Tools[i])
			return err
		}); err != nil {
			return nil, err
		}
		rep.Surface.Hash = <-hash
		_, usage, err := stage.Ask(ctx, r, opt.Asker, sv, rep, nil, nil, nil)
		if err != nil {
			return nil, err
		}
		return finish(ctx, r, rep, results, sv, map[string]any{}, usage, start)
	}
	// The tools are asked about while they are checked: each tool's
	// question once the tools up to it are (stage.Checked), so that the
	// judge answers the first tools while the host checks the others. A
	// check that fails wins over what asking returned, as when the
	// checks ran first.
	checked := stage.NewChecked(len(s.Tools))
	// Each tool is finished as its answer comes, while the others are
	// asked about (assemble.Ahead), when the rubric allows it; its scope
	// is then let go, and the checks are kept a bounded way ahead of the
	// tools finished (stage.Checked.Bound), so that a run holds the
	// scopes of that many tools rather than of every tool a faster host
	// checked while a slower judge answered.
	ahead := assemble.NewAhead(ctx, r, rep, states, opt.Workers, checked.Handed)
	if ahead != nil {
		checked.Bound(stage.MaxLead)
		// A run stopped (Ctrl-C) leaves tools unchecked, past which no
		// question is asked and no answer moves the bound on: the
		// checks it holds run on, to see the context ended, so that
		// the pass ends and says so.
		defer context.AfterFunc(ctx, checked.Unbound)()
	}
	// The surface's signals, when the tools' signals read none, are
	// computed beside the first tools' checks (see early).
	handOn := func(i int) {
		stage.Prepare(r, states[i])
		checked.Done(i)
	}
	early := startEarly(sv, signals, func(i int) {
		sv.Complete(states[i], i)
		handOn(i)
	})
	go func() {
		err := parallel.For(ctx, len(s.Tools), opt.Workers, func(i int) error {
			checked.Start(i)
			from, ready, err := early.surface()
			if err != nil {
				return err
			}
			if rep.Tools[i], states[i], err = check.Tool(ctx, r, consts, from, from.Tool(s, i)); err != nil {
				// No question gets past a tool whose check failed,
				// so no answer moves the bound on: the checks it
				// holds run on, the pass ends, and its error (the
				// lowest failed tool's) ends the run.
				checked.Unbound()
				return err
			}
			if !ready {
				return early.checked(i)
			}
			handOn(i)
			return nil
		})
		// The pass is over once the tools it checked before the
		// signals are completed.
		if serr := early.wait(); err == nil {
			err = serr
		}
		checked.Over(err)
	}()
	if err := early.wait(); err != nil {
		// The checks the bound holds run on, to see the signals failed.
		checked.Unbound()
		_ = checked.Wait()
		return nil, err
	}
	surfaceAnswers, usage, err := stage.Ask(ctx, r, opt.Asker, sv, rep, states, checked, ahead.Hook())
	checked.Unbound()
	ahead.Wait()
	// A check the context's end cut says nothing of the checks: when
	// asking had failed on an error of its own before it (a judge that
	// crashed, the context then ending as the calls in flight finished),
	// that error fired first and ends the run.
	if cerr := checked.Wait(); cerr != nil && (err == nil || !cutBy(ctx, cerr) || cutBy(ctx, err)) {
		return nil, cerr
	}
	rep.Surface.Hash = <-hash
	if err != nil {
		return nil, err
	}
	all := states
	if states, err = setAside(r, rep, states); err != nil {
		return nil, err
	}
	results = results[:len(states)]
	answersSize := eval.ValueSize(surfaceAnswers)
	for _, st := range states {
		// Tool formulas see the surface's answers, all asked by now.
		st.Scope.Vars["surface_answers"] = surfaceAnswers
		st.Scope.SurfaceAnswers = answersSize
	}
	orig := make([]int, 0, len(states)) // each kept state's index among all
	for i, st := range all {
		if st.Unscored == "" {
			orig = append(orig, i)
		}
	}
	if err := parallel.For(ctx, len(states), opt.Workers, func(i int) error {
		defer func() { states[i] = nil }()
		if res, ok, err := ahead.Of(orig[i]); ok {
			if results[i] = res; err != nil {
				return err
			}
			return assemble.ToolLate(r, states[i], &rep.Tools[i])
		}
		var err error
		results[i], err = assemble.Tool(r, states[i], &rep.Tools[i])
		return err
	}); err != nil {
		return nil, err
	}
	return finish(ctx, r, rep, results, sv, surfaceAnswers, usage, start)
}

// cutBy reports whether err is ctx's own end (its error or its cause)
// rather than a failure of its own.
func cutBy(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (errors.Is(err, ctx.Err()) || errors.Is(err, context.Cause(ctx)))
}

// finish computes the surface's part of rep from its scored tools, and
// its fixes.
func finish(ctx context.Context, r *rubric.Rubric, rep *report.Report, results []assemble.Scored, sv *check.Surface, surfaceAnswers, usage map[string]any, start time.Time) (*report.Report, error) {
	if err := assemble.Surface(ctx, r, rep, results, sv, surfaceAnswers, usage); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	if err := assemble.Fixes(r, rep); err != nil {
		return nil, err
	}
	rep.Complete = true
	rep.Timings.ScoreMS = float64(time.Since(start).Microseconds()) / 1000
	return rep, nil
}

// setAside moves the tools that could not be scored (check.State.Unscored)
// out of rep.Tools into rep.UnscoredTools, and returns the states of the
// others: what the surface's formulas then see. It fails when fewer tools
// were scored than the rubric's min_scored asks.
func setAside(r *rubric.Rubric, rep *report.Report, states []*check.State) ([]*check.State, error) {
	var names []string
	first := ""
	for _, st := range states {
		if st.Unscored != "" {
			names = append(names, st.Name)
			if first == "" {
				first = st.Unscored
			}
		}
	}
	if len(names) == 0 {
		return states, nil
	}
	total := len(states)
	if !r.EnoughScored(total-len(names), total) {
		return nil, fmt.Errorf("%d of the %d tools could not be scored, more than rubric %s allows (it scores a surface when at least %s of its tools were): %s",
			len(names), total, r.Name, percent(r.MinScored), first)
	}
	kept := states[:0:0]
	tools := rep.Tools[:0:0]
	for i, st := range states {
		if st.Unscored != "" {
			t := rep.Tools[i]
			rep.UnscoredTools = append(rep.UnscoredTools, report.UnscoredTool{Name: t.Name, Hash: t.Hash, Reason: st.Unscored, Answers: t.Answers})
			continue
		}
		kept = append(kept, st)
		tools = append(tools, rep.Tools[i])
	}
	rep.Tools = tools
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d of the %d tools could not be scored and %s left out of the scores (an answer about %s stayed unreadable after its retries): %s; a gate is INVALID until every tool is scored",
		len(names), total, words.Pick(len(names), "is", "are"), words.Pick(len(names), "it", "them"), strings.Join(names, ", ")))
	return kept, nil
}

// percent writes a share as a percentage: 0.8 as 80%.
func percent(n num.Num) string {
	return n.Mul(num.Int(100)).Exact() + "%"
}
