// Package check runs a rubric's static checks and signals: what each
// tool's definition passes, read from the definition alone, and the
// surface's values and signals that every tool's formulas see.
package check

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/eval"
	"github.com/rubricmcp/rubric/engine/score/parallel"
	"github.com/rubricmcp/rubric/engine/surface"
)

// Surface is the whole surface as formulas see it: its tools'
// definitions and the server's information, and the surface's signals.
type Surface struct {
	Val map[string]any
	// defs are the tools' definitions, decoded once for the formulas
	// that read surface.tools whole and shared with each tool's own; nil
	// when no formula of the rubric reads the surface, or reads only
	// members of its tools, and each tool's is decoded when it is scored
	// (see Tool).
	defs []any
	// Signals are the surface's signals by name, computed once a run.
	Signals map[string]any
	Size    uint64 // bounds the length of anything in Val and Signals
	// Bytes is the length of the tools' canonical JSON, all together:
	// what the cost limit of formulas over the surface grows with.
	Bytes uint64
	// Grades are the rubric's grades, letter to minimum.
	Grades map[string]any
	// Observe is the run's Options.Observe.
	Observe func(string, *lang.Program, lang.Vars)
	// handOff is set when surface.tools no longer holds the decoded
	// definitions: Tool hands each to its tool and keeps none.
	handOff bool
}

// NewSurface makes s into the values r's formulas see of it, and
// computes r's surface signals. observe is the run's Options.Observe.
//
// What surface.tools holds depends on what r's formulas read of it.
// When none reads the surface, it is left empty, and each tool's
// definition lives only while the tool is scored (see
// surface.ParseLean). When they read only some members of each tool
// (surface.tools.map(t, t.name); see rubric.ItemMembers), each tool is
// those members, read from its canonical JSON without building the rest
// of its tree: the formulas' values are the same, and a large surface
// does not hold every tree for the whole run. Otherwise the tools'
// definitions are all decoded at once and shared with each tool's own
// scope: when a formula reads a tool whole; when observe traces the
// formulas (an explanation shows the values in between, such as
// surface.tools itself); and when r asks questions, since every tool's
// scope, its definition in it, then lives until the answers are in
// (see score.Run), and members cut apart would be a second copy.
func NewSurface(r *rubric.Rubric, s *surface.Surface, observe func(string, *lang.Program, lang.Vars)) (*Surface, error) {
	sv, signals := NewSurfaceBeforeSignals(r, s, observe)
	if err := signals(); err != nil {
		return nil, err
	}
	return sv, nil
}

// NewSurfaceBeforeSignals is NewSurface less the surface's signals, which
// signals computes, once: a run whose tools' signals read neither the
// surface nor its signals (ChecksBeforeSignals) checks its first tools
// meanwhile, with Early, rather than leave a core idle while they are
// computed (cel-go over the whole surface, on one core).
func NewSurfaceBeforeSignals(r *rubric.Rubric, s *surface.Surface, observe func(string, *lang.Program, lang.Vars)) (sv *Surface, signals func() error) {
	sv = newSurface(r, s, observe)
	return sv, func() error { return sv.computeSignals(r, s) }
}

// ChecksBeforeSignals reports whether r's tools may be checked before the
// surface's signals are computed: when none of r's tool signals may read
// the surface or its signals (a check sees neither).
func ChecksBeforeSignals(r *rubric.Rubric) bool {
	for _, m := range r.Tool.Signals {
		if m.Value.MayRead("surface") || m.Value.MayRead("surface_signals") {
			return false
		}
	}
	return true
}

// Early returns the surface as it is before its signals are computed, for
// checking tools while they are (Tool(ctx, r, k, early, early.Tool(s, i))):
// a copy, which the computation does not write, whose signals are none
// and which hands no definition over. Complete each state so made once
// the signals are computed.
func (sv *Surface) Early() *Surface {
	early := *sv
	return &early
}

// Complete gives st, the state of tool i checked with Early, the
// surface's signals and their bound once they are computed, and lets the
// surface hand the tool's definition over as Tool does once they are.
func (sv *Surface) Complete(st *State, i int) {
	st.Scope.Vars["surface_signals"] = sv.Signals
	st.Scope.Surface = sv.Size
	sv.handOver(i)
}

// handOver lets go of tool i's definition once the surface's formulas no
// longer hold the definitions (see letGo): the tool's scope holds it
// now, and alone.
func (sv *Surface) handOver(i int) {
	if sv.handOff {
		sv.defs[i] = nil
	}
}

// newSurface is NewSurface less the signals.
func newSurface(r *rubric.Rubric, s *surface.Surface, observe func(string, *lang.Program, lang.Vars)) *Surface {
	var defs, tools []any
	size := uint64(len(s.Tools))
	var bytes uint64
	for _, t := range s.Tools {
		size = max(size, eval.SizeOf(t))
		bytes += eval.SizeOf(t)
	}
	if r.Reads("surface") {
		members, cut := r.ItemMembers("surface", "tools")
		cut = cut && observe == nil && len(r.Questions) == 0
		tools = make([]any, len(s.Tools))
		_ = parallel.For(context.Background(), len(tools), 0, func(i int) error {
			if cut {
				tools[i] = s.Tools[i].Members(members)
			} else {
				// Held for the run, as the surface's canonical forms
				// are: its strings may as well be their bytes, not
				// copies of them.
				tools[i] = s.Tools[i].DefinitionInPlace()
			}
			return nil
		})
		if !cut {
			defs = tools
		}
	}
	server := map[string]any{}
	for k, v := range s.Server {
		server[k] = v
	}
	size = max(size, eval.ValueSize(server))
	grades := map[string]any{}
	for _, g := range r.Grades {
		grades[g.Letter] = g.Min
	}
	sv := &Surface{
		Grades:  grades,
		Val:     map[string]any{"tools": nonNilList(tools), "server": server},
		defs:    defs,
		Signals: map[string]any{},
		Size:    size,
		Bytes:   bytes,
		Observe: observe,
	}
	return sv
}

// computeSignals computes r's surface signals into sv.
func (sv *Surface) computeSignals(r *rubric.Rubric, s *surface.Surface) error {
	if len(r.Surface.Signals) == 0 {
		return nil
	}
	sc := &eval.Scope{Vars: lang.Vars{"surface": sv.Val}, Size: sv.Size, Limit: eval.OverSurface(len(s.Tools), sv.Bytes), Once: true}
	signals, err := eval.Signals(r.Surface.Signals, sc, "surface_signals", "surface signal")
	if err != nil {
		return err
	}
	sv.Signals, sv.Size = signals, max(sv.Size, eval.ValueSize(signals))
	sv.letGo(r, s)
	return nil
}

// letGo gives surface.tools, once the surface's signals are computed,
// only the members of each tool that the rubric's other formulas read,
// when they read nothing else of them (TDQS: their number), and hands
// each tool's decoded definition to its own scope alone (see Tool), so
// that a run which asks questions no longer holds every definition until
// it ends: a tool's is let go with its scope, or with the members its
// scope keeps (assemble.Ahead). Nothing changes for a run traced by
// Observe, whose explanation shows surface.tools as it was.
func (sv *Surface) letGo(r *rubric.Rubric, s *surface.Surface) {
	if sv.defs == nil || sv.Observe != nil {
		return
	}
	members, ok := r.ItemMembersBesides("surface", "tools", r.Surface.Signals)
	if !ok {
		return
	}
	cut := make([]any, len(sv.defs))
	for i, d := range sv.defs {
		def, _ := d.(map[string]any)
		m := make(map[string]any, len(members))
		for _, k := range members {
			if v, ok := def[k]; ok {
				m[k] = v
			}
		}
		cut[i] = m
	}
	sv.Val["tools"] = cut
	sv.handOff = true
}

func nonNilList(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// Tool returns s's i-th tool, its definition decoded: the one
// NewSurface decoded for the surface's formulas, or a fresh one. Once
// the surface's formulas no longer hold the definitions (see letGo), it
// is handed over: each tool's is asked for once.
func (sv *Surface) Tool(s *surface.Surface, i int) surface.Tool {
	t := s.Tools[i]
	if sv.defs != nil {
		t.Def, _ = sv.defs[i].(map[string]any)
		sv.handOver(i)
	} else {
		// Read while the tool is scored and let go with its scope: its
		// strings may as well be the canonical form's own bytes.
		t.Def = t.DefinitionInPlace()
	}
	return t
}

// checkKeys are the fields of a check's results as tool formulas see them.
var checkKeys = rubric.CheckFields

// Consts are the parts of the checks' results that every tool shares,
// made into formula values once a run rather than once a tool.
type Consts struct {
	names        []string  // the keys of the check map, in check order
	name, points []ref.Val // each check's name and points
}

// NewConsts makes the checks' shared values of r.
func NewConsts(r *rubric.Rubric) Consts {
	k := Consts{
		names:  make([]string, len(r.Checks)),
		name:   make([]ref.Val, len(r.Checks)),
		points: make([]ref.Val, len(r.Checks)),
	}
	for i, c := range r.Checks {
		k.names[i], k.name[i], k.points[i] = c.Name, types.String(c.Name), lang.Num{N: c.Points}
	}
	return k
}

// State is a tool between its checks and its score: the scope its
// formulas are evaluated in, and its answers once asked.
type State struct {
	Name    string
	Scope   *eval.Scope
	Answers map[string]any
	// Unscored, when set, says why the tool cannot be scored: an answer
	// about it stayed unreadable, and the rubric scores the tools it
	// could (rubric.MinScored).
	Unscored string
}

// Tool runs every check of r on one tool and computes its signals.
func Tool(ctx context.Context, r *rubric.Rubric, k Consts, sv *Surface, t surface.Tool) (report.Tool, *State, error) {
	out := report.Tool{Name: t.Name, Hash: t.Hash, Checks: make([]report.Check, 0, len(r.Checks)), Issues: []report.Issue{}}
	toolVal := lang.ToolValue(t.Definition())
	size := eval.SizeOf(t)
	// A tool's formulas may do more work on a longer tool (see
	// eval.OverTool); those that read the surface, on a longer surface.
	limit := eval.OverTool(size)
	surfaceLimit := max(limit, eval.OverTool(sv.Bytes))
	checkScope := &eval.Scope{Vars: lang.Vars{"tool": toolVal, "item": nil}, Size: size, Limit: limit, Ctx: ctx}
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
				return out, nil, &eval.Error{Tool: t.Name, Formula: fmt.Sprintf("check %q", c.Name), Err: err}
			}
			if credit.Cmp(num.One) < 0 {
				msg, err := issueText(c, checkScope, res.Failed)
				if err != nil {
					return out, nil, &eval.Error{Tool: t.Name, Formula: fmt.Sprintf("check %q", c.Name), Err: err}
				}
				out.Issues = append(out.Issues, report.Issue{
					Check: c.Name, Message: msg, Params: nonNil(res.Failed), Points: c.Points.Exact(),
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
	sc := &eval.Scope{Vars: lang.Vars{
		"tool":            toolVal,
		"checks":          types.NewRefValList(lang.Adapter, checkVals),
		"check":           lang.RecordOf(k.names, checkVals),
		"surface":         sv.Val,
		"surface_signals": sv.Signals,
		"signals":         map[string]any{},
		"answers":         map[string]any{},
		"surface_answers": map[string]any{},
		"metrics":         map[string]any{},
		"grades":          sv.Grades,
	}, Size: size, Surface: sv.Size, Limit: limit, SurfaceLimit: surfaceLimit, Observe: sv.Observe, Tool: t.Name, Ctx: ctx}
	if n := uint64(len(r.Checks) + len(r.Tool.Metrics) + len(r.Tool.Signals)); sc.Size < n {
		sc.Size = n
	}
	// Each variable's own bound, for the formulas that read some of them
	// (see eval.Scope.Bound): the tool's, a tool whose length bounds
	// nothing else; the checks', which are the rubric's names and
	// numbers; the signals, answers and metrics are bounded as they are
	// computed.
	sc.Bound("tool", size)
	// check holds the records checks lists, by the names they hold.
	checksSize := eval.RefSize(sc.Vars["checks"].(ref.Val))
	sc.Bound("checks", checksSize)
	sc.Bound("check", checksSize)
	for _, name := range []string{"signals", "answers", "metrics"} {
		sc.Bound(name, 0)
	}
	sc.Bound("grades", eval.ValueSize(sv.Grades))
	st := &State{Name: t.Name, Scope: sc}
	if len(r.Tool.Signals) > 0 {
		// Signals leaves them set, each bounded on its own.
		if _, serr := eval.Signals(r.Tool.Signals, sc, "signals", "signal"); serr != nil {
			serr.Tool = t.Name
			return out, nil, serr
		}
	}
	return out, st, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// issueText is a failing check's message: its template with {items}
// replaced by the failing items' labels, or its CEL message computed over
// the tool and them.
func issueText(c *rubric.Check, sc *eval.Scope, items []string) (string, error) {
	if c.Message == nil {
		return strings.ReplaceAll(c.Issue, "{items}", strings.Join(items, ", ")), nil
	}
	labels := make([]any, len(items))
	for i, s := range items {
		labels[i] = s
	}
	// The message shares the check's scope, so that a let it reads was
	// computed once for the tool, by whichever formula read it first.
	// Only the lets it computes are observed, as those of the check's
	// formulas are, not the message itself.
	msc := sc.Sized(eval.Unbounded)
	if obs := sc.Observe; obs != nil {
		msc.Observe = func(tool string, p *lang.Program, vars lang.Vars) {
			if p != c.Message {
				obs(tool, p, vars)
			}
		}
	}
	msc.Set("items", labels)
	s, err := eval.String(c.Message, msc)
	if err != nil {
		return "", fmt.Errorf("issue: %w", err)
	}
	return s, nil
}

// runCheck runs one check in sc, the tool's scope shared by its checks.
func runCheck(c *rubric.Check, sc *eval.Scope) (report.Check, num.Num, error) {
	res := report.Check{Name: c.Name, Title: c.Title, Points: c.Points.Exact(), Items: c.Each != nil}
	sc.Set("item", nil) // not the last item of the check before
	if c.Each == nil {
		ok, err := eval.Bool(c.Pass, sc)
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
	items, err := eval.List(c.Each, sc)
	if err != nil {
		return res, num.Num{}, fmt.Errorf("each: %w", err)
	}
	// An item may be a value each built, longer than anything in the
	// definition: the formulas that see the items are bounded by the
	// heaviest of them too (lang.Weight bounds anything in an item or
	// made of its parts, as SizeOf does for a definition), so that they
	// stay untracked where their worst case at that length is within the
	// cost limit (an item each built too heavy for that puts them on the
	// tracked path, which stops them at the limit as before).
	size := sc.Size
	for _, item := range items {
		size = max(size, lang.Weight(item))
	}
	sc = sc.Sized(size)
	for i, item := range items {
		sc.Set("item", item)
		ok, err := eval.Bool(c.Pass, sc)
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

func itemLabel(c *rubric.Check, item ref.Val, sc *eval.Scope) (string, error) {
	if c.Label != nil {
		s, err := eval.String(c.Label, sc)
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
