package assemble

import (
	"context"
	"maps"
	"runtime"
	"slices"
	"sync"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/check"
	"github.com/rubricmcp/rubric/engine/score/eval"
)

// Ahead finishes tools as their answers come (ToolEarly), on workers of
// its own, while the other tools are asked about, instead of all of them
// once every question is answered: at 5,000 TDQS tools that is a quarter
// of a second of both cores the judge would otherwise wait through. A nil
// *Ahead finishes none.
type Ahead struct {
	tools chan int
	wg    sync.WaitGroup
	done  []*aheadTool
}

// aheadTool is a tool finished ahead: its result, or the error that
// stopped it.
type aheadTool struct {
	res Scored
	err error
}

// NewAhead starts the workers that finish rep's tools ahead (states are
// their states, by index), or returns nil when the rubric's tool formulas
// read the surface's answers before its report values do (see Early).
// finished, when not nil, is called once for each tool handed on, after
// its scope is let go of what its late values do not read (or after it
// failed, or was skipped).
func NewAhead(ctx context.Context, r *rubric.Rubric, rep *report.Report, states []*check.State, workers int, finished func()) *Ahead {
	if !Early(r) {
		return nil
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Buffered for every tool, so that handing one on never waits.
	a := &Ahead{tools: make(chan int, len(states)), done: make([]*aheadTool, len(states))}
	keep, shed := lateReads(r)
	members, cut := lateToolMembers(r)
	for range workers {
		a.wg.Go(func() {
			for i := range a.tools {
				// A tool left unscored is set aside, not finished.
				if states[i].Unscored != "" || ctx.Err() != nil {
					if finished != nil {
						finished()
					}
					continue
				}
				t := &aheadTool{}
				t.res, t.err = ToolEarly(r, states[i], &rep.Tools[i])
				if t.err == nil && shed {
					// Until the run ends the scope serves ToolLate
					// alone: what its formulas never read goes now.
					states[i].Scope.Only(keep)
					if cut {
						cutTool(states[i].Scope, members)
					}
				}
				a.done[i] = t
				if finished != nil {
					finished()
				}
			}
		})
	}
	return a
}

// lateReads says which of a tool's variables the report values ToolLate
// evaluates may read, and shed whether a finished tool's scope may keep
// those alone (eval.Scope.Only): not when one of them reads lets, whose
// reads are not looked into. At 5,000 TDQS tools the checks, signals and
// metrics it lets go are a third of what the run holds while it asks.
func lateReads(r *rubric.Rubric) (keep func(name string) bool, shed bool) {
	late, ok := lateValues(r)
	if !ok {
		return nil, false
	}
	return func(name string) bool {
		for _, p := range late {
			if p.MayRead(name) {
				return true
			}
		}
		return false
	}, true
}

// lateToolMembers says which members of the tool the report values
// ToolLate evaluates read (TDQS's serverFlags: its name), when they read
// it only through members: the tool kept for them may then be those
// members alone, not its whole definition. ok is false when one reads it
// any other way, or reads lets.
func lateToolMembers(r *rubric.Rubric) (members []string, ok bool) {
	late, ok := lateValues(r)
	if !ok {
		return nil, false
	}
	all := map[string]bool{}
	for _, p := range late {
		m, ok := p.Members("tool")
		if !ok {
			return nil, false
		}
		for name := range m {
			all[name] = true
		}
	}
	return slices.Sorted(maps.Keys(all)), true
}

// lateValues are the report values ToolLate evaluates, in order; ok is
// false when one of them reads lets, whose reads are not looked into.
func lateValues(r *rubric.Rubric) (late []*lang.Program, ok bool) {
	k, from := 0, lateFrom(r)
	for _, rb := range r.Tool.Reports {
		for _, f := range rb.Fields {
			if k >= from {
				if _, lets := f.Value.Apart(); len(lets) > 0 {
					return nil, false
				}
				late = append(late, f.Value)
			}
			k++
		}
	}
	return late, true
}

// cutTool gives sc's tool only the members named, as far as it has them.
func cutTool(sc *eval.Scope, members []string) {
	def, ok := lang.ToolDefinition(sc.Vars["tool"])
	if !ok {
		return
	}
	m := make(map[string]any, len(members))
	for _, k := range members {
		if v, ok := def[k]; ok {
			m[k] = v
		}
	}
	sc.Vars["tool"] = lang.ToolValue(m)
}

// Hook is what hands the workers a tool by its index, once its answers
// are in (stage.Ask's answered); nil for a nil Ahead. Nothing else may
// touch a tool handed on until Wait returns.
func (a *Ahead) Hook() func(tool int) {
	if a == nil {
		return nil
	}
	return func(i int) { a.tools <- i }
}

// Wait waits for the tools handed on to be finished; none may be handed
// on after.
func (a *Ahead) Wait() {
	if a == nil {
		return
	}
	close(a.tools)
	a.wg.Wait()
}

// Of is the i-th tool as finished ahead, its result or the error that
// stopped it; ok is false when it was not (ToolLate is then not for it).
func (a *Ahead) Of(i int) (res Scored, ok bool, err error) {
	if a == nil || a.done[i] == nil {
		return Scored{}, false, nil
	}
	return a.done[i].res, true, a.done[i].err
}
