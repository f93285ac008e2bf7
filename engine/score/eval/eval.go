// Package eval is the scope a rubric's formulas are evaluated in while
// scoring: their variables, the bound on the length of those values that
// lets formulas whose worst case fits the cost limit skip cost tracking,
// the cost limit of formulas that see every tool, and the check that the
// run was not interrupted; with the typed evaluations (a boolean, a
// number, a string, a list, named values in order) and the error that
// names the formula which failed.
package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
	"unsafe"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// Error is a formula that failed while scoring: the run cannot produce a
// whole report.
type Error struct {
	Tool    string // empty for the surface level
	Formula string // such as check "typed_params" pass
	// Program, when set, is the formula Formula names, whose place in
	// the rubric's file the message gives when Err carries none (a
	// formula evaluated outside a Scope, or a value of the wrong shape).
	Program *lang.Program
	Err     error
}

// Error names the place in the rubric's file (as a load error does),
// the tool (or the surface), the formula and what went wrong, and what
// to do where that is plain.
func (e *Error) Error() string {
	where := "the surface"
	if e.Tool != "" {
		// A name is quoted cut short: a server may name a tool with a
		// hundred thousand characters, and the message is for a person.
		where = "tool " + termtext.QuoteStart([]byte(e.Tool), NameQuoteMax)
	}
	msg := fmt.Sprintf("scoring %s: %s: %v", where, e.Formula, e.Err)
	at, ok := e.Place()
	if ok {
		msg = at.String() + ": " + msg
	}
	if h := hint(e.Err); h != "" {
		msg += ": " + h
	}
	if ok && strings.HasPrefix(at.File, "builtin:") {
		// A built-in rubric's text is in the binary, not beside the
		// user: say how to read the line named.
		msg += fmt.Sprintf(" (rubric rubrics show --source %s prints the built-in rubric's text)", at.File)
	}
	return msg
}

// NameQuoteMax is how many bytes of a tool's name an error message
// quotes; a longer name is cut there, with "…".
const NameQuoteMax = 80

// Place is where in the rubric's file the formula failed: the innermost
// place Err carries (a let the formula read, when the let failed), else
// Program's; ok is false when neither knows one.
func (e *Error) Place() (lang.Place, bool) {
	if at, ok := innermost(e.Err); ok {
		return at, true
	}
	return e.Program.Where(e.Err)
}

// Unwrap returns the formula's own error.
func (e *Error) Unwrap() error { return e.Err }

// Scope is what a formula is evaluated in: its variables, and a bound on
// the length of any string, list or map among them, which lets formulas
// whose worst case fits the cost limit skip cost tracking.
type Scope struct {
	Vars lang.Vars
	Size uint64
	// Surface bounds the surface's values and signals, for the formulas
	// that read them.
	Surface uint64
	// SurfaceAnswers bounds the surface's answers (surface_answers), for
	// the formulas that read them: a long justification of a question
	// about the whole surface must not put every formula of every tool
	// on the tracked path. What a formula computes from them is bounded
	// where it is kept (a metric's value raises Size, a let's its own
	// bound).
	SurfaceAnswers uint64
	// Limit, when not 0, is the cost limit formulas run under here in
	// place of their own: formulas that see every tool get a budget that
	// grows with the number of tools (see OverSurface).
	Limit uint64
	// SurfaceLimit, when above Limit, is the cost limit of the formulas
	// here that read the surface or its signals: a tool's formula that
	// looks through every tool may do as much work as the surface is
	// long.
	SurfaceLimit uint64
	// Once marks a scope whose formulas are each evaluated once a run,
	// a surface's: one that passes its static bound is estimated on its
	// data however short that is (see lang.Program.EvalOnceContext).
	Once bool
	// Observe and Tool are the run's Options.Observe and the tool the
	// scope is of. Observe sees each formula as compiled, and each let
	// when it is computed.
	Observe func(string, *lang.Program, lang.Vars)
	Tool    string
	// Ctx, when set, is checked before each formula and, for a formula run
	// with cost tracking, every 1,000 steps of its comprehensions, so that
	// a run over many tools and formulas ends promptly when it is
	// interrupted.
	Ctx context.Context
	// lets are the values of the lets computed in the scope, by key: a
	// let is computed once for every formula of the scope that reads
	// it, until Set changes a variable it reads. Shared by the scopes
	// Sized makes.
	lets *letMemo
	// bounds are the variables' own bounds, where Bound gave them.
	// Shared by the scopes Sized makes, as Vars is.
	bounds *varBounds
}

// varBounds bound each variable's value on its own, tighter than Size
// bounds them all: a formula that reads no tool (a sum of a tool's
// scores) is not bounded by the tool's length, nor one that reads a
// group's members (signals.paramCount) by a long member it does not
// read (signals.definition).
type varBounds struct {
	// of bounds each variable's value whole.
	of map[string]uint64
	// members bounds each member of a variable whose value is a map,
	// by member, where SetMembers (or named) gave them.
	members map[string]*memberBounds
}

// memberBounds bound each member of a map: by key, as SetMembers gives
// them, or, for a group named computes, in the order of its formulas
// (sizes[i] bounds the value of ms[i], for as many as are computed), so
// that a tool's scoring makes no map of bounds for each group of its
// values. A group's names are distinct (the loader refuses two alike).
type memberBounds struct {
	byKey map[string]uint64
	ms    []*rubric.Metric
	sizes []uint64
}

// of is the bound of the member named m, 0 when there is none.
func (mb *memberBounds) of(m string) uint64 {
	if mb.ms == nil {
		return mb.byKey[m]
	}
	for i, n := range mb.sizes {
		if mb.ms[i].Name == m {
			return n
		}
	}
	return 0
}

// whole bounds the map read whole: its length, and every key and
// member.
func (mb *memberBounds) whole() uint64 {
	if mb.ms == nil {
		return MembersSize(mb.byKey)
	}
	size := uint64(len(mb.sizes))
	for i, n := range mb.sizes {
		size = max(size, uint64(len(mb.ms[i].Name)), n)
	}
	return size
}

// MembersSize is ValueSize of a map whose members are bounded by
// members, by key: the map's length, and each key's and member's, the
// largest.
func MembersSize(members map[string]uint64) uint64 {
	size := uint64(len(members))
	for k, n := range members {
		size = max(size, uint64(len(k)), n)
	}
	return size
}

// Bound records that no string, list or map in the value of the
// variable name, as it is now, is longer than n (nor a number longer
// than n digits; see ValueSize): a formula that reads only variables so
// bounded, the surface's and lets, is bounded by theirs rather than by
// Size. Set forgets it. n must be within Size, which still bounds every
// variable.
func (s *Scope) Bound(name string, n uint64) {
	b := s.varBounds()
	b.of[name] = n
	delete(b.members, name)
}

// SetMembers is Set of a variable whose value v is a map, with each
// member's own bound, by key; members must hold every key of the map,
// and grow with it (as named's bounds grow with its values). A
// formula that reads the variable only member by member (see
// lang.Program.MembersRead) is bounded by the members it reads, one
// that reads it whole by the map's length and every member's.
func (s *Scope) SetMembers(name string, v map[string]any, members map[string]uint64) {
	s.Set(name, v)
	s.varBounds().members[name] = &memberBounds{byKey: members}
}

// setGroup is SetMembers of the values of ms, as named computes them in
// order: mb.sizes holds the bound of each value computed, and grows with
// v.
func (s *Scope) setGroup(name string, v map[string]any, mb *memberBounds) {
	s.Set(name, v)
	s.varBounds().members[name] = mb
}

// varBounds is s.bounds, made when first wanted.
func (s *Scope) varBounds() *varBounds {
	if s.bounds == nil {
		s.bounds = &varBounds{of: map[string]uint64{}, members: map[string]*memberBounds{}}
	}
	return s.bounds
}

// sizeOf is the bound on what p reads of the scope's variables other
// than those eval bounds apart (see boundApart): the bounds Bound and
// SetMembers gave, or Size when p reads a variable that has none.
func (s *Scope) sizeOf(p *lang.Program) uint64 {
	b := s.bounds
	if b == nil {
		return s.Size
	}
	var size uint64
	for _, name := range p.VarsRead() {
		if _, ok := s.Vars[name]; !ok || s.boundApart(name) {
			// What is no variable of the scope (a let, which eval
			// bounds apart, a fixed variable, whose value the estimate
			// knows, a comprehension's own) reads nothing of it; nor
			// does a surface's variable that eval bounds by Surface or
			// SurfaceAnswers.
			continue
		}
		if n, ok := b.of[name]; ok {
			size = max(size, n)
			continue
		}
		members, ok := b.members[name]
		if !ok {
			return s.Size
		}
		if read, ok := p.MembersRead(name); ok {
			for _, m := range read {
				size = max(size, members.of(m))
			}
			continue
		}
		size = max(size, members.whole())
	}
	return size
}

// boundApart reports whether eval bounds the variable name on its own,
// apart from the scope's variables: the surface's values and signals by
// Surface, its answers by SurfaceAnswers, when the scope gives them. A
// scope that holds the surface without them (the one its signals are
// computed in) bounds it by Size, or by the bounds Bound gave, as any
// other variable.
func (s *Scope) boundApart(name string) bool {
	switch name {
	case "surface", "surface_signals":
		return s.Surface > 0
	case "surface_answers":
		return s.SurfaceAnswers > 0
	}
	return false
}

// letMemo holds the lets computed in a scope, and its variables as
// formula values.
type letMemo struct {
	by map[string]letValue
	// vars are the scope's lists as formula values, by variable:
	// adapting one allocates, and formulas read the same variables many
	// times (maps need no adapting: see vars.ResolveName).
	vars map[string]adaptedVar
}

// adaptedVar is a variable's list as a formula value, with what it was
// made from: the list's storage and length. It stands for the variable
// while both are the same, so a variable given another value, or a list
// grown in place (a formula value keeps the length it was made with), is
// adapted again.
type adaptedVar struct {
	ptr unsafe.Pointer
	n   int
	val ref.Val
}

// vars is the activation of the scope's variables: maps as they are,
// lists adapted once (see letMemo.vars); the scope's lets must be set.
type vars struct{ s *Scope }

// ResolveName implements interpreter.Activation.
func (a vars) ResolveName(name string) (any, bool) {
	x, ok := a.s.Vars[name]
	if !ok {
		return nil, false
	}
	var ptr unsafe.Pointer
	var n int
	switch v := x.(type) {
	case map[string]any:
		// The interpreter reads a member of a Go map (signals.paramCount,
		// metrics.scores[d]) from the map itself, and adapts what it
		// reads: the same value and the same errors as through the map
		// adapted, without adapting the map, or the maps within it, at
		// every read. A map read whole (size(signals)) it adapts then.
		return v, true
	case []any:
		ptr, n = unsafe.Pointer(unsafe.SliceData(v)), len(v)
	default:
		return lang.Adapter.NativeToValue(x), true
	}
	m := a.s.lets
	if av, ok := m.vars[name]; ok && av.ptr == ptr && av.n == n && ptr != nil {
		return av.val, true
	}
	val := lang.Adapter.NativeToValue(x)
	if m.vars == nil {
		m.vars = map[string]adaptedVar{}
	}
	m.vars[name] = adaptedVar{ptr: ptr, n: n, val: val}
	return val, true
}

// Parent implements interpreter.Activation.
func (vars) Parent() interpreter.Activation { return nil }

// surfaceVars are the variables a tool's scope holds the surface's
// values in: computed before any tool is scored (its answers before
// any tool's formula reads them), the same for every tool, and never
// changed in place.
var surfaceVars = map[string]bool{"surface": true, "surface_signals": true, "surface_answers": true}

// SharedValue implements lang.SharedActivation: in a tool's scope, the
// surface's variables are shared by every tool's formulas, so that a
// formula of each tool estimated on its data walks a surface's value
// once, not once a tool (the square of the surface).
func (a vars) SharedValue(name string) (any, bool) {
	if a.s.Tool == "" || !surfaceVars[name] {
		return nil, false
	}
	v, ok := a.s.Vars[name]
	return v, ok
}

// letValue is a let's value (or its error), the bound on its length and
// the let, for Set to forget it.
type letValue struct {
	val  ref.Val
	size uint64
	let  *lang.LetProgram
}

// Set gives the variable name the value v, and forgets the value of
// every let that reads it. Variables of a scope change through Set, so
// that no formula reads a let computed from a value that has changed.
func (s *Scope) Set(name string, v any) {
	s.Vars[name] = v
	if b := s.bounds; b != nil {
		delete(b.of, name)
		delete(b.members, name)
	}
	s.forgetLets(name)
}

// forgetLets forgets the value of every let that reads the variable
// name: for a variable changed in place (a map given a member), which
// is still the value Set gave it.
func (s *Scope) forgetLets(name string) {
	if s.lets == nil || len(s.lets.by) == 0 {
		return
	}
	for key, lv := range s.lets.by {
		if lv.let.Reads(name) {
			delete(s.lets.by, key)
		}
	}
}

// Only keeps, of the scope's variables, those keep names, and forgets
// the lets computed in it: for a scope whose remaining formulas read
// those variables alone and no let, so that what they never read (a
// tool's checks, signals and metrics, once only its late report values
// are left) is let go rather than kept until the run ends.
func (s *Scope) Only(keep func(name string) bool) {
	kept := lang.Vars{}
	for name, v := range s.Vars {
		if keep(name) {
			kept[name] = v
		}
	}
	s.Vars, s.lets = kept, nil
}

// Sized returns a scope over the same variables, sharing its lets, with
// size as the bound on their lengths.
func (s *Scope) Sized(size uint64) *Scope {
	if s.lets == nil {
		s.lets = &letMemo{}
	}
	c := *s
	c.Size = size
	return &c
}

// Eval evaluates p in the scope. A let p reads is computed when first
// read, under the scope's cost limit and context, and kept for the other
// formulas of the scope.
func (s *Scope) Eval(p *lang.Program) (ref.Val, error) {
	if s.Observe != nil {
		s.Observe(s.Tool, p, s.Vars)
	}
	return s.eval(p)
}

// eval is Eval without the Observe call.
func (s *Scope) eval(p *lang.Program) (ref.Val, error) {
	ctx := s.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.lets == nil {
		s.lets = &letMemo{}
	}
	var act interpreter.Activation = vars{s}
	whole := p
	q, lets := p.Apart()
	var la *letActivation
	if q != nil {
		la = &letActivation{s: s, lets: lets}
		p, act = q, la
	}
	// size bounds what the formula reads: the scope, the surface's
	// values where it reads them, and its lets.
	var size uint64
	readsSurface := p.Uses("surface") || p.Uses("surface_signals")
	if s.Surface > 0 && readsSurface {
		size = s.Surface
	}
	if s.SurfaceAnswers > size && p.Uses("surface_answers") {
		size = s.SurfaceAnswers
	}
	// A let's value is data for the formula: its length counts in the
	// bound. One not computed yet has none.
	pending := false
	for _, l := range lets {
		lv, ok := s.lets.by[l.Key]
		if !ok {
			pending = true
			continue
		}
		size = max(size, lv.size)
	}
	own := size // what it reads but the scope's variables
	size = max(size, s.Size)
	limit := s.Limit
	if s.SurfaceLimit > limit && readsSurface {
		limit = s.SurfaceLimit
	}
	if limit > 0 {
		var err error
		if p, err = p.WithCostLimit(limit); err != nil {
			return nil, err
		}
	}
	if !pending && !p.Untracked(size) {
		// Past its static bound on the scope, but perhaps within it on
		// what it reads of the scope, each variable bounded on its own
		// (see Bound): then untracked. (Past that too, it keeps the
		// scope's bound, under which a long tool has its estimate
		// worked out on its data; see lang.Program.EvalSizedContext.)
		if narrow := max(own, s.sizeOf(p)); p.Untracked(narrow) {
			size = narrow
		}
	}
	if pending && p.Untracked(size) {
		// Most evaluations read none of the lets they have not computed
		// (a tool with no match reads none of what its findings are made
		// of), so the formula is evaluated untracked within the bound of
		// what it has. A let it computes that is longer than that bound
		// is an error to it, which ends it within the bound, and then it
		// is evaluated again with the let's length known: the tracker
		// never misses data it should have counted.
		la.bound, la.check = size, true
		out, err := s.evalSized(ctx, p, act, size)
		if !la.over {
			return out, placeUnlessDone(ctx, p, err)
		}
		return s.eval(whole)
	}
	if pending {
		size = Unbounded
	}
	out, err := s.evalSized(ctx, p, act, size)
	return out, placeUnlessDone(ctx, p, err)
}

// evalSized evaluates p on act, no value of which is longer than size:
// as a formula evaluated once a run when the scope is a surface's (see
// Scope.Once).
func (s *Scope) evalSized(ctx context.Context, p *lang.Program, act interpreter.Activation, size uint64) (ref.Val, error) {
	if s.Once {
		return p.EvalOnceContext(ctx, act, size)
	}
	return p.EvalSizedContext(ctx, act, size)
}

// placeUnlessDone gives err the place where p met it (see place), but
// for a run interrupted meanwhile: no place in the file is to blame.
func placeUnlessDone(ctx context.Context, p *lang.Program, err error) error {
	if err == nil || ctx.Err() != nil {
		return err
	}
	return place(p, err)
}

// let is the value of l in the scope, computed when first asked for; an
// error is returned as a CEL error value, which fails the formula that
// read it.
func (s *Scope) let(l *lang.LetProgram) ref.Val {
	if s.lets == nil {
		s.lets = &letMemo{}
	}
	if lv, ok := s.lets.by[l.Key]; ok {
		return lv.val
	}
	if s.Observe != nil {
		s.Observe(s.Tool, l.Program, s.Vars)
	}
	v, err := s.eval(l.Program)
	size := uint64(Unbounded)
	if err != nil {
		v = types.WrapErr(fmt.Errorf("let %s: %w", l.Name, err))
	} else {
		size = RefSize(v)
	}
	if s.lets.by == nil {
		s.lets.by = map[string]letValue{}
	}
	s.lets.by[l.Key] = letValue{val: v, size: size, let: l}
	return v
}

// letActivation gives a formula the lets it reads, computed in the
// scope when first read, beside the scope's variables.
type letActivation struct {
	s    *Scope
	lets []*lang.LetProgram
	// check is set when the formula runs untracked within bound: a let
	// longer than that is given as an error, and over set, so that the
	// formula is evaluated again (see Scope.eval).
	check bool
	bound uint64
	over  bool
}

// errPastBound is what an untracked formula sees in place of a let
// longer than its bound; it is never its result (see Scope.eval).
var errPastBound = types.NewErr("a let longer than the formula's bound")

// ResolveName implements interpreter.Activation.
func (a *letActivation) ResolveName(name string) (any, bool) {
	for _, l := range a.lets {
		if l.Name == name {
			v := a.s.let(l)
			if a.check && a.s.lets.by[l.Key].size > a.bound {
				a.over = true
				return errPastBound, true
			}
			return v, true
		}
	}
	return vars{a.s}.ResolveName(name)
}

// Parent implements interpreter.Activation.
func (a *letActivation) Parent() interpreter.Activation { return nil }

// SharedValue implements lang.SharedActivation: a let is the tool's
// own, a variable as vars shares it.
func (a *letActivation) SharedValue(name string) (any, bool) {
	for _, l := range a.lets {
		if l.Name == name {
			return nil, false
		}
	}
	return vars{a.s}.SharedValue(name)
}

// RefSize is ValueSize of a formula value: the length of the longest
// string, list or map in v, or the digits of a number longer than a
// double's (lang.NumSize), or Unbounded for a value it cannot look
// into.
func RefSize(v ref.Val) uint64 {
	switch x := v.(type) {
	case types.String:
		return uint64(len(x))
	case types.Bool, types.Int, types.Uint, types.Double, types.Null, types.Timestamp, types.Duration:
		return 0
	case types.Bytes:
		return uint64(len(x))
	case *types.Optional:
		if !x.HasValue() {
			return 0
		}
		return RefSize(x.GetValue())
	case lang.Num:
		return lang.NumSize(x.N)
	case traits.Lister:
		n, ok := x.Size().(types.Int)
		if !ok {
			return Unbounded
		}
		out := uint64(n)
		for i := range int64(n) {
			out = max(out, RefSize(x.Get(types.Int(i))))
		}
		return out
	case traits.Mapper:
		n, ok := x.Size().(types.Int)
		if !ok {
			return Unbounded
		}
		out := uint64(n)
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			out = max(out, RefSize(k), RefSize(x.Get(k)))
		}
		return out
	}
	return Unbounded
}

// OverSurface is the cost limit of formulas that see all of n tools,
// whose canonical JSON comes to bytes: the surface's own, and those of
// questions about the surface and its items. It grows with the tools and
// with their length (see lang.LimitFor).
func OverSurface(n int, bytes uint64) uint64 {
	return lang.LimitFor(uint64(lang.CostLimit+lang.CostPerItem*n), bytes)
}

// OverTool is the cost limit of formulas over one tool whose canonical
// JSON is bytes long: lang.CostLimit, raised for a tool long enough that
// formulas reading each of its strings a few dozen times would pass it
// (see lang.LimitFor). A hostile description cannot silence a rubric by
// its length alone: it is bounded by the transports' --max-bytes, and
// the work allowed grows with it.
func OverTool(bytes uint64) uint64 {
	return lang.LimitFor(lang.CostLimit, bytes)
}

// Unbounded is the size of data no bound is known for.
const Unbounded = math.MaxUint64

// SizeOf bounds the values formulas see of a tool: none is longer than
// its canonical JSON. That holds for what params() inlines through $refs
// too: inlining copies strings and lists as they are, and a map it merges
// (a $ref's target under the keys beside the $ref) holds keys that each
// occur in some object of the definition, and each takes more than one
// byte of its canonical JSON. So a $ref costs no bound, and formulas over
// such tools stay on the untracked path when their estimate allows.
func SizeOf(t surface.Tool) uint64 {
	return uint64(len(t.Canonical))
}

// ValueSize is the length of the longest string, list or map in v, or
// the digits of a number longer than a double's (lang.NumSize), or
// Unbounded for a value it cannot look into. v is a plain value as
// decoded JSON or lang.Native gives it; Native leaves what an optional
// holds as cel-go keeps it (a list of strings, a list or map of formula
// values), which is sized as RefSize sizes a formula value.
func ValueSize(v any) uint64 {
	switch x := v.(type) {
	case nil, bool, int, int64, uint64, float64, time.Time, time.Duration:
		return 0
	case string:
		return uint64(len(x))
	case []byte:
		return uint64(len(x))
	case json.Number:
		return uint64(len(x))
	case []any:
		n := uint64(len(x))
		for _, e := range x {
			n = max(n, ValueSize(e))
		}
		return n
	case map[string]any:
		n := uint64(len(x))
		for k, e := range x {
			n = max(n, uint64(len(k)), ValueSize(e))
		}
		return n
	case num.Num:
		return lang.NumSize(x)
	case []string:
		n := uint64(len(x))
		for _, e := range x {
			n = max(n, uint64(len(e)))
		}
		return n
	case ref.Val:
		return RefSize(x)
	case []ref.Val:
		n := uint64(len(x))
		for _, e := range x {
			n = max(n, RefSize(e))
		}
		return n
	case map[ref.Val]ref.Val:
		n := uint64(len(x))
		for k, e := range x {
			n = max(n, RefSize(k), RefSize(e))
		}
		return n
	}
	return Unbounded
}

// String evaluates a formula that must yield a string.
func String(p *lang.Program, sc *Scope) (string, error) {
	v, err := sc.Eval(p)
	if err != nil {
		return "", err
	}
	s, ok := v.(types.String)
	if !ok {
		return "", place(p, fmt.Errorf("want a string, got %s", v.Type().TypeName()))
	}
	return string(s), nil
}

// Bool evaluates a formula that must yield true or false.
func Bool(p *lang.Program, sc *Scope) (bool, error) {
	v, err := sc.Eval(p)
	if err != nil {
		return false, err
	}
	b, ok := v.(types.Bool)
	if !ok {
		return false, place(p, fmt.Errorf("want true or false, got %s", v.Type().TypeName()))
	}
	return bool(b), nil
}

// Num evaluates a formula that must yield a number.
func Num(p *lang.Program, sc *Scope) (num.Num, error) {
	v, err := sc.Eval(p)
	if err != nil {
		return num.Num{}, err
	}
	n, err := lang.ToNum(v)
	return n, place(p, err)
}

// List evaluates a formula that must yield a list.
func List(p *lang.Program, sc *Scope) ([]ref.Val, error) {
	v, err := sc.Eval(p)
	if err != nil {
		return nil, err
	}
	l, ok := v.(traits.Lister)
	if !ok {
		return nil, place(p, fmt.Errorf("want a list, got %s", v.Type().TypeName()))
	}
	out := make([]ref.Val, int(l.Size().(types.Int)))
	for i := range out {
		out[i] = l.Get(types.Int(i))
	}
	return out, nil
}

// Metrics evaluates metrics in order; each sees the ones before it.
func Metrics(ms []*rubric.Metric, sc *Scope) (map[string]any, []report.Metric, *Error) {
	return named(ms, sc, "metrics", "metric", true)
}

// Named evaluates named values in order, each seeing the ones before it
// as the variable group; what names them in errors (metric, signal).
func Named(ms []*rubric.Metric, sc *Scope, group, what string) (map[string]any, []report.Metric, *Error) {
	return named(ms, sc, group, what, true)
}

// Signals is Named for values only the formulas after them read (a
// tool's or the surface's signals): no report entries are made for them,
// which at 5,000 TDQS tools of twenty signals each was a hundred
// thousand entries, and an exact fraction written for each number,
// thrown away.
func Signals(ms []*rubric.Metric, sc *Scope, group, what string) (map[string]any, *Error) {
	values, _, err := named(ms, sc, group, what, false)
	return values, err
}

// named is Named; the report's entries are made only with entries.
func named(ms []*rubric.Metric, sc *Scope, group, what string, entries bool) (map[string]any, []report.Metric, *Error) {
	values := make(map[string]any, len(ms))
	var out []report.Metric // nil for no metrics, as a report writes it
	if len(ms) > 0 && entries {
		out = make([]report.Metric, 0, len(ms))
	}
	// A metric is written into the report; a signal is only read by the
	// formulas after it, so a long text its values hold many times (each
	// finding carries the text it was found in) is held, and counted,
	// once.
	native := lang.NativeShared
	if group == "metrics" {
		native = lang.Native
	}
	// Each value's own bound, for the formulas after it that read the
	// group member by member (see Scope.SetMembers), in a list beside
	// ms rather than a map by name.
	bounds := &memberBounds{ms: ms, sizes: make([]uint64, 0, len(ms))}
	// values and bounds grow in place, so the group is set once; a let
	// computed from it before a value was added is forgotten then.
	sc.setGroup(group, values, bounds)
	for i, m := range ms {
		if i > 0 {
			sc.forgetLets(group)
		}
		v, err := sc.Eval(m.Value)
		if err != nil {
			return nil, nil, &Error{Formula: fmt.Sprintf("%s %q", what, m.Name), Program: m.Value, Err: err}
		}
		nv, err := native(v)
		if err != nil {
			return nil, nil, &Error{Formula: fmt.Sprintf("%s %q", what, m.Name), Program: m.Value, Err: err}
		}
		values[m.Name] = nv
		// A metric is data for the formulas after it: a list it built may
		// be longer than anything in the definition.
		size := ValueSize(nv)
		bounds.sizes = append(bounds.sizes, size)
		sc.Size = max(sc.Size, size)
		if !entries {
			continue
		}
		rm := report.Metric{Name: m.Name, Value: nv}
		if n, ok := nv.(num.Num); ok {
			rm.Value = decimalNumber(n)
			rm.Exact = n.Exact()
		}
		out = append(out, rm)
	}
	// The group whole, for what follows: a let computed from it while
	// its last value was is forgotten.
	sc.setGroup(group, values, bounds)
	return values, out, nil
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
