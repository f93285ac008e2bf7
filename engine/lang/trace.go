package lang

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
	"github.com/google/cel-go/parser"

	"github.com/rubricmcp/rubric/engine/num"
)

// Trace is one evaluation of a formula with the value of each of its
// sub-expressions every time it was evaluated: inside a comprehension
// (a map or a sum over a list) once per item, with the item bound.
type Trace struct {
	// Value is what the formula yielded.
	Value ref.Val

	prg    *Program
	nodes  map[int64]celast.NavigableExpr
	loops  map[int64][]*loop // the comprehensions each node iterates in, outermost first
	byStep map[int64]*loop   // each comprehension by the id of its loop step
	byRng  map[int64]*loop   // each comprehension by the id of its range
	events []event
}

type event struct {
	id    int64
	val   ref.Val
	bound []ref.Val // the loop variables of the node's comprehensions
}

// loop is a comprehension the trace follows item by item.
type loop struct {
	id    int64
	vars  []string // its item variables (one, or key and value)
	roots []int64  // the expressions of each item's own result
}

// Trace evaluates the formula as Eval does, recording every
// sub-expression's values. Maps it is given iterate in key order, so the
// trace of the same data is the same every time. It is slower than Eval: for explaining one
// value, not for scoring.
func (p *Program) Trace(act interpreter.Activation) (*Trace, error) {
	t := &Trace{prg: p, nodes: map[int64]celast.NavigableExpr{}, loops: map[int64][]*loop{}, byStep: map[int64]*loop{}, byRng: map[int64]*loop{}}
	t.index(celast.NavigateAST(p.checked.NativeRep()), nil)
	q := p
	if q.limit == 0 {
		var err error
		if q, err = p.WithCostLimit(CostLimit); err != nil {
			return nil, err
		}
	}
	if p.globals != nil {
		act = interpreter.NewHierarchicalActivation(p.globals, act)
	}
	// The formula is evaluated first by its tracked program, as scoring
	// evaluates it, to meet the cost limit where scoring would: the
	// tracker reads the kind of each step it observes, which the trace's
	// wrappers hide, so a traced program charged no call (a text
	// function over a long description, a lookup by a long key) and ran
	// a hostile formula on to its end. The trace is then recorded from a
	// second evaluation, which does the work the first did within the
	// limit.
	if _, _, err := q.prg.Eval(orderedVars{act}); err != nil {
		return t, err
	}
	prg, err := p.env.Program(p.checked, cel.CustomDecoratorV2(t.decorate))
	if err != nil {
		return nil, err
	}
	out, _, err := prg.Eval(orderedVars{act})
	if err != nil {
		return t, err
	}
	t.Value = out
	return t, nil
}

// Events is how many sub-expression values the trace recorded.
func (t *Trace) Events() int { return len(t.events) }

// index records every node and the comprehensions it loops in.
func (t *Trace) index(e celast.NavigableExpr, in []*loop) {
	t.nodes[e.ID()] = e
	if len(in) > 0 {
		t.loops[e.ID()] = in
	}
	if e.Kind() != celast.ComprehensionKind {
		for _, k := range e.Children() {
			t.index(k, in)
		}
		return
	}
	c := e.AsComprehension()
	kids := e.Children()
	if isHidden(c.AccuVar()) {
		l := &loop{id: e.ID(), vars: []string{c.IterVar()}}
		if c.HasIterVar2() {
			l.vars = append(l.vars, c.IterVar2())
		}
		l.roots = itemRoots(kids[3], c.AccuVar(), nil)
		t.byStep[c.LoopStep().ID()], t.byRng[c.IterRange().ID()] = l, l
		inner := append(append([]*loop{}, in...), l)
		t.index(kids[0], in)
		t.index(kids[1], in)
		t.index(kids[2], inner)
		t.index(kids[3], inner)
		t.index(kids[4], in)
		return
	}
	for _, k := range kids {
		t.index(k, in)
	}
}

// decorate wraps every planned step of the program so that it records
// its value.
func (t *Trace) decorate(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	switch x := i.(type) {
	case *watchAttr, *watchConst, *watch:
		return i, nil
	case interpreter.InterpretableAttribute:
		return &watchAttr{InterpretableAttribute: x, t: t}, nil
	case interpreter.InterpretableConst:
		return &watchConst{InterpretableConst: x, t: t}, nil
	}
	return &watch{InterpretableV2: i, t: t}, nil
}

func (t *Trace) observe(frame *interpreter.ExecutionFrame, id int64, v ref.Val) {
	ev := event{id: id, val: v}
	for _, l := range t.loops[id] {
		for _, name := range l.vars {
			x, _ := frame.ResolveName(name)
			ev.bound = append(ev.bound, Adapter.NativeToValue(x))
		}
	}
	t.events = append(t.events, ev)
}

type watch struct {
	interpreter.InterpretableV2
	t *Trace
}

func (w *watch) Exec(f *interpreter.ExecutionFrame) ref.Val {
	v := w.InterpretableV2.Exec(f)
	w.t.observe(f, w.ID(), v)
	return v
}

func (w *watch) Eval(a interpreter.Activation) ref.Val { return w.Exec(interpreter.AsFrame(a)) }

type watchAttr struct {
	interpreter.InterpretableAttribute
	t *Trace
}

func (w *watchAttr) Exec(f *interpreter.ExecutionFrame) ref.Val {
	v := w.InterpretableAttribute.Exec(f)
	w.t.observe(f, w.ID(), v)
	return v
}

func (w *watchAttr) Eval(a interpreter.Activation) ref.Val { return w.Exec(interpreter.AsFrame(a)) }

// AddQualifier keeps the watch around the qualified attribute: the
// planner goes on using the value AddQualifier is called on.
func (w *watchAttr) AddQualifier(q interpreter.Qualifier) (interpreter.Attribute, error) {
	_, err := w.InterpretableAttribute.AddQualifier(q)
	return w, err
}

type watchConst struct {
	interpreter.InterpretableConst
	t *Trace
}

func (w *watchConst) Exec(f *interpreter.ExecutionFrame) ref.Val {
	v := w.InterpretableConst.Exec(f)
	w.t.observe(f, w.ID(), v)
	return v
}

func (w *watchConst) Eval(a interpreter.Activation) ref.Val { return w.Exec(interpreter.AsFrame(a)) }

// isHidden reports whether a comprehension's accumulator is the one a
// macro (map, filter, all, ...) makes, not a variable the formula names
// (cel.bind).
func isHidden(name string) bool {
	return name == parser.AccumulatorName || name == parser.HiddenAccumulatorName
}

// itemRoots are the expressions inside a comprehension's step that are
// the formula's own (a map's body, a filter's predicate), not the
// accumulating the macro adds around them.
func itemRoots(e celast.NavigableExpr, accu string, out []int64) []int64 {
	if !readsIdent(e, accu) {
		switch e.Kind() {
		case celast.LiteralKind:
			return out
		case celast.ListKind: // the [body] of accu + [body]
			for _, k := range e.Children() {
				out = itemRoots(k, accu, out)
			}
			return out
		}
		return append(out, e.ID())
	}
	for _, k := range e.Children() {
		out = itemRoots(k, accu, out)
	}
	return out
}

// readsIdent reports whether e reads the variable name, not counting a
// comprehension inside it that binds the same name (nested macros all
// name their accumulator alike).
func readsIdent(e celast.Expr, name string) bool {
	switch e.Kind() {
	case celast.IdentKind:
		return e.AsIdent() == name
	case celast.SelectKind:
		return readsIdent(e.AsSelect().Operand(), name)
	case celast.CallKind:
		c := e.AsCall()
		if c.IsMemberFunction() && readsIdent(c.Target(), name) {
			return true
		}
		for _, a := range c.Args() {
			if readsIdent(a, name) {
				return true
			}
		}
	case celast.ListKind:
		for _, x := range e.AsList().Elements() {
			if readsIdent(x, name) {
				return true
			}
		}
	case celast.MapKind:
		for _, x := range e.AsMap().Entries() {
			me := x.AsMapEntry()
			if readsIdent(me.Key(), name) || readsIdent(me.Value(), name) {
				return true
			}
		}
	case celast.ComprehensionKind:
		c := e.AsComprehension()
		if readsIdent(c.IterRange(), name) || readsIdent(c.AccuInit(), name) {
			return true
		}
		if c.AccuVar() == name || c.IterVar() == name || c.HasIterVar2() && c.IterVar2() == name {
			return false
		}
		return readsIdent(c.LoopCondition(), name) || readsIdent(c.LoopStep(), name) || readsIdent(c.Result(), name)
	}
	return false
}

// machinery reports whether e is part of a comprehension's accumulating
// (it reads a macro's hidden accumulator).
func (t *Trace) machinery(e celast.NavigableExpr) bool {
	for _, l := range t.loops[e.ID()] {
		c := t.nodes[l.id].AsComprehension()
		if readsIdent(e, c.AccuVar()) {
			return true
		}
	}
	return false
}

// Step is one computation of a traced formula: a sub-expression with the
// values of its operands written in place, and its value.
type Step struct {
	// ID is the sub-expression's; Source is it as written (re-printed).
	ID     int64
	Source string
	// Text is the sub-expression with each operand's value in its place.
	Text  string
	Value ref.Val
	// Bound are the item variables of the comprehensions it was computed
	// in, outermost first, with their values at the time.
	Bound []Binding
	// Item is the position of that item in each of those comprehensions.
	Item []int
	// Loop is the innermost comprehension it was computed in (0 for
	// none): the steps of one comprehension's items share it.
	Loop int64
	// Keys is true when the innermost comprehension goes over a map's
	// keys, which have no order: sort its items to show them.
	Keys bool
	// Read is true for an item's value that is a read, not a computation
	// (the t.score of tools.map(t, t.score)).
	Read bool
	// Skipped, when not 0, stands for that many items of a comprehension
	// left out (see Steps).
	Skipped int
}

// Binding is a comprehension's item variable and its value.
type Binding struct {
	Name  string
	Value ref.Val
}

// Steps are the formula's computations in the order they happened:
// every call of an operator or a function whose operands are not all
// mere reads, with the values it saw, and the result of each item of
// each comprehension. format writes a value in place of an operand;
// items past the first maxItems of a comprehension are left out, each
// run of them stood for by one Step with Skipped set.
func (t *Trace) Steps(format func(ref.Val) string, maxItems int) []Step {
	last := map[int64]int{}
	items := map[int64]int{}
	keys := map[int64]bool{}
	var out []Step
	for i, ev := range t.events {
		if i > 0 && t.events[i-1].id == ev.id {
			// A member read is watched both as itself and as the
			// attribute it qualifies: one value.
			last[ev.id] = i
			continue
		}
		prev, seen := last[ev.id]
		if !seen {
			prev = -1
		}
		if l, ok := t.byRng[ev.id]; ok {
			items[l.id] = 0
			_, keys[l.id] = ev.val.(traits.Mapper)
		}
		e := t.nodes[ev.id]
		if e != nil && t.shown(e) {
			st := Step{ID: ev.id, Value: ev.val, Read: !isComputation(e)}
			over := false
			if ls := t.loops[ev.id]; len(ls) > 0 {
				st.Loop = ls[len(ls)-1].id
				st.Keys = keys[st.Loop]
			}
			for j, l := range t.loops[ev.id] {
				st.Item = append(st.Item, items[l.id])
				over = over || items[l.id] >= maxItems
				for k, name := range l.vars {
					if b := boundAt(t.loops[ev.id], j, k); b < len(ev.bound) {
						st.Bound = append(st.Bound, Binding{Name: name, Value: ev.bound[b]})
					}
				}
			}
			if !over {
				st.Source = render(e, nil)
				st.Text = render(e, func(c celast.NavigableExpr) (string, bool) {
					at, ok := last[c.ID()]
					if !ok || at <= prev || at >= i {
						return "", false
					}
					return format(t.events[at].val), true
				})
				out = append(out, st)
			}
		}
		if l, ok := t.byStep[ev.id]; ok {
			items[l.id]++
		}
		if e != nil && e.Kind() == celast.ComprehensionKind {
			if n := items[ev.id]; n > maxItems {
				st := Step{ID: ev.id, Skipped: n - maxItems, Loop: ev.id}
				for _, l := range t.loops[ev.id] {
					st.Item = append(st.Item, items[l.id])
				}
				out = append(out, st)
			}
		}
		last[ev.id] = i
	}
	return out
}

// boundAt is the position in an event's bound values of variable k of
// the j-th comprehension around it.
func boundAt(ls []*loop, j, k int) int {
	n := 0
	for _, l := range ls[:j] {
		n += len(l.vars)
	}
	return n + k
}

// shown reports whether a node's values are steps: a computation, or an
// item's own result in a comprehension.
func (t *Trace) shown(e celast.NavigableExpr) bool {
	if t.machinery(e) {
		return false
	}
	if isComputation(e) {
		return true
	}
	for _, l := range t.loops[e.ID()] {
		for _, r := range l.roots {
			if r == e.ID() && !isItemVar(e, l) {
				return true
			}
		}
	}
	return false
}

func isItemVar(e celast.NavigableExpr, l *loop) bool {
	return e.Kind() == celast.IdentKind && slices.Contains(l.vars, e.AsIdent())
}

// isComputation reports whether e computes something of its own: a call
// that is not a read (an index by a read, an exact literal), not a
// comprehension (its items are the steps).
func isComputation(e celast.NavigableExpr) bool {
	if e.Kind() != celast.CallKind {
		return false
	}
	c := e.AsCall()
	switch c.FunctionName() {
	case "num":
		if len(c.Args()) == 1 && c.Args()[0].Kind() == celast.LiteralKind {
			return false
		}
	case operators.Index, operators.OptIndex:
		return !isRead(c.Args()[0]) || !isRead(c.Args()[1])
	case operators.NotStrictlyFalse:
		return false
	}
	return true
}

// isRead reports whether e only reads: a literal, a variable, a member or
// an index of one by another.
func isRead(e celast.Expr) bool {
	switch e.Kind() {
	case celast.LiteralKind, celast.IdentKind:
		return true
	case celast.SelectKind:
		return !e.AsSelect().IsTestOnly() && isRead(e.AsSelect().Operand())
	case celast.CallKind:
		c := e.AsCall()
		switch c.FunctionName() {
		case operators.Index, operators.OptIndex:
			return isRead(c.Args()[0]) && isRead(c.Args()[1])
		case "num":
			return len(c.Args()) == 1 && c.Args()[0].Kind() == celast.LiteralKind
		}
	}
	return false
}

// render writes e as a formula, with sub(child)'s text in place of each
// operand it has one for.
func render(e celast.NavigableExpr, sub func(celast.NavigableExpr) (string, bool)) string {
	// kid writes an operand; prec is the precedence of the operator it is
	// an operand of (0 for a function's argument), right whether it is
	// the operator's right operand.
	kid := func(c celast.NavigableExpr, prec int, right bool) string {
		if sub != nil {
			if s, ok := sub(c); ok {
				if prec > 0 && strings.HasPrefix(s, "-") {
					return "(" + s + ")"
				}
				return s
			}
		}
		s := render(c, sub)
		if p := precedence(c); p > 0 && prec > 0 && (p > prec || right && p == prec) {
			return "(" + s + ")"
		}
		return s
	}
	kids := e.Children()
	switch e.Kind() {
	case celast.LiteralKind:
		return literal(e.AsLiteral())
	case celast.IdentKind:
		return e.AsIdent()
	case celast.SelectKind:
		s := e.AsSelect()
		if s.IsTestOnly() {
			return "has(" + kid(kids[0], 1, false) + "." + s.FieldName() + ")"
		}
		return kid(kids[0], 1, false) + "." + s.FieldName()
	case celast.ListKind:
		parts := make([]string, len(kids))
		for i, k := range kids {
			parts[i] = kid(k, 0, false)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case celast.MapKind:
		var parts []string
		for _, entry := range e.AsMap().Entries() {
			me := entry.AsMapEntry()
			parts = append(parts, kid(navigate(e, me.Key()), 0, false)+": "+kid(navigate(e, me.Value()), 0, false))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case celast.ComprehensionKind:
		return comprehension(e, kid)
	case celast.CallKind:
		return call(e, kids, kid, sub)
	}
	return "…"
}

// navigate is a map entry's key or value as a node below the map.
func navigate(parent celast.NavigableExpr, e celast.Expr) celast.NavigableExpr {
	for _, k := range parent.Children() {
		if k.ID() == e.ID() {
			return k
		}
	}
	return celast.NavigateExpr(nil, e)
}

func call(e celast.NavigableExpr, kids []celast.NavigableExpr, kid func(celast.NavigableExpr, int, bool) string, sub func(celast.NavigableExpr) (string, bool)) string {
	c := e.AsCall()
	fn := c.FunctionName()
	switch fn {
	case equalsFn:
		fn = operators.Equals
	case notEqualsFn:
		fn = operators.NotEquals
	case "num":
		if len(kids) == 1 && kids[0].Kind() == celast.LiteralKind {
			if s, ok := kids[0].AsLiteral().(types.String); ok {
				if n, err := num.Parse(string(s)); err == nil {
					return n.String()
				}
			}
		}
	case operators.NotStrictlyFalse:
		if len(kids) == 1 {
			return kid(kids[0], 0, false)
		}
	}
	p := operators.Precedence(fn)
	switch {
	case fn == operators.Conditional && len(kids) == 3:
		if sub != nil {
			// With values in place, the branch not taken has none: it
			// is left out, unless it is a mere read (which the planner
			// may fold into the choice, so that neither has a value).
			branch := func(k celast.NavigableExpr) string {
				if _, ok := sub(k); !ok && !isRead(k) {
					return "…"
				}
				return kid(k, p, false)
			}
			return kid(kids[0], p, true) + " ? " + branch(kids[1]) + " : " + branch(kids[2])
		}
		return kid(kids[0], p, true) + " ? " + kid(kids[1], p, false) + " : " + kid(kids[2], p, false)
	case fn == operators.Index && len(kids) == 2:
		return kid(kids[0], 1, false) + "[" + kid(kids[1], 0, false) + "]"
	case fn == operators.LogicalNot && len(kids) == 1:
		return "!" + kid(kids[0], p, false)
	case fn == operators.Negate && len(kids) == 1:
		return "-" + kid(kids[0], p, false)
	}
	if op, ok := operators.FindReverseBinaryOperator(fn); ok && len(kids) == 2 {
		return kid(kids[0], p, false) + " " + op + " " + kid(kids[1], p, true)
	}
	args := kids
	prefix := fn
	if c.IsMemberFunction() && len(kids) > 0 {
		prefix = kid(kids[0], 1, false) + "." + fn
		args = kids[1:]
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = kid(a, 0, false)
	}
	return prefix + "(" + strings.Join(parts, ", ") + ")"
}

// comprehension writes a comprehension as the macro it came from, when
// its shape is one the standard macros make.
func comprehension(e celast.NavigableExpr, kid func(celast.NavigableExpr, int, bool) string) string {
	c := e.AsComprehension()
	kids := e.Children()
	rng, step := kids[0], kids[3]
	vars := c.IterVar()
	if c.HasIterVar2() {
		vars += ", " + c.IterVar2()
	}
	if !isHidden(c.AccuVar()) {
		if len(rng.Children()) == 0 && rng.Kind() == celast.ListKind {
			return "cel.bind(" + c.AccuVar() + ", " + kid(kids[1], 0, false) + ", " + kid(kids[4], 0, false) + ")"
		}
		return "fold(…)"
	}
	roots := itemRoots(step, c.AccuVar(), nil)
	name := "…"
	if step.Kind() == celast.CallKind {
		switch step.AsCall().FunctionName() {
		case operators.Add:
			name = "map"
		case operators.LogicalAnd:
			name = "all"
		case operators.LogicalOr:
			name = "exists"
		case operators.Conditional:
			name = "filter"
			if len(roots) == 2 && !isItemVarOf(step, roots[1], c.IterVar()) {
				name = "map"
			} else if k := step.Children(); len(k) == 3 && k[1].Kind() == celast.CallKind && len(k[1].Children()) == 2 && k[1].Children()[1].Kind() == celast.LiteralKind {
				name = "exists_one"
			}
		}
	}
	parts := []string{vars}
	for _, r := range roots {
		for _, n := range descendants(step) {
			if n.ID() == r {
				parts = append(parts, kid(n, 0, false))
			}
		}
	}
	if name == "filter" && len(parts) > 2 {
		parts = parts[:2]
	}
	return kid(rng, 1, false) + "." + name + "(" + strings.Join(parts, ", ") + ")"
}

// isItemVarOf reports whether the node id below e is the item variable.
func isItemVarOf(e celast.NavigableExpr, id int64, v string) bool {
	for _, n := range descendants(e) {
		if n.ID() == id {
			return n.Kind() == celast.IdentKind && n.AsIdent() == v
		}
	}
	return false
}

func descendants(e celast.NavigableExpr) []celast.NavigableExpr {
	out := []celast.NavigableExpr{e}
	for _, k := range e.Children() {
		out = append(out, descendants(k)...)
	}
	return out
}

// precedence is the precedence of the operator e calls, where a lower
// number binds tighter, as in CEL's grammar; 0 for anything else.
func precedence(e celast.NavigableExpr) int {
	if e.Kind() != celast.CallKind {
		return 0
	}
	switch fn := e.AsCall().FunctionName(); fn {
	case equalsFn:
		return operators.Precedence(operators.Equals)
	case notEqualsFn:
		return operators.Precedence(operators.NotEquals)
	case operators.Index, "num", operators.NotStrictlyFalse:
		return 0
	default:
		return operators.Precedence(fn)
	}
}

var literalEscapes = strings.NewReplacer(`\`, `\\`, "'", `\'`, "\n", `\n`, "\r", `\r`, "\t", `\t`)

func literal(v ref.Val) string {
	switch x := v.(type) {
	case types.String:
		return "'" + literalEscapes.Replace(string(x)) + "'"
	case types.Null:
		return "null"
	case types.Bytes:
		return fmt.Sprintf("b%q", string(x))
	case types.Uint:
		return fmt.Sprintf("%du", uint64(x))
	}
	return fmt.Sprint(v.Value())
}

// Root is the id of the whole formula's expression: the step whose value
// is the formula's.
func (t *Trace) Root() int64 { return t.prg.checked.NativeRep().Expr().ID() }

// orderedVars is an activation whose maps iterate in key order, so that
// a traced evaluation shows a comprehension over a map's keys in the same
// order every time (Go maps have none).
type orderedVars struct{ interpreter.Activation }

func (o orderedVars) ResolveName(name string) (any, bool) {
	v, ok := o.Activation.ResolveName(name)
	if !ok {
		return nil, false
	}
	return ordered(Adapter.NativeToValue(v)), true
}

func ordered(v ref.Val) ref.Val {
	switch x := v.(type) {
	case orderedMap, orderedList, *Record:
		return v
	case traits.Mapper:
		if v.Type() == types.MapType {
			return orderedMap{x}
		}
	case traits.Lister:
		return orderedList{x}
	}
	return v
}

type orderedMap struct{ traits.Mapper }

func (m orderedMap) Get(k ref.Val) ref.Val { return ordered(m.Mapper.Get(k)) }

func (m orderedMap) Find(k ref.Val) (ref.Val, bool) {
	v, ok := m.Mapper.Find(k)
	if ok {
		v = ordered(v)
	}
	return v, ok
}

func (m orderedMap) Iterator() traits.Iterator {
	var keys []ref.Val
	for it := m.Mapper.Iterator(); it.HasNext() == types.True; {
		keys = append(keys, it.Next())
	}
	slices.SortFunc(keys, func(a, b ref.Val) int { return strings.Compare(fmt.Sprint(a.Value()), fmt.Sprint(b.Value())) })
	return types.NewRefValList(Adapter, keys).Iterator()
}

type orderedList struct{ traits.Lister }

func (l orderedList) Get(i ref.Val) ref.Val { return ordered(l.Lister.Get(i)) }

func (l orderedList) Iterator() traits.Iterator {
	var items []ref.Val
	for it := l.Lister.Iterator(); it.HasNext() == types.True; {
		items = append(items, ordered(it.Next()))
	}
	return types.NewRefValList(Adapter, items).Iterator()
}
