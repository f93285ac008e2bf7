package lang

import (
	"strings"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
)

// The per-evaluation estimate (see dataEstimate) bounds a path into the
// data by the longest value the data holds there, but a value the
// formula derives from one (a word of a tool's name, lowered, or a list
// of such words) kept the static bound: the longest value anywhere in
// the data. Over a surface that is its longest description, or its list
// of tools: a formula that went through each tool's words was estimated
// as tools x (words as long as the surface) and tracked, at the square
// of the tools, where each word is as short as the name it came from
// (TestDerivedValuesBoundedByTheirSource). derivedBounds works out, on
// one evaluation's data, how long such a value can be, from the path it
// was taken from.

// derived is what derivedBounds knows of a value: each value depth
// elements into it (an element of a list, or a key or a value of a map)
// is at most n long, as pathSize measures a value (a string's bytes, a
// list's or a map's members); n == 0 when nothing is known. path, when
// set, is the path into the data the value itself is at (depth 0), in
// pathSize's steps. Strings are taken to be valid UTF-8, as the engine
// checks every string it reads: CEL's string functions write an invalid
// byte as U+FFFD, three bytes.
type derived struct {
	depth int
	n     uint64
	path  []string
}

// known reports whether d bounds anything.
func (d derived) known() bool { return d.n > 0 }

// atDepth is d's bound of the values depth elements into the value (at
// depth 0, the value itself), when d has one there.
func (d derived) atDepth(depth int) (uint64, bool) {
	return d.n, d.known() && d.depth == depth
}

// derivedWalk works out derived bounds over one formula, on one
// evaluation's data.
type derivedWalk struct {
	ast *celast.AST
	// tools are the identifiers that read the tool variable, which keep
	// the static bound (see dataEstimate.tools).
	tools map[int64]bool
	// lookup is the longest value at a path of the data, and whether
	// there is one.
	lookup func(path []string) (uint64, bool)
	out    derivedSizes
	// memo is what is known of each expression, by id: an expression
	// has one scope, so one value.
	memo map[int64]derived
}

// derivedSizes are the bounds derivedBounds found, by expression id:
// of the identifiers, fields, indexes and calls whose value itself is
// bounded (self), and of the expressions whose elements are (elems: a
// list of words, each as long as a name at most).
type derivedSizes struct {
	self, elems map[int64]uint64
}

// derivedScope is a variable a macro or a cel.bind binds, with what is
// known of its value.
type derivedScope struct {
	name string
	d    derived
	next *derivedScope
}

// lookup is what is known of the innermost variable name binds; false
// when name is a variable of the formula (of the data) or names none.
func (sc *derivedScope) lookup(name string) (derived, bool) {
	for ; sc != nil; sc = sc.next {
		if sc.name == name {
			return sc.d, true
		}
	}
	return derived{}, false
}

// derivedBounds is, for checked on the data lookup reads, what is known
// of the values the formula derives from paths into the data (see
// derived and derivedSizes).
func derivedBounds(checked *cel.Ast, tools map[int64]bool, lookup func([]string) (uint64, bool)) derivedSizes {
	w := &derivedWalk{ast: checked.NativeRep(), tools: tools, lookup: lookup,
		out: derivedSizes{self: map[int64]uint64{}, elems: map[int64]uint64{}}, memo: map[int64]derived{}}
	w.visit(w.ast.Expr(), nil)
	return w.out
}

// visit works out the bound of every expression of e within sc, and
// keeps those of values bounded themselves.
func (w *derivedWalk) visit(e celast.Expr, sc *derivedScope) {
	switch e.Kind() {
	case celast.ComprehensionKind:
		c := e.AsComprehension()
		w.visit(c.IterRange(), sc)
		w.visit(c.AccuInit(), sc)
		inner := w.scope(c, sc)
		w.visit(c.LoopCondition(), inner)
		w.visit(c.LoopStep(), inner)
		if isBindExpr(c) {
			w.visit(c.Result(), inner)
		} else {
			w.visit(c.Result(), sc.with(c.AccuVar(), derived{}))
		}
	default:
		eachOperand(e, func(x celast.Expr) { w.visit(x, sc) })
	}
	d := w.of(e, sc)
	switch e.Kind() {
	case celast.IdentKind, celast.SelectKind, celast.CallKind:
		if n, ok := d.atDepth(0); ok {
			w.out.self[e.ID()] = n
		}
	}
	if n, ok := d.atDepth(1); ok {
		w.out.elems[e.ID()] = n
	}
}

// with is sc with the variable name bound inside it, to a value d
// tells of.
func (sc *derivedScope) with(name string, d derived) *derivedScope {
	return &derivedScope{name: name, d: d, next: sc}
}

// scope is the scope of c's condition and step (and of a cel.bind's
// result) within sc: a cel.bind's variable holds its value; a macro's
// accumulator is unknown, and its variables each hold an element of its
// range (the first a key or an element, the second a value).
func (w *derivedWalk) scope(c celast.ComprehensionExpr, sc *derivedScope) *derivedScope {
	if isBindExpr(c) {
		return sc.with(c.AccuVar(), w.of(c.AccuInit(), sc))
	}
	r := w.of(c.IterRange(), sc)
	inner := sc.with(c.AccuVar(), derived{})
	if c.HasIterVar2() {
		inner = inner.with(c.IterVar(), w.step(r, "@keys"))
		return inner.with(c.IterVar2(), w.step(r, "@items"))
	}
	// A list's elements, a map's keys: pathSize's @keys bounds both.
	return inner.with(c.IterVar(), w.step(r, "@keys"))
}

// at is the value at path in the data.
func (w *derivedWalk) at(path []string) derived {
	n, ok := w.lookup(path)
	if !ok {
		return derived{}
	}
	// A value of length 0 bounds nothing pathSize reads (an empty
	// string, or no value at all there): one unit for it.
	return derived{n: max(n, 1), path: path}
}

// step is an element of r reached by step (a field name, or one of
// pathSize's steps): at r's path and the step when r is at one; an
// element of a value bounded deeper in; else unknown.
func (w *derivedWalk) step(r derived, step string) derived {
	if r.path != nil {
		return w.at(append(r.path[:len(r.path):len(r.path)], step))
	}
	if r.depth > 0 && r.known() {
		return derived{depth: r.depth - 1, n: r.n}
	}
	return derived{}
}

// of is what is known of e within sc, worked out once for each
// expression (an expression has one scope).
func (w *derivedWalk) of(e celast.Expr, sc *derivedScope) derived {
	if d, ok := w.memo[e.ID()]; ok {
		return d
	}
	d := w.compute(e, sc)
	w.memo[e.ID()] = d
	return d
}

func (w *derivedWalk) compute(e celast.Expr, sc *derivedScope) derived {
	switch e.Kind() {
	case celast.LiteralKind:
		switch v := e.AsLiteral().(type) {
		case types.String:
			// Its bytes: what the language's own charges read of a
			// string (pairWork, inCost), no fewer than its characters.
			return derived{n: max(1, uint64(len(v)))}
		case types.Bytes:
			return derived{n: max(1, uint64(len(v)))}
		}
		return derived{}
	case celast.IdentKind:
		if d, ok := sc.lookup(e.AsIdent()); ok {
			return d
		}
		if w.tools[e.ID()] {
			return derived{}
		}
		return w.at([]string{e.AsIdent()})
	case celast.SelectKind:
		s := e.AsSelect()
		if s.IsTestOnly() {
			return derived{}
		}
		return w.step(w.of(s.Operand(), sc), fieldStep(s.FieldName()))
	case celast.ListKind:
		return w.list(e.AsList().Elements(), sc)
	case celast.ComprehensionKind:
		c := e.AsComprehension()
		if isBindExpr(c) {
			return w.of(c.Result(), w.scope(c, sc))
		}
		return w.appended(c, sc)
	case celast.CallKind:
		return w.call(e, sc)
	}
	return derived{}
}

// list is a list written out of elems: bounded one deeper than they are
// when each is bounded at the same depth.
func (w *derivedWalk) list(elems []celast.Expr, sc *derivedScope) derived {
	if len(elems) == 0 {
		return derived{}
	}
	out := derived{depth: -1}
	for _, el := range elems {
		if out = union(out, w.of(el, sc)); !out.known() {
			return derived{}
		}
	}
	return derived{depth: out.depth + 1, n: out.n}
}

// union is what is known of a value that is a or b: the larger bound,
// when both bound values at one depth; a.depth -1 stands for no value
// yet.
func union(a, b derived) derived {
	switch {
	case a.depth == -1:
		return derived{depth: b.depth, n: b.n}
	case !a.known() || !b.known() || a.depth != b.depth:
		return derived{}
	}
	return derived{depth: a.depth, n: max(a.n, b.n)}
}

// appended is what a map or a filter (a macro whose result is the list
// its step appends to) makes: a list of what it appends.
func (w *derivedWalk) appended(c celast.ComprehensionExpr, sc *derivedScope) derived {
	if init := c.AccuInit(); init.Kind() != celast.ListKind || init.AsList().Size() != 0 {
		return derived{}
	}
	if r := c.Result(); r.Kind() != celast.IdentKind || r.AsIdent() != c.AccuVar() {
		return derived{}
	}
	inner := w.scope(c, sc)
	var step func(e celast.Expr) derived
	step = func(e celast.Expr) derived {
		switch e.Kind() {
		case celast.IdentKind:
			if e.AsIdent() == c.AccuVar() {
				return derived{depth: -1}
			}
		case celast.CallKind:
			call := e.AsCall()
			args := call.Args()
			switch {
			case call.FunctionName() == operators.Conditional && len(args) == 3:
				a, b := step(args[1]), step(args[2])
				if a.depth == -1 {
					return b
				}
				if b.depth == -1 {
					return a
				}
				return union(a, b)
			case call.FunctionName() == operators.Add && len(args) == 2 && args[1].Kind() == celast.ListKind:
				if acc := step(args[0]); acc.depth != -1 {
					return derived{}
				}
				return w.of(args[1], inner)
			}
		}
		return derived{}
	}
	out := step(c.LoopStep())
	if out.depth == -1 {
		// It appends nothing: an empty list.
		return derived{}
	}
	return out
}

// call is what is known of a call's result (see derived): the calls
// below return values no longer than, or made of the elements of, a
// value they read.
func (w *derivedWalk) call(e celast.Expr, sc *derivedScope) derived {
	c := e.AsCall()
	args := c.Args()
	if c.IsMemberFunction() {
		t := w.of(c.Target(), sc)
		switch c.FunctionName() {
		case "lowerAscii", "upperAscii", "trim", "substring", "charAt":
			// Some of the target's characters, each mapped to one of
			// as many bytes (lowerAscii and upperAscii change A-Z
			// alone).
			return stringOf(t)
		case "split":
			if s := stringOf(t); s.known() {
				return derived{depth: 1, n: s.n}
			}
		case "reverse":
			if w.ast.GetType(c.Target().ID()).Kind() == types.StringKind {
				return stringOf(t)
			}
			return w.elementsOf(t)
		case "distinct", "slice", "sort", "@sortByAssociatedKeys":
			return w.elementsOf(t)
		}
		return derived{}
	}
	switch fn := c.FunctionName(); {
	case fn == operators.Index && len(args) == 2:
		if k := args[1]; k.Kind() == celast.LiteralKind {
			if s, ok := k.AsLiteral().(types.String); ok {
				return w.step(w.of(args[0], sc), fieldStep(string(s)))
			}
		}
		return w.step(w.of(args[0], sc), "@items")
	case fn == operators.Conditional && len(args) == 3:
		return union(w.of(args[1], sc), w.of(args[2], sc))
	case fn == operators.Add && len(args) == 2:
		a, b := w.of(args[0], sc), w.of(args[1], sc)
		switch w.ast.GetType(e.ID()).Kind() {
		case types.StringKind, types.BytesKind:
			if x, y := stringOf(a), stringOf(b); x.known() && y.known() {
				return derived{n: x.n + y.n}
			}
		case types.ListKind:
			// The elements of both.
			return union(w.elementsOf(a), w.elementsOf(b))
		}
		return derived{}
	case fn == "dyn" && len(args) == 1:
		return w.of(args[0], sc)
	case fn == "lower" && len(args) == 1:
		// strings.ToLower maps each character to one, which may take a
		// byte more than it did (U+023A and U+023E, two bytes, to three:
		// the only characters it lengthens).
		if s := stringOf(w.of(args[0], sc)); s.known() && s.n < 1<<40 {
			return derived{n: s.n + (s.n+1)/2}
		}
	case (fn == "distinct" || fn == "slice") && len(args) >= 1, fn == "unique_by" && len(args) == 2:
		return w.elementsOf(w.of(args[0], sc))
	case fn == "find_all" && len(args) == 2:
		// Maps of two offsets and a substring of s, under the keys
		// start, end and text: each key or value no longer than s or
		// "start".
		if s := stringOf(w.of(args[0], sc)); s.known() {
			return derived{depth: 2, n: max(s.n, uint64(len("start")))}
		}
	}
	return derived{}
}

// elementsOf is what is known of a list made of some of the elements of
// l, in some order (a sort, a slice, distinct elements): their bound,
// as l's elements have it.
func (w *derivedWalk) elementsOf(l derived) derived {
	if l.path != nil {
		if el := w.step(l, "@items"); el.known() {
			return derived{depth: 1, n: el.n}
		}
		return derived{}
	}
	if l.depth > 0 {
		return derived{depth: l.depth, n: l.n}
	}
	return derived{}
}

// stringOf is what is known of a string made of some of the characters
// of d, each mapped to one: d's bound, when d bounds the value itself.
func stringOf(d derived) derived {
	if n, ok := d.atDepth(0); ok {
		return derived{n: n}
	}
	return derived{}
}

// fieldStep is the step of a path that reads the field name of a map:
// the name itself, but for a name pathSize would read as a step of its
// own (@keys, @items...) or that holds the separator of pathKey, which
// is read as any value of the map (@items), a bound that holds for it.
func fieldStep(name string) string {
	if strings.HasPrefix(name, "@") || strings.Contains(name, "\x00") {
		return "@items"
	}
	return name
}
