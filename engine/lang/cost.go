package lang

import (
	"context"
	"math"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
	"github.com/google/cel-go/parser"
)

// Tracking the cost of every evaluation costs about a quarter of the time
// of scoring. Most formulas cannot come near the limit on most data: the
// cost the tracker would count is bounded by a function of the largest
// string, list or map the formula can see, and every value a check sees
// comes from one definition, so none is longer than the definition's
// canonical JSON. So each formula is estimated once, when it is compiled,
// with CEL's static cost estimator for a ladder of such sizes. Data no
// longer than the largest size whose worst case stays within the limit is
// evaluated without tracking, since the tracker could not have stopped it;
// anything longer is evaluated with tracking. The limit holds either way,
// and which way is taken depends only on the data, never on timing.

// sizeBound is a cost estimator in which every value of the data is at
// most max long.
type sizeBound struct {
	max uint64
	// computed are the variables cel.bind gives a value the formula
	// computed (not a part of the data): their size is not bounded by
	// max, since a formula can double a string or a list through a chain
	// of them.
	computed map[string]bool
	// fixed are the bounds of variables whose value the formula was
	// compiled with (see CompileWith, globalSizes): the longest string,
	// list or map in each.
	fixed map[string]uint64
	// vars are the identifiers, by expression id, that read a variable
	// of the formula, not one a macro or a cel.bind binds (see
	// localBounds): those that read a fixed variable are bounded by
	// it, not by max.
	vars map[int64]bool
	// tools are the identifiers that read the tool variable, by
	// expression id (see toolIdents): the one value a formula sees whose
	// whole length, not only its longest member's, is within max (see
	// walkBounded).
	tools map[int64]bool
	// locals are the identifiers, by expression id, that read a
	// variable a macro or a cel.bind gives a value that need not be a
	// value of the data, with their bound in multiples of max, 0 for
	// none (see localBounds).
	locals map[int64]uint64
	// calls are the paths into calls' results (s.split(',')[0],
	// texts(tool)[0].path), the calls of keepsLength (lower(s)) and of
	// format,
	// by expression id, with their bound in multiples of max, 0 for
	// none (see localBounds): cel-go asks EstimateSize for the size of
	// a call whose function declares none, and what a call returns is
	// no value of the data unless it cannot be longer than what it
	// reads. Other calls are still taken to be values of the data
	// (see localBounds).
	calls map[int64]uint64
	// joined are the bounds of the strings of each list a join or a
	// distinct reads, by the list's expression id (see joinStrings and
	// estimateDistinct); a list not here has none.
	joined map[int64]stringsBound
	// numLists are the bounds of the numbers of each list sum, mean,
	// median, min or max reads, by the list's expression id (see
	// localBounds).
	numLists map[int64]numsBound
	// intStrings and toolItems bound the keys of indexes: string() of
	// an int, and the identifiers that read an item of a macro over the
	// tool, by expression id (see keyBounds).
	intStrings, toolItems map[int64]bool
}

// newSizeBound is the estimator of checked for data at most max long,
// with the variables fixed at the lengths fixed.
func newSizeBound(checked *cel.Ast, max uint64, fixed map[string]uint64) sizeBound {
	b := localBounds(checked, toolIdents(checked))
	b.max, b.computed, b.fixed = max, boundToComputed(checked), fixed
	b.intStrings, b.toolItems = keyBounds(checked, b.tools)
	return b
}

// EstimateSize bounds every value of the data by the same length, and
// knows no bound for a variable bound to a computed value, nor for a
// path through a macro's variable over values the formula computed
// (see localBounds), nor for a call's result, or a path into it, that
// may be longer than the data (see shapes.of): formulas that read one
// are estimated from what cel-go derives of it (a macro's variable has
// the size of its range's elements, when cel-go knows it), and are
// tracked when that has no bound.
func (b sizeBound) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	est, _ := b.estimateSize(n)
	return est
}

// estimateSize is EstimateSize, and whether its bound is the data's
// (max), for a value of the data: not a variable bound to a computed
// value, nor a local or a call's result bounded otherwise (see
// localBounds), nor a fixed variable.
func (b sizeBound) estimateSize(n checker.AstNode) (*checker.SizeEstimate, bool) {
	scale, ok := b.locals[pathRoot(n.Expr()).ID()]
	if !ok {
		scale, ok = b.calls[n.Expr().ID()]
	}
	if ok {
		if scale == 0 || b.max >= math.MaxUint64/scale {
			// What cel-go knows of it, from what the formula made it
			// of (a macro's variable takes the size of its range's
			// elements), or nothing.
			return nil, false
		}
		return &checker.SizeEstimate{Min: 0, Max: scale * b.max}, false
	}
	if e := n.Expr(); len(n.Path()) == 0 && e.Kind() == celast.IdentKind && b.computed[e.AsIdent()] {
		return nil, false
	}
	// A path into a fixed variable, by the identifier that reads it:
	// cel-go names it by its path, as it names a field of a computed
	// value (f().w is "w"), and a cel.bind may take its name for a
	// value of another length (TestFixedVariablesBoundedByTheirValue).
	if root := pathRoot(n.Expr()); root.Kind() == celast.IdentKind && b.vars[root.ID()] {
		if n, ok := b.fixed[root.AsIdent()]; ok {
			return &checker.SizeEstimate{Min: 0, Max: n}, false
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: b.max}, true
}

// boundToComputed are the variables of checked's cel.bind calls whose
// value is not a path into the data (a variable, its fields and
// elements).
func boundToComputed(checked *cel.Ast) map[string]bool {
	out := map[string]bool{}
	celast.PostOrderVisit(checked.NativeRep().Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		if e.Kind() != celast.ComprehensionKind {
			return
		}
		c := e.AsComprehension()
		if c.AccuVar() == parser.AccumulatorName || isDataPath(c.AccuInit()) {
			return
		}
		out[c.AccuVar()] = true
	}))
	return out
}

// toolIdents are the identifiers of checked that read the variable the
// checker types as a tool definition (see Tool), by expression id. A
// name some comprehension of checked binds (a macro's variable, a
// cel.bind) is left out wherever it occurs, even where it names the
// variable: what such a name holds was computed by the formula, and
// mcp.Tool{...} type-checks (only evaluating it fails).
func toolIdents(checked *cel.Ast) map[int64]bool {
	native := checked.NativeRep()
	bound := map[string]bool{}
	var tools []celast.Expr
	celast.PostOrderVisit(native.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		switch e.Kind() {
		case celast.ComprehensionKind:
			c := e.AsComprehension()
			bound[c.IterVar()], bound[c.AccuVar()] = true, true
			if c.HasIterVar2() {
				bound[c.IterVar2()] = true
			}
		case celast.IdentKind:
			if native.GetType(e.ID()).TypeName() == ToolDecl.Name {
				tools = append(tools, e)
			}
		}
	}))
	out := map[int64]bool{}
	for _, e := range tools {
		if !bound[e.AsIdent()] {
			out[e.ID()] = true
		}
	}
	return out
}

// localBounds works out, in one walk of checked, the estimator's
// locals: the identifiers, by expression id, that read a variable a
// macro or a cel.bind binds to a value that need not be a value of the
// data (one in which every string, list and map is at most max long;
// see dataShape), with the bound they have instead, in multiples of
// max: 0 for none. A macro's variable (map, filter, all,
// exists, exists_one, sortBy's) holds an element of its range, a value
// of the data only when the range's elements are (see shapes.of):
// names.map(s, s + s).map(g, ...) reads in g strings twice as long as
// the data's, and estimated as strings of the data such a formula ran
// untracked past the cost limit
// (TestComprehensionOfMadeValuesStaysTracked). A cel.bind's variable is
// the value it is given; one given a value that is no path (a call, a
// concatenation) is left to boundToComputed, as before, and one given a
// path is marked here when the path is not into the data (through a
// macro's variable over computed values). Names are resolved through
// the scopes as CEL resolves them, so a macro's variable that shadows a
// variable of the data, or another macro's, is its own.
//
// Its calls are the paths of checked into what a call returns, its calls
// of keepsLength, and its calls of format (CEL's string extension,
// whose result cel-go sizes not: '%s%s'.format([s, s]) is twice as
// long as s, so it has no bound), by expression id, with their bound
// as shapes.of works it out within their scope: 0 for none. Only values that may
// have a size (see sized) are bounded so. Any other call keeps the
// data's bound: sha256(s), string(n), canonical_json(omit(tool, ...)),
// a conditional, arithmetic the checker types as dyn are no longer
// than the data, or have no size, but shapes cannot tell, and built-in
// formulas read them (TestBuiltinLaddersHold).
//
// The same walk fills the estimator's joined, the lists checked joins
// or deduplicates (l.join(sep), l.distinct()), by expression id, with
// the bound of their strings as
// shapes.stringsOf works it out within their scope, when they have one;
// its numLists, the lists sum, mean, median, min or max read, with the
// bound of their numbers (see numbersOf); and its vars, the
// identifiers that read a variable of the formula, one no macro or
// cel.bind around them binds. It returns the estimator with those and
// tools set.
func localBounds(checked *cel.Ast, tools map[int64]bool) sizeBound {
	sh := shapes{tools: tools}
	b := sizeBound{tools: tools, locals: map[int64]uint64{}, calls: map[int64]uint64{},
		joined: map[int64]stringsBound{}, numLists: map[int64]numsBound{}, vars: map[int64]bool{}}
	var walk func(e celast.Expr, sc *dataScope)
	walk = func(e celast.Expr, sc *dataScope) {
		if e.Kind() == celast.CallKind {
			switch c := e.AsCall(); {
			case c.IsMemberFunction() && (c.FunctionName() == "join" || c.FunctionName() == "distinct"):
				if sb, ok := sh.stringsOf(c.Target(), sc); ok {
					b.joined[c.Target().ID()] = sb
				}
			case !c.IsMemberFunction() && numListFunctions[c.FunctionName()] && len(c.Args()) == 1:
				b.numLists[c.Args()[0].ID()] = sh.numbersOf(c.Args()[0], sc)
			}
		}
		if root := pathRoot(e); root.Kind() == celast.CallKind && (root != e || keepsLength[root.AsCall().FunctionName()] || root.AsCall().FunctionName() == "format") && sized(checked.NativeRep().GetType(e.ID())) {
			b.calls[e.ID()] = sh.of(e, sc).lengthBound()
		}
		switch e.Kind() {
		case celast.IdentKind:
			v := sc.lookup(e.AsIdent())
			if v != nil && v.marked && v.shape != ofData {
				b.locals[e.ID()] = v.shape.bound()
			}
			if v == nil {
				b.vars[e.ID()] = true
			}
		case celast.ComprehensionKind:
			sh.walkComprehension(e.AsComprehension(), sc, walk)
		default:
			eachOperand(e, func(x celast.Expr) { walk(x, sc) })
		}
	}
	walk(checked.NativeRep().Expr(), nil)
	return b
}

// keepsLength are the functions whose result is no longer than what
// they read, the elements of which shapes.call bounds as those of
// their target (see shapes.of for why each qualifies): lowerAscii,
// upperAscii, trim, substring, charAt, reverse and lower, and split,
// each of whose elements is a substring of its target. cel-go's
// estimator knows the size of most of their results (CEL's string
// extensions declare it); where it asks EstimateSize, the result of
// one over a string the formula made (lower(s + s)) has no bound.
var keepsLength = map[string]bool{
	"lowerAscii": true, "upperAscii": true, "trim": true, "substring": true,
	"charAt": true, "reverse": true, "lower": true, "split": true,
}

// sized reports whether a value of type t may have a size that grows
// with what it is made of: a string, bytes, a list, a map, or a value
// whose type the checker leaves open (dyn, a type parameter, an
// optional of one). Booleans, numbers (the language's too), null and
// messages are left with the data's bound, as before: no estimate of a
// function that may read them (their overloads) reads their size.
func sized(t *types.Type) bool {
	switch t.Kind() {
	case types.StringKind, types.BytesKind, types.ListKind, types.MapKind, types.DynKind, types.AnyKind, types.TypeParamKind:
		return true
	case types.OpaqueKind:
		if t.TypeName() == "optional_type" && len(t.Parameters()) == 1 {
			return sized(t.Parameters()[0])
		}
	}
	return false
}

// dataShape is how far a value is bounded as the data is: depth is how
// many times one takes an element (of a list, or a key or a value of a
// map) before every value reached is a value of the data, each string,
// list and map in it at most scale times max long. A value of the data
// is {0, 1}; a list the formula made of the data's values (tools +
// tools, tools.filter(...)) is {1, 1}: its elements are values of the
// data, it need not be one.
type dataShape struct {
	depth int
	scale uint64
}

var (
	// ofData is the shape of a value of the data.
	ofData = dataShape{0, 1}
	// noShape is the shape of a value with no bound in max.
	noShape = dataShape{math.MaxInt, 0}
)

// bound is the bound of a value of shape s, in multiples of max: 0 for
// none.
func (s dataShape) bound() uint64 {
	if s.depth != 0 {
		return 0
	}
	return s.scale
}

// lengthBound is the bound, in multiples of max, of the length of a
// value of shape s that a call returned or holds: 0 for none when s is
// noShape (a string the formula made, s + s); s's bound when it bounds
// the value itself; and, when s bounds only its elements (a group of
// group_by(items, keys), a list of find_all's matches), the data's, as
// before: shapes does not follow how many elements a list has, only how
// long they are, so a group of a list the formula made longer
// (group_by(l + l, keys)[k]) is still taken to be as long as the data.
func (s dataShape) lengthBound() uint64 {
	switch {
	case s == noShape:
		return 0
	case s.depth == 0:
		return s.scale
	}
	return 1
}

// elem is the shape of an element of a value of shape s.
func (s dataShape) elem() dataShape {
	if s == noShape || s.depth == 0 {
		return s
	}
	return dataShape{s.depth - 1, s.scale}
}

// list is the shape of a list (or a map) whose elements have shape s.
func (s dataShape) list() dataShape {
	if s == noShape {
		return s
	}
	return dataShape{s.depth + 1, s.scale}
}

// ofString is the shape of a string made of some of the characters of
// a string of shape s: s when s bounds the string itself, none when it
// bounds only the elements of what it may be (a concatenation s + s).
func (s dataShape) ofString() dataShape {
	if s.depth != 0 {
		return noShape
	}
	return s
}

// join is the shape of a value that has shape s or t.
func (s dataShape) join(t dataShape) dataShape {
	if s == noShape || t == noShape {
		return noShape
	}
	return dataShape{max(s.depth, t.depth), max(s.scale, t.scale)}
}

// shapes works out the shapes of a formula's values (see shapes.of)
// knowing which identifiers read the tool variable (see toolIdents).
type shapes struct {
	tools map[int64]bool
}

// dataScope is a variable a macro or a cel.bind binds, within those
// bound around it (next), with the shape of its value, and whether the
// identifiers that read it are marked (see localBounds).
type dataScope struct {
	name   string
	shape  dataShape
	marked bool
	next   *dataScope
}

// with is sc with the variable name bound inside it.
func (sc *dataScope) with(name string, shape dataShape, marked bool) *dataScope {
	return &dataScope{name: name, shape: shape, marked: marked, next: sc}
}

// lookup is the innermost binding of name, nil when name is a variable
// of the formula (its data) or names none.
func (sc *dataScope) lookup(name string) *dataScope {
	for ; sc != nil; sc = sc.next {
		if sc.name == name {
			return sc
		}
	}
	return nil
}

// walkComprehension walks c's parts with walk, each in the scope it
// is evaluated in: its range and the accumulator's start in sc, its
// loop in sc with the iteration variables (sh.scope), its result there
// too for a cel.bind, else in sc with the accumulator (accuScope).
func (sh shapes) walkComprehension(c celast.ComprehensionExpr, sc *dataScope, walk func(celast.Expr, *dataScope)) {
	walk(c.IterRange(), sc)
	walk(c.AccuInit(), sc)
	inner := sh.scope(c, sc)
	walk(c.LoopCondition(), inner)
	walk(c.LoopStep(), inner)
	if isBindExpr(c) {
		walk(c.Result(), inner)
	} else {
		walk(c.Result(), accuScope(c, sc))
	}
}

// accuScope is the scope of a macro's result: its accumulator, which
// holds what the macro builds and is read by the macro alone, bound
// within sc and left unmarked, as before.
func accuScope(c celast.ComprehensionExpr, sc *dataScope) *dataScope {
	return sc.with(c.AccuVar(), ofData, false)
}

// scope is the scope of c's step and condition (of a
// cel.bind's result too) within sc: a cel.bind's variable with the
// shape of its value, marked only when that is a path (see
// localBounds); a macro's accumulator, and its variables, each with the
// shape of an element of its range (the second variable of a
// two-variable form holds a map's values, or a list's elements; the
// first a key, or an index, whose bound does not matter).
func (sh shapes) scope(c celast.ComprehensionExpr, sc *dataScope) *dataScope {
	if isBindExpr(c) {
		init := c.AccuInit()
		return sc.with(c.AccuVar(), sh.of(init, sc), pathRoot(init).Kind() == celast.IdentKind)
	}
	el := sh.of(c.IterRange(), sc).elem()
	inner := accuScope(c, sc).with(c.IterVar(), el, true)
	if c.HasIterVar2() {
		inner = inner.with(c.IterVar2(), el, true)
	}
	return inner
}

// of is the shape of e evaluated within sc. What keeps the data's
// bound, and why:
//
//   - a variable of the formula: every value of the data is at most max
//     long (the engine's size bound: eval.ValueSize, eval.SizeOf);
//   - a field or an index of a value (x.f, x[i], x.?f, x[?i]): an
//     element of it;
//   - either branch of a conditional; dyn(x), which is x; omit(m, keys),
//     m without some of its keys: no more members, each one of m's;
//   - a list written out ([a, b]) or a map: a list of its elements;
//   - a concatenation l + r: a list of their elements, each an element
//     of l or r (it may be longer than either, its elements are not);
//   - l.slice(i, j), l.distinct(), l.sort(), sortBy
//     (@sortByAssociatedKeys) and unique_by(items, keys): some of the
//     elements of l (of items), in some order;
//   - index_by(items, keys), group_by(items, keys): maps from elements of
//     keys to elements of items, or to lists of them;
//   - params(tool), of a path into the tool variable: each {name,
//     schema, required} holds a property's name, a bool and its schema
//     with local $refs inlined, whose strings and lists are the tool's
//     and whose maps merge what sits beside a $ref with its target (see
//     resolver.resolve): at most every key of the tool's maps, fewer
//     than its canonical JSON's bytes, the engine's bound for the
//     tool's formulas (eval.SizeOf). Of anything else, a merged map may
//     be longer than max: none;
//   - string_values(x) of a value of the data: its strings;
//   - texts(x) of a value of the data: maps of a string of x (text), a
//     bool (key) and a JSON pointer (path), which is longer than x's
//     strings: a key's '~' and '/' are written as two characters, so a
//     path is at most twice as long as the tool's canonical JSON (see
//     escapePointer; textCallEstimate bounds only what texts itself
//     reads), and texts is estimated only for the tool, a string, or a
//     list of strings (walkBounded): scale 2;
//   - find_all(s, re) of a string bounded itself: maps of two offsets
//     and a substring of s (text), under three short keys;
//   - s.lowerAscii(), s.upperAscii(), s.trim(), s.substring(...),
//     s.charAt(i), and each element of s.split(...): at most as many
//     characters as s, some of its own or each mapped to one, when s is
//     bounded itself (not s + s); lower(s), twice s's bound (see
//     shapes.call); x.reverse(): x reordered;
//   - a map or a filter (a macro whose result is a list it appends
//     to): a list of what it appends, as the macro's variables are
//     bound;
//   - a cel.bind: its result.
//
// Anything else has no shape: a string the formula made (s + s), a
// call's result but those above (s.replace(...), l.join(), s.format(...),
// s.quote(), canonical_json(x) and sha256(s) may be longer than what
// they read), a macro that is no map or filter.
func (sh shapes) of(e celast.Expr, sc *dataScope) dataShape {
	switch e.Kind() {
	case celast.IdentKind:
		if v := sc.lookup(e.AsIdent()); v != nil {
			return v.shape
		}
		return ofData
	case celast.SelectKind:
		return sh.of(e.AsSelect().Operand(), sc).elem()
	case celast.ListKind:
		s := ofData
		for _, el := range e.AsList().Elements() {
			s = s.join(sh.of(el, sc))
		}
		return s.list()
	case celast.MapKind:
		s := ofData
		for _, en := range e.AsMap().Entries() {
			me := en.AsMapEntry()
			s = s.join(sh.of(me.Key(), sc)).join(sh.of(me.Value(), sc))
		}
		return s.list()
	case celast.ComprehensionKind:
		c := e.AsComprehension()
		if isBindExpr(c) {
			return sh.of(c.Result(), sh.scope(c, sc))
		}
		return sh.appended(c, sc)
	case celast.CallKind:
		return sh.call(e.AsCall(), sc)
	}
	return noShape
}

// call is the shape of a call (see shapes.of).
func (sh shapes) call(c celast.CallExpr, sc *dataScope) dataShape {
	args := c.Args()
	if c.IsMemberFunction() {
		switch c.FunctionName() {
		case "slice", "distinct", "sort", "@sortByAssociatedKeys":
			return sh.of(c.Target(), sc).elem().list()
		case "reverse":
			// A string's characters, or a list's elements, in the
			// other order: as long as the target, of its elements.
			return sh.of(c.Target(), sc)
		case "lowerAscii", "upperAscii", "trim", "substring", "charAt":
			// CEL's string extensions (version 5): the string's own
			// characters, each mapped to one (lowerAscii, upperAscii
			// change only A-Z, a character for a character), or some
			// of them (trim, substring, charAt): never longer than
			// the target, whatever their other arguments (indexes).
			return sh.of(c.Target(), sc).ofString()
		case "split":
			// Substrings of the target, whatever the separator: each
			// no longer than it (how many there are, cel-go's
			// estimator knows from the target's size).
			return sh.of(c.Target(), sc).ofString().list()
		}
		return noShape
	}
	switch fn := c.FunctionName(); {
	case (fn == operators.Index || fn == operators.OptIndex || fn == operators.OptSelect) && len(args) == 2:
		return sh.of(args[0], sc).elem()
	case fn == operators.Conditional && len(args) == 3:
		return sh.of(args[1], sc).join(sh.of(args[2], sc))
	case (fn == "dyn" || fn == "omit") && len(args) >= 1:
		return sh.of(args[0], sc)
	case fn == operators.Add && len(args) == 2:
		return sh.of(args[0], sc).elem().join(sh.of(args[1], sc).elem()).list()
	case (fn == "slice" || fn == "distinct") && len(args) >= 1:
		// The same functions called as functions.
		return sh.of(args[0], sc).elem().list()
	case fn == "unique_by" && len(args) == 2:
		return sh.of(args[0], sc).elem().list()
	case fn == "index_by" && len(args) == 2:
		return sh.of(args[0], sc).elem().join(sh.of(args[1], sc).elem()).list()
	case fn == "group_by" && len(args) == 2:
		return sh.of(args[0], sc).elem().list().join(sh.of(args[1], sc).elem()).list()
	case fn == "lower" && len(args) == 1:
		// strings.ToLower maps each character to one: the same
		// number of characters, which is what cel-go's size counts,
		// but not always of bytes, which the language's own charges
		// read (pairWork, inCost, distinctCost): U+023A and U+023E
		// take two bytes and their lower case three. Twice the
		// string's bound, the least whole multiple that holds.
		s := sh.of(args[0], sc).ofString()
		if s != noShape {
			s.scale *= 2
		}
		return s
	case fn == "find_all" && len(args) == 2:
		// Maps of two offsets and a substring of s (text), under
		// three short keys.
		return sh.of(args[0], sc).ofString().list().list()
	case fn == "string_values" && len(args) == 1 && sh.of(args[0], sc) == ofData:
		return ofData.list()
	case fn == "params" && len(args) == 1 && sh.readsTool(args[0], sc):
		return ofData.list()
	case fn == "texts" && len(args) >= 1 && sh.of(args[0], sc) == ofData:
		return dataShape{1, 2}
	}
	return noShape
}

// readsTool reports whether e, within sc, is a path into the tool
// variable (see toolIdents) that no macro or cel.bind binds.
func (sh shapes) readsTool(e celast.Expr, sc *dataScope) bool {
	root := pathRoot(e)
	return root.Kind() == celast.IdentKind && sh.tools[root.ID()] && sc.lookup(root.AsIdent()) == nil
}

// appended is the shape of what macro c makes: a list of what its
// step appends, for a map or a filter (an empty list, appended to by
// its step, is its result); noShape for any other macro.
func (sh shapes) appended(c celast.ComprehensionExpr, sc *dataScope) dataShape {
	if init := c.AccuInit(); init.Kind() != celast.ListKind || init.AsList().Size() != 0 {
		return noShape
	}
	if r := c.Result(); r.Kind() != celast.IdentKind || r.AsIdent() != c.AccuVar() {
		return noShape
	}
	inner := sh.scope(c, sc)
	var step func(e celast.Expr) dataShape
	step = func(e celast.Expr) dataShape {
		switch e.Kind() {
		case celast.IdentKind:
			if e.AsIdent() == c.AccuVar() {
				return ofData.list()
			}
		case celast.CallKind:
			call := e.AsCall()
			args := call.Args()
			switch {
			case call.FunctionName() == operators.Conditional && len(args) == 3:
				return step(args[1]).join(step(args[2]))
			case call.FunctionName() == operators.Add && len(args) == 2 && args[1].Kind() == celast.ListKind:
				return step(args[0]).join(sh.of(args[1], inner))
			}
		}
		return noShape
	}
	return step(c.LoopStep())
}

// isBindExpr reports whether c is a cel.bind: a comprehension over an
// empty list that never loops, its variable the accumulator (as cel-go's
// cost estimator tells them apart).
func isBindExpr(c celast.ComprehensionExpr) bool {
	r, cond := c.IterRange(), c.LoopCondition()
	return r.Kind() == celast.ListKind && r.AsList().Size() == 0 &&
		cond.Kind() == celast.LiteralKind && cond.AsLiteral() == types.False &&
		c.AccuVar() != parser.AccumulatorName && c.AccuVar() != parser.HiddenAccumulatorName
}

// maxExprID is the largest expression id in e: a rewrite of a checked
// tree numbers the expressions it adds after it.
func maxExprID(e celast.Expr) int64 {
	var id int64
	celast.PostOrderVisit(e, celast.NewExprVisitor(func(x celast.Expr) { id = max(id, x.ID()) }))
	return id
}

// pathRoot is what a chain of field selections and indexes (x.f, x[i],
// x.?f, x[?i]) starts from: the variable of a path into the data, or
// the expression that is not one.
func pathRoot(e celast.Expr) celast.Expr {
	for {
		switch e.Kind() {
		case celast.SelectKind:
			e = e.AsSelect().Operand()
			continue
		case celast.CallKind:
			c := e.AsCall()
			switch c.FunctionName() {
			case operators.Index, operators.OptIndex, operators.OptSelect:
				if len(c.Args()) == 2 {
					e = c.Args()[0]
					continue
				}
			}
		}
		return e
	}
}

// isData reports whether e is a path into a value of the data (see
// isDataPath): one that starts from a variable of the formula, a
// cel.bind of a path into the data, or a comprehension's variable over
// a range of values of the data.
func (b sizeBound) isData(e celast.Expr) bool {
	_, local := b.locals[pathRoot(e).ID()]
	return isDataPath(e) && !b.computed[rootIdent(e)] && !local
}

// isDataPath reports whether e is a variable or a chain of field and
// index selections on one.
func isDataPath(e celast.Expr) bool {
	for {
		switch e.Kind() {
		case celast.IdentKind:
			return true
		case celast.SelectKind:
			e = e.AsSelect().Operand()
		default:
			return false
		}
	}
}

// trackedProgram is the program of checked under cel-go's cost
// tracker, with opts: its keys read through keyFn (see chargeKeys), and
// the language's calls charged by callCosts. keyFn is bound for this
// program alone (cel.Functions, which cel-go marks deprecated in favour
// of declaring a function in the environment): the environment, whose
// functions a formula may call and the docs list, does not know it.
func trackedProgram(env *cel.Env, checked *cel.Ast, opts ...cel.ProgramOption) (cel.Program, error) {
	a, err := chargeKeys(checked)
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 bound for this program alone, as said above
	return env.Program(a, append(opts, cel.CostTracking(callCosts{}), cel.Functions(keyOverload))...)
}

// callCosts is the tracker's charge of the language's calls whose cost
// grows with what they read, for cel.CostTracking, as EstimateCallCost
// estimates them: == and != (see equalityCost), in (see inCost), the
// key of an index (see keyCost), and exact arithmetic, string() and
// num() of an exact number (see numCallCost).
type callCosts struct{}

// CallCost implements interpreter.ActualCostEstimator: nil, the
// tracker's own charge, for any other call.
func (callCosts) CallCost(function, _ string, args []ref.Val, result ref.Val) *uint64 {
	var (
		c  uint64
		ok bool
	)
	switch {
	case function == keyFn && len(args) == 1:
		c, ok = keyCost(args[0]), true
	case (function == equalsFn || function == notEqualsFn) && len(args) == 2:
		c, ok = equalityCost(args[0], args[1])
	case function == operators.In && len(args) == 2:
		c, ok = inCost(args[0], args[1])
	default:
		c, ok = numCallCost(function, args, result)
	}
	if !ok {
		return nil
	}
	return &c
}

// EstimateCallCost charges the language's own functions what the runtime
// cost tracker charges them, one unit a call but for those whose cost
// grows with what they read (text functions, exact arithmetic, == and
// != of long values, in, an index by a string key: see callCosts,
// equalityEstimate, inEstimate and indexEstimate), so that an estimate
// bounds the tracked cost; what they return is no longer than the data.
func (b sizeBound) EstimateCallCost(function, overloadID string, _ *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if function == "fold" && len(args) == 2 {
		// Reads the string and writes a copy at most maxFoldGrowth times
		// as long.
		est := b.textCallEstimate(function, args[:1])
		if est.ResultSize == nil || est.ResultSize.Max >= math.MaxUint32 {
			return est
		}
		n := est.ResultSize.Max
		return &checker.CallEstimate{
			CostEstimate: checker.CostEstimate{Min: 1, Max: 2 + n/10 + 2 + maxFoldGrowth*n/10 + 1},
			ResultSize:   &checker.SizeEstimate{Min: 0, Max: maxFoldGrowth * n},
		}
	}
	if function == "tally_each_in" && len(args) >= 4 {
		// args: ss, res, [folds,] tests, n[, labels, where].
		// find_all_each_in's reading, on a folded copy when folds are
		// given, and each of at most maxTallyTests tests a pattern
		// reading its matches again, at most maxTallyTestReads times
		// (see tallyTestReads).
		unbounded := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
		est := b.textCallEstimate("find_all_each_in", args[:2])
		grow := uint64(1 + maxTallyTests*maxTallyTestReads)
		if len(args) >= 5 {
			grow *= maxFoldGrowth
		}
		if est.ResultSize == nil || est.CostEstimate.Max >= math.MaxUint64/grow {
			return unbounded
		}
		c := est.CostEstimate.Max * grow
		if len(args) == 7 {
			labels := b.tallyLabelsCost(args[5], args[6])
			if labels >= math.MaxUint64-c {
				return unbounded
			}
			c += labels
		}
		return &checker.CallEstimate{
			CostEstimate: checker.CostEstimate{Min: 1, Max: c},
			ResultSize:   est.ResultSize,
		}
	}
	if textFunctionNames[function] {
		return b.textCallEstimate(function, args)
	}
	if function == operators.Index || function == operators.OptIndex {
		return b.indexEstimate(args)
	}
	if est, ok := numCallEstimate(b, overloadID, args); ok {
		return est
	}
	if function == equalsFn || function == notEqualsFn {
		return b.equalityEstimate(args)
	}
	if function == operators.In {
		return b.inEstimate(args)
	}
	one := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}}
	switch function {
	case "params":
		one.ResultSize = &checker.SizeEstimate{Min: 0, Max: b.max}
		return one
	case "schema_types":
		one.ResultSize = &checker.SizeEstimate{Min: 0, Max: uint64(len(jsonTypes))}
		return one
	case "typed", "nonblank", "nonempty", "is_object", "is_list", "is_string",
		"sum", "mean", "median", "min", "max", "num", "clamp", "round", "efficiency":
		return one
	}
	return nil
}

// tallyLabelsCost bounds what the tracker charges tally_each_in for its
// labels (see ProgramOptions): reading them once for each expression of
// where, of which at most maxTallyTests are read. A list of the data
// holds at most max strings of at most max characters, each costing
// 1 + max/10 to read, and so does a dyn value of the data (a signal, a
// field), which may be such a list (see textCallEstimate); a computed
// list has no bound. The result is math.MaxUint64 when unbounded.
func (b sizeBound) tallyLabelsCost(labels, where checker.AstNode) uint64 {
	exprs := uint64(maxTallyTests)
	if cs := where.ComputedSize(); cs != nil {
		exprs = max(1, min(exprs, cs.Max))
	}
	if !b.isData(labels.Expr()) {
		return math.MaxUint64
	}
	items := b.max
	if cs := labels.ComputedSize(); cs != nil {
		items = min(items, cs.Max)
	}
	if items >= math.MaxUint32 || b.max >= math.MaxUint32 {
		return math.MaxUint64
	}
	read := max(1, items*(1+b.max/10))
	if read >= math.MaxUint64/exprs {
		return math.MaxUint64
	}
	return read * exprs
}

// maxSizeExponent bounds the ladder: data past 2^40 is always tracked.
const maxSizeExponent = 40

// fastLimit returns the largest size (a power of two) for which the
// formula's estimated worst case stays within limit, or 0 if none does.
func fastLimit(env *cel.Env, checked *cel.Ast, limit uint64, fixed map[string]uint64) uint64 {
	b := newSizeBound(checked, 0, fixed)
	// Estimated with each selection charged as the tracker charges it.
	charged := chargeSelections(checked)
	if charged == nil {
		return 0
	}
	fits := func(exp int) bool {
		b.max = 1 << exp
		est, err := env.EstimateCost(charged, b)
		return err == nil && est.Max <= limit
	}
	if !fits(0) {
		return 0
	}
	lo, hi := 0, maxSizeExponent // fits(lo) holds
	if fits(hi) {
		return 1 << hi
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return 1 << lo
}

// EvalSized evaluates the program on data in which no string, list or map
// is longer than size, skipping cost tracking when the formula's static
// estimate for that size is within the cost limit.
func (p *Program) EvalSized(act interpreter.Activation, size uint64) (ref.Val, error) {
	return p.EvalSizedContext(context.Background(), act, size)
}

// Untracked reports whether EvalSized evaluates the program without cost
// tracking on data no longer than size: whether its worst case on such
// data is within its cost limit. cel-go's tracker costs the square of the
// length of a list a comprehension goes through (it searches a stack that
// grows an entry an item), so a formula over every tool of a large
// surface must stay untracked to stay linear.
func (p *Program) Untracked(size uint64) bool {
	return p.fast != nil && size <= p.fastUpTo
}

// EvalSizedContext is EvalSized that stops when ctx is done: a formula
// run with cost tracking looks at ctx every 1,000 steps of a
// comprehension, so Ctrl-C ends even a long one; the untracked path is
// taken only when the formula's worst case is within the cost limit, so
// it ends soon anyway.
func (p *Program) EvalSizedContext(ctx context.Context, act interpreter.Activation, size uint64) (ref.Val, error) {
	return p.evalSized(ctx, act, size, minDataSize)
}

// EvalOnceContext is EvalSizedContext for an evaluation that is one of a
// few, such as a formula over a whole surface: past its static bound, it
// is estimated on its data whatever that data's length, where
// EvalSizedContext estimates a formula so only on data of at least
// minDataSize, to spare the estimate to each of many tools. A surface's
// bound is its longest value, which a list of 10,000 tools stays within
// (10,000 < minDataSize), and a formula tracked over such a list costs
// its square (TestOnceEstimatedOnShortData).
func (p *Program) EvalOnceContext(ctx context.Context, act interpreter.Activation, size uint64) (ref.Val, error) {
	return p.evalSized(ctx, act, size, 0)
}

// evalSized is EvalSizedContext, the formula estimated on its data from
// data of least long on.
func (p *Program) evalSized(ctx context.Context, act interpreter.Activation, size, least uint64) (ref.Val, error) {
	if p.Untracked(size) {
		if p.konst != nil {
			return p.konst.eval(p.fast, act)
		}
		out, _, err := p.fast.Eval(act)
		return out, err
	}
	fits, over := p.fitsOn(act, size, least)
	if fits {
		// Past its static bound, but within its limit on what this
		// data holds (see dataEstimate).
		prg, err := p.data.untracked(p)
		if err != nil {
			return nil, err
		}
		out, _, err := prg.Eval(act)
		return out, err
	}
	if over && size < maxDataSize {
		trackedOverData.Add(1)
	}
	return p.evalContext(ctx, act)
}

// constant holds the value of a formula that reads no variable but those
// fixed when it was compiled (a map of a rubric's weights, a literal):
// it is the same for every tool, so it is computed once, by whichever
// evaluation comes first, and shared by the copies of the formula for
// other cost limits that are constant too (see WithCostLimit). A failure
// is not kept: the next evaluation meets it again.
type constant struct {
	val atomic.Pointer[ref.Val]
}

// eval is the formula's value, computed with prg the first time.
func (c *constant) eval(prg cel.Program, act interpreter.Activation) (ref.Val, error) {
	if v := c.val.Load(); v != nil {
		return *v, nil
	}
	out, _, err := prg.Eval(act)
	if err != nil {
		return out, err
	}
	c.val.Store(&out)
	return out, nil
}

// isConstant reports whether a formula that reads the variables reads
// (see freeVars), of which globals are fixed, always has the same value, and evaluated
// untracked: when it reads none but fixed ones, and their values fit the
// size up to which it is evaluated untracked (fastUpTo), so that no
// tracker could have stopped it. Their weight bounds the length of any
// string, list or map in them.
func isConstant(reads map[string]bool, globals Vars, fastUpTo uint64) bool {
	for name := range reads {
		v, ok := globals[name]
		if !ok || weightNative(v) > fastUpTo {
			return false
		}
	}
	return fastUpTo > 0
}

// freeVars are the variables checked reads from outside it (see
// freeIdents).
func freeVars(checked *cel.Ast) map[string]bool {
	out := map[string]bool{}
	freeIdents(checked.NativeRep().Expr(), func(name string) { out[name] = true })
	return out
}
