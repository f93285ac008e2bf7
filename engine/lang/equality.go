package lang

import (
	"math"

	"github.com/google/cel-go/checker"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/num"
)

// == and != (equalsFn, notEqualsFn) read as much of their operands as
// they hold in common. cel-go's tracker charges its own equality, whose
// overload ids ours share, by the top-level size of the shorter
// operand: a tenth of a unit a character of a string, but the same for
// a list of lists of long strings as for a list of short ones, where
// comparing two lists or two maps compares every pair of members at
// every depth; and it charges two numbers one unit, where comparing two
// exact numbers reads their digits. So the tracker charges the
// language's equality by what it can read (see equalityCost), and the
// estimate bounds that (see sizeBound.equalityEstimate):
//   - two numbers but two ints or two uints: by their digits, as the
//     comparisons (<, <=, >, >=) are (see numCallCost);
//   - two lists of one length, two maps of one size, or two optionals
//     that hold a value: one unit, and a tenth of one for each unit of
//     the work of comparing them member by member at every depth (see
//     pairWork);
//   - anything else as cel-go charges it: a tenth of a unit for each
//     unit of the smaller operand's size (the shorter string's
//     characters, the shorter list's elements, at least one unit for
//     two scalars), though two containers of different sizes or two
//     values of different kinds compare in one step.
//
// The engine bounds the data by its longest string, list or map, not by
// its whole (see eval.ValueSize), so the estimate knows how much two
// lists or maps may hold only for the tool (whose whole canonical JSON
// is within the bound), a list or a map of the data's strings or
// scalars, and a constant written out. A formula that compares two
// values the checker types dyn, neither of which is one of those
// (e.server == signals.server), has no estimate and is tracked: either
// may be a list of lists as deep as the data goes.

// equalityCost is what the tracker charges x == y and x != y, when it
// is not cel-go's charge: for two numbers but two ints or two uints, by
// their digits; for two lists of one length, two maps of one size or
// two optionals holding a value, one unit and a tenth of the work of
// comparing them (see pairWork).
// False for anything else, which cel-go charges as it charges its own
// equality (a tenth of the shorter string's length, one unit for
// scalars), as cheaply as before.
func equalityCost(x, y ref.Val) (uint64, bool) {
	if isNumeric(x) && isNumeric(y) {
		if sameWhole(x, y) {
			return 0, false
		}
		return digitsCost(valueDigits(x) + valueDigits(y)), true
	}
	if !sameSizedContainers(x, y) {
		return 0, false
	}
	return tenthCost(pairWork(x, y)), true
}

// tenthCost is one unit and a tenth of one for each unit of w, rounded
// up.
func tenthCost(w uint64) uint64 {
	if w >= math.MaxUint64-10 {
		return math.MaxUint64
	}
	return 1 + (w+9)/10
}

// sameSizedContainers reports whether x and y are two lists of one
// length, two maps of one size or two optionals that both hold a value:
// the only values whose equality compares what they hold (lists and maps
// of different sizes are unequal at once, as is an empty optional with
// any other). cel-go sizes an optional by what it holds, so it charged
// two optionals of lists of lists as it charged the outer lists.
func sameSizedContainers(x, y ref.Val) bool {
	switch a := x.(type) {
	case *types.Optional:
		b, ok := y.(*types.Optional)
		return ok && a.HasValue() && b.HasValue()
	case traits.Lister:
		b, ok := y.(traits.Lister)
		return ok && a.Size() == b.Size()
	case traits.Mapper:
		b, ok := y.(traits.Mapper)
		return ok && a.Size() == b.Size()
	}
	return false
}

// pairWork is the work of comparing x and y as equality does, when it
// goes through every member (it stops at the first pair that differs):
// two strings or two bytes, the shorter's length; two numbers, one unit
// when both have no more digits than a double (a comparison of bounded
// cost), and their digits together when one has more (comparing exact
// numbers reads both: see numDigits); two lists of one length, a unit
// and the work of each pair of elements at one index; two maps of one
// size, a unit, the length of each key of both (the one whose keys
// equality goes through hashes each to look it up in the other, until
// one is missing) and, for each key of x that y has, the work of the
// pair of values under it; a unit for anything else (different kinds,
// different sizes, scalars). Each pair reads parts of x and y that no
// other pair reads, so the work is at most the weight of x and y
// together (see weightBound) when neither holds a number longer than a
// double (a short number compared with a long one counts a double's
// digits, where its weight is one: weightBound bounds no value that may
// hold a long number), and at most the weight of the one that holds
// neither a map nor a number (a string pair reads no more than the
// shorter string, a list pair no more pairs than the shorter list has).
// The sum saturates at math.MaxUint64.
func pairWork(x, y any) uint64 {
	x, y = nativeOf(x), nativeOf(y)
	switch a := x.(type) {
	case string:
		if b, ok := y.(string); ok {
			return max(1, uint64(min(len(a), len(b))))
		}
		return 1
	case []byte:
		if b, ok := y.([]byte); ok {
			return max(1, uint64(min(len(a), len(b))))
		}
		return 1
	case []any:
		if b, ok := y.([]any); ok {
			if len(a) != len(b) {
				return 1
			}
			w := uint64(1)
			for i := range a {
				w = weigh(w, 0, pairWork(a[i], b[i]))
			}
			return w
		}
	case map[string]any:
		if b, ok := y.(map[string]any); ok {
			if len(a) != len(b) {
				return 1
			}
			w := uint64(1)
			for k, v := range a {
				var vw uint64
				if u, found := b[k]; found {
					vw = pairWork(v, u)
				}
				w = weigh(w, max(1, uint64(len(k))), vw)
			}
			for k := range b {
				w = weigh(w, max(1, uint64(len(k))), 0)
			}
			return w
		}
	}
	return valuePairWork(Adapter.NativeToValue(x), Adapter.NativeToValue(y))
}

// valuePairWork is pairWork of two formula values that are not both
// decoded JSON of one kind, nor both strings or both bytes.
func valuePairWork(x, y ref.Val) uint64 {
	if isNumeric(x) && isNumeric(y) {
		if d, e := longDigits(x), longDigits(y); d+e > 0 {
			return valueDigits(x) + valueDigits(y)
		}
		return 1
	}
	// Two strings or two bytes came to pairWork as Go strings and
	// []byte (see nativeOf), and never reach here.
	switch a := x.(type) {
	case traits.Lister:
		b, ok := y.(traits.Lister)
		n, isInt := a.Size().(types.Int)
		if !ok || !isInt || a.Size() != b.Size() {
			return 1
		}
		w := uint64(1)
		for i := range int64(n) {
			w = weigh(w, 0, pairWork(a.Get(types.Int(i)), b.Get(types.Int(i))))
		}
		return w
	case traits.Mapper:
		b, ok := y.(traits.Mapper)
		if !ok || a.Size() != b.Size() {
			return 1
		}
		w := uint64(1)
		for it := a.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			var vw uint64
			if u, found := b.Find(k); found {
				v, _ := a.Find(k)
				vw = pairWork(v, u)
			}
			w = weigh(w, keyWork(k), vw)
		}
		for it := b.Iterator(); it.HasNext() == types.True; {
			w = weigh(w, keyWork(it.Next()), 0)
		}
		return w
	case *types.Optional:
		if b, ok := y.(*types.Optional); ok && a.HasValue() && b.HasValue() {
			return weigh(1, 0, pairWork(a.GetValue(), b.GetValue()))
		}
	}
	return 1
}

// keyWork is the work of looking a map's key up: its length for a
// string, which is hashed; a unit for anything else.
func keyWork(k ref.Val) uint64 {
	if s, ok := k.(types.String); ok {
		return max(1, uint64(len(s)))
	}
	return 1
}

// longDigits is the digits of v when it is an exact number longer than
// a double's (see NumSize), 0 otherwise.
func longDigits(v ref.Val) uint64 {
	if n, ok := v.(Num); ok {
		return NumSize(n.N)
	}
	return 0
}

// nativeOf is v as decoded JSON (a string, a []any, a map[string]any),
// or as []byte, when it is a formula value that wraps one, so that pairWork walks
// it without making a formula value of each member; v otherwise.
func nativeOf(v any) any {
	switch x := v.(type) {
	case types.String:
		return string(x)
	case types.Bytes:
		return []byte(x)
	case traits.Lister, traits.Mapper:
		switch n := x.(ref.Val).Value().(type) {
		case []any:
			return n
		case map[string]any:
			return n
		}
	case num.Num:
		return Num{x}
	}
	return v
}

// equalityEstimate is the estimate of x == y and x != y (args): the
// most of what the tracker may charge it (see equalityCost) on values
// of their types within the estimate's bounds. Scalars and strings as
// cel-go estimates them: a tenth of a unit a character of the shorter
// operand's size, at least one; two operands that may both be numbers
// (not two ints or two uints) by their digits, as numCallEstimate
// estimates a comparison; two that may both be containers by the
// bound of their work (see equalityWorkBound). Unbounded when an
// operand that counts has no bound: the formula is then tracked.
func (b sizeBound) equalityEstimate(args []checker.AstNode) *checker.CallEstimate {
	unbounded := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
	if len(args) != 2 {
		return unbounded
	}
	x, y := args[0], args[1]
	sx, okx := b.scalarSize(x)
	sy, oky := b.scalarSize(y)
	var cost uint64
	switch {
	case okx && oky:
		cost = min(sx, sy)
	case okx:
		cost = sx
	case oky:
		cost = sy
	default:
		return unbounded
	}
	cost = max(1, (min(cost, math.MaxUint64-9)+9)/10)
	if mayBeNumber(x.Type()) && mayBeNumber(y.Type()) && !bothWhole(x.Type(), y.Type()) {
		dx, ok1 := operandDigits(b, x)
		dy, ok2 := operandDigits(b, y)
		if !ok1 || !ok2 || dx >= math.MaxUint64/2 || dy >= math.MaxUint64/2 {
			return unbounded
		}
		cost = max(cost, digitsCost(dx+dy))
	}
	if mayBeContainer(x.Type()) && mayBeContainer(y.Type()) {
		w, ok := b.equalityWorkBound(x, y)
		if !ok {
			return unbounded
		}
		cost = max(cost, tenthCost(w))
	}
	return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: cost}}
}

// scalarSize is the size cel-go's tracker measures n by in its charge
// of equality: 1 for a value of a type that has no size (a number, a
// bool, null), the estimate's size bound for any other; false when it
// has none.
func (b sizeBound) scalarSize(n checker.AstNode) (uint64, bool) {
	if !sized(n.Type()) {
		return 1, true
	}
	return knownSize(b, n)
}

// mayBeNumber reports whether a value of type t may be a number.
func mayBeNumber(t *types.Type) bool {
	switch t.Kind() {
	case types.IntKind, types.UintKind, types.DoubleKind, types.DynKind, types.AnyKind, types.TypeParamKind:
		return true
	}
	return t.IsAssignableType(NumType)
}

// bothWhole reports whether t and u are both int or both uint: the
// pairs whose equality stays CEL's own (see sameWhole).
func bothWhole(t, u *types.Type) bool {
	return t.Kind() == u.Kind() && (t.Kind() == types.IntKind || t.Kind() == types.UintKind)
}

// mayBeContainer reports whether a value of type t may be a list, a
// map, a message or an optional: a value whose equality compares what
// it holds.
func mayBeContainer(t *types.Type) bool {
	switch t.Kind() {
	case types.ListKind, types.MapKind, types.DynKind, types.AnyKind, types.TypeParamKind, types.OpaqueKind:
		return true
	case types.StructKind:
		return t.TypeName() != NumType.TypeName()
	}
	return false
}

// equalityWorkBound bounds pairWork of the values of x and y: the
// weight of a constant written out (see constWeight) when one operand
// is one that bounds what it is compared with (every pair then reads no
// more of the other than of it), and otherwise the bounds of both
// operands' weights together (see weightBound); false when one it needs
// has none.
func (b sizeBound) equalityWorkBound(x, y checker.AstNode) (uint64, bool) {
	for _, n := range []checker.AstNode{x, y} {
		if w, bounding, ok := constWeight(n.Expr()); ok && bounding {
			return w, true
		}
	}
	wx, ok1 := b.weightBound(x)
	wy, ok2 := b.weightBound(y)
	if !ok1 || !ok2 || wx >= math.MaxUint64/2 || wy >= math.MaxUint64/2 {
		return 0, false
	}
	return wx + wy, true
}

// weightBound bounds the weight of n's value as pairWork reads it (a
// unit for each value, and each string's length, each key's, each long
// number's digits): for the tool or a path into it, the estimate's
// bound, which bounds the tool's whole canonical JSON (see
// walkBounded), in which every number is a double; for a constant
// written out, its weight; for a list or a map of the data whose
// members are strings or scalars, a unit and a member of the data's
// bound for each of its members (a key and a value for a map); false
// for anything else, whose depth the estimate does not bound.
func (b sizeBound) weightBound(n checker.AstNode) (uint64, bool) {
	if b.intoTool(n.Expr()) {
		return b.max, true
	}
	if w, _, ok := constWeight(n.Expr()); ok {
		return w, true
	}
	if !b.isData(n.Expr()) || b.max >= math.MaxUint32 {
		return 0, false
	}
	t := n.Type()
	items, ok := knownSize(b, n)
	if !ok || items >= math.MaxUint32 {
		return 0, false
	}
	switch ps := t.Parameters(); {
	case t.Kind() == types.ListKind && len(ps) == 1 && flat(ps[0]):
		return 1 + items*(b.max+1), true
	case t.Kind() == types.MapKind && len(ps) == 2 && flat(ps[0]) && flat(ps[1]):
		return 1 + items*(2*b.max+2), true
	}
	return 0, false
}

// constWeight is the weight of e as pairWork reads it when e is a
// constant written out (a literal, or a list or a map of them), and
// whether it bounds what it is compared with: whether it holds neither
// a number (comparing a long number with a short one reads the long
// one) nor a map (comparing two maps hashes the keys of both); false
// when e is none.
func constWeight(e celast.Expr) (w uint64, bounding, ok bool) {
	switch e.Kind() {
	case celast.LiteralKind:
		switch v := e.AsLiteral().(type) {
		case types.String:
			return max(1, uint64(len(v))), true, true
		case types.Bytes:
			return max(1, uint64(len(v))), true, true
		case types.Int, types.Uint, types.Double:
			return 1, false, true
		}
		return 1, true, true
	case celast.ListKind:
		w, bounding = 1, true
		for _, el := range e.AsList().Elements() {
			ew, eb, eok := constWeight(el)
			if !eok {
				return 0, false, false
			}
			w, bounding = w+ew, bounding && eb
		}
		return w, bounding, true
	case celast.MapKind:
		w = 1
		for _, en := range e.AsMap().Entries() {
			me := en.AsMapEntry()
			kw, _, kok := constWeight(me.Key())
			vw, _, vok := constWeight(me.Value())
			if !kok || !vok {
				return 0, false, false
			}
			w += kw + vw
		}
		return w, false, true
	}
	return 0, false, false
}

// `x in l` compares x with each element of l, as == does (cel-go's
// list containment), and `k in m` looks k up in m, hashing it. cel-go's
// tracker charges the first a unit an element, the second a unit, and
// both one unit when the checker could not tell a list from a map (a
// dyn value: the call then has no overload id it knows), where each
// comparison may read long strings or whole containers. So the tracker
// charges `in` by what it reads (see inCost) and the estimate bounds
// that (see sizeBound.inEstimate).

// inCost is what the tracker charges x in c (args): for a list, a unit
// an element and a tenth of one for each unit of the work of comparing
// x with each (see pairWork); for a map and a string key, one unit and
// a tenth of one a byte of the key. False for anything else, which
// cel-go charges.
func inCost(x, c ref.Val) (uint64, bool) {
	switch l := c.(type) {
	case traits.Lister:
		n, ok := l.Size().(types.Int)
		if !ok || n < 0 {
			return 0, false
		}
		var w uint64
		if items, ok := l.Value().([]any); ok {
			for _, e := range items {
				w = weigh(w, 0, pairWork(x, e))
			}
		} else {
			for i := range int64(n) {
				w = weigh(w, 0, pairWork(x, l.Get(types.Int(i))))
			}
		}
		return weigh(uint64(n), 0, tenthCost(w)), true
	case traits.Mapper:
		if s, ok := x.(types.String); ok {
			return tenthCost(uint64(len(s))), true
		}
	}
	return 0, false
}

// inEstimate is the estimate of x in c (args): the most inCost charges
// on values within the estimate's bounds. For a collection that may be
// a list: a unit and a bound on the work of comparing x with each of
// its at most n elements (see inPairBound); for one that may be a map,
// one unit and a tenth of x's size; unbounded when what it needs has no
// bound.
func (b sizeBound) inEstimate(args []checker.AstNode) *checker.CallEstimate {
	unbounded := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
	if len(args) != 2 {
		return unbounded
	}
	x, c := args[0], args[1]
	var cost uint64 = 1
	if k := c.Type().Kind(); k != types.ListKind {
		// It may be a map (or a message), in which x is looked up.
		sx, ok := b.scalarSize(x)
		if !ok {
			return unbounded
		}
		cost = tenthCost(sx)
	}
	if !mayBeList(c.Type()) {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: cost}}
	}
	n, ok := knownSize(b, c)
	if !ok || n >= math.MaxUint32 {
		return unbounded
	}
	w, ok := b.inPairBound(x, c, n)
	if !ok || w >= math.MaxUint64/2 {
		return unbounded
	}
	return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: max(cost, n+tenthCost(w))}}
}

// inPairBound bounds the work of comparing x with each of the at most n
// elements of the list c (see pairWork): n times x's size when x is a
// string or bytes (a pair reads no more of a string than its length),
// or a constant that bounds what it is compared with (see constWeight);
// c's weight when c is such a constant written out; n when x is a bool
// or null, or a number and c's elements are flat (see flat); otherwise
// the bound of x's weight n times and of c's weight (see weightBound),
// each pair reading no more than both its members; false when one it
// needs has none.
func (b sizeBound) inPairBound(x, c checker.AstNode, n uint64) (uint64, bool) {
	t := x.Type()
	mul := func(a uint64) (uint64, bool) {
		if a >= math.MaxUint32 {
			return 0, false
		}
		return max(1, n*a), true
	}
	switch t.Kind() {
	case types.StringKind, types.BytesKind:
		sx, ok := knownSize(b, x)
		if !ok {
			return 0, false
		}
		return mul(max(1, sx))
	case types.BoolKind, types.NullTypeKind:
		return mul(1)
	}
	if w, bounding, ok := constWeight(x.Expr()); ok && bounding {
		return mul(w)
	}
	if w, bounding, ok := constWeight(c.Expr()); ok && bounding {
		// A list written out of constants: a pair reads no more of x
		// than of its element.
		return w, true
	}
	if !mayBeContainer(t) && t.Kind() != types.DynKind {
		// A number: a pair reads more than a unit only with a long
		// number, which a list of ints, uints, doubles or strings
		// does not hold.
		if ps := c.Type().Parameters(); c.Type().Kind() == types.ListKind && len(ps) == 1 && flat(ps[0]) {
			return mul(1)
		}
	}
	wx, ok1 := b.weightBound(x)
	wc, ok2 := b.weightBound(c)
	if !ok1 || !ok2 || wx >= math.MaxUint32 || wc >= math.MaxUint64/2 {
		return 0, false
	}
	return n*wx + wc, true
}

// flat reports whether a value of type t holds neither a container nor
// an exact number: a string, bytes, an int, a uint, a double, a bool or
// null, whose comparison reads no more than its own size (a double
// has no more digits than the estimate gives every number).
func flat(t *types.Type) bool {
	return !mayBeContainer(t) && !t.IsAssignableType(NumType)
}

// mayBeList reports whether a value of type t may be a list: in then
// compares with each of its elements.
func mayBeList(t *types.Type) bool {
	switch t.Kind() {
	case types.ListKind, types.DynKind, types.AnyKind, types.TypeParamKind:
		return true
	}
	return false
}
