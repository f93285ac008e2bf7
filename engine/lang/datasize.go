package lang

import (
	"math"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	"github.com/rubricmcp/rubric/engine/num"
)

// The static estimate (see sizeBound) bounds every value of the data by
// one length, the tool's canonical JSON: a macro over a tool's
// parameters is estimated as that many items, each that long, the
// square of the tool, and a tool of 25,000 parameters ran such a
// formula tracked, at the square of its parameters (cel-go's tracker
// searches a stack that grows with the iterations; bench/celtracker).
// What the data actually holds bounds it far better: 25,000 items of
// two members each. So a formula that goes through a value of the data
// and whose static estimate does not fit its limit on this data is
// estimated once more, on the data it is evaluated on: each path it
// reads (signals.params, its items, their fields) bounded by the longest
// value at that path there, and each field selection charged as the
// tracker charges it (see chargeSelections).
// It is evaluated untracked when that estimate fits the limit: the
// tracker could not have stopped it. A path into a value that
// evaluations share (a surface's, read by each tool's formula; see
// SharedActivation) is bounded once for each value. Everything the
// static estimate bounds otherwise (values the formula made, calls'
// results, the tool, the fixed variables) keeps that bound, and which
// way is taken depends only on the data.

// trackedOverData counts the evaluations on the tracked path of formulas
// that go through a value of the data (see dataEstimate.over), on data
// of a known bound: those whose tracked cost grows with the square of
// that value though the estimate could look at it.
var trackedOverData atomic.Int64

// TrackedOverData is how many evaluations, since the process started,
// took the tracked path in a formula that goes through a list or a map
// of its data (a macro over a path into a variable) on data of a known
// bound (not one that reads a let not yet computed, whose length is
// unknown until it is): each costs the square of that list under
// cel-go's tracker. For tests and benchmarks that show a kind of data
// is scored in linear time.
func TrackedOverData() int64 { return trackedOverData.Load() }

// maxDataSize bounds the sizes the per-evaluation estimate is tried at:
// past it (an unbounded let, see eval.Unbounded) the formula is tracked.
const maxDataSize = 1 << maxSizeExponent

// minDataSize is the least size the per-evaluation estimate is tried
// at: on shorter data the tracker's square is small (a tool of 64 KiB
// holds some thousands of parameters, whose tracked scan costs a few
// milliseconds), and an estimate that fails costs more than it saves:
// tried on every tool of a surface of 10,000 ordinary ones, it cost
// a built-in rubric whose checks go through every parameter 1.4 times
// its CPU.
const minDataSize = 1 << 16

// dataEstimate is what a formula needs, shared by its copies for every
// cost limit, to be estimated on the data of one evaluation: worked out
// once, at its first evaluation past its static bound.
type dataEstimate struct {
	once sync.Once
	// over is whether the formula has a macro whose range is a path
	// into the data: only such a formula costs the square of its data
	// tracked, so only it is estimated again (the estimate costs about
	// as much as a short formula's evaluation).
	over bool
	// bound is the static estimator, its max set for each evaluation.
	bound sizeBound
	// charged is the formula as it is estimated on the data: the
	// checked formula with the operand of each field selection that
	// cel-go's estimate charges nothing typed as a map, which it
	// charges one (see chargeSelections).
	charged *cel.Ast
	// paths are the expressions whose value is a path into a variable
	// of the data (see dataPathExprs).
	paths map[int64]bool
	// tools are the names of the variables read as the tool (see
	// toolIdents): their paths keep the static bound.
	tools map[string]bool
	// shared are the bounds of the paths into a variable an activation
	// shares between evaluations (see SharedActivation), by path, each
	// a sharedBound: worked out once for each value, not once an
	// evaluation.
	shared sync.Map
	// fast is the formula without tracking, built when first needed.
	fastOnce sync.Once
	fast     cel.Program
	fastErr  error
}

// init works out, for p, what the per-evaluation estimate needs.
func (d *dataEstimate) init(p *Program) {
	d.bound = newSizeBound(p.checked, 0, p.globalSizes())
	d.charged = chargeSelections(p.checked)
	d.paths = dataPathExprs(p.checked)
	d.tools = map[string]bool{}
	celast.PostOrderVisit(p.checked.NativeRep().Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		switch e.Kind() {
		case celast.IdentKind:
			if d.bound.tools[e.ID()] {
				d.tools[e.AsIdent()] = true
			}
		case celast.ComprehensionKind:
			if c := e.AsComprehension(); !isBindExpr(c) && d.paths[c.IterRange().ID()] {
				d.over = true
			}
		}
	}))
}

// untracked is the formula without cost tracking.
func (d *dataEstimate) untracked(p *Program) (cel.Program, error) {
	d.fastOnce.Do(func() {
		if p.fast != nil {
			d.fast = p.fast
			return
		}
		d.fast, d.fastErr = p.env.Program(p.checked, p.withGlobals(cel.EvalOptions(cel.OptOptimize))...)
	})
	return d.fast, d.fastErr
}

// dataEstimate is p's dataEstimate, worked out at its first use; nil
// for a formula made otherwise than by CompileWith.
func (p *Program) dataEstimate() *dataEstimate {
	if d := p.data; d != nil {
		d.once.Do(func() { d.init(p) })
	}
	return p.data
}

// fitsOn reports whether p's cost on the data act holds, no string, list
// or map of which is longer than size, is within p's limit, as the
// estimate with each path bounded by what act holds there gives it;
// and whether p goes through a value of the data (see dataEstimate.over),
// the only formulas it estimates so, on data at least least long (see
// EvalSizedContext and EvalOnceContext).
func (p *Program) fitsOn(act interpreter.Activation, size, least uint64) (fits, over bool) {
	d := p.dataEstimate()
	if d == nil {
		return false, false
	}
	if !d.over || size < least || size >= maxDataSize {
		return false, d.over
	}
	return p.costOn(act, size) <= p.limit, true
}

// costOn is p's estimated cost on the data act holds, no string, list or
// map of which is longer than size, with each path bounded by what act
// holds there (see dataBound); math.MaxUint64 when it has no bound.
func (p *Program) costOn(act interpreter.Activation, size uint64) uint64 {
	d := p.dataEstimate()
	b := &dataBound{sizeBound: d.bound, paths: d.paths, tools: d.tools, act: act, known: map[string]pathBound{}, shared: &d.shared}
	b.sizeBound.max = size
	if d.charged == nil {
		return math.MaxUint64
	}
	b.derived = derivedBounds(p.checked, d.bound.tools, func(path []string) (uint64, bool) {
		if b.tools[path[0]] {
			return 0, false
		}
		pb := b.at(path)
		return pb.n, pb.ok
	})
	est, err := p.env.EstimateCost(d.charged, b)
	if err != nil {
		return math.MaxUint64
	}
	return est.Max
}

// chargeRelativeRoots is a copy of a with each value that is no
// variable and that a field selection or an index reads (what a call
// returns, a list or a map written out, a macro's result) wrapped in
// dyn(), typed as the value, which cel-go's estimate charges a unit
// and nothing else: its tracker charges a unit for such a value, as
// for a variable, when a selection or an index makes an attribute of
// it, and then a unit for the field, where the estimate charged the
// field alone (TestSelectionsEstimatedAsCharged). A value the
// interpreter reads as an attribute already (a variable, a field or an
// element of one, a conditional) is left as it is.
func chargeRelativeRoots(a *celast.AST) *celast.AST {
	out := celast.Copy(a)
	maxID := maxExprID(out.Expr())
	fac := celast.NewExprFactory()
	wrap := func(op celast.Expr) celast.Expr {
		maxID++
		out.SetType(maxID, out.GetType(op.ID()))
		return fac.NewCall(maxID, "dyn", op)
	}
	celast.PostOrderVisit(out.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		switch e.Kind() {
		case celast.SelectKind:
			s := e.AsSelect()
			if !isAttribute(s.Operand()) {
				if s.IsTestOnly() {
					e.SetKindCase(fac.NewPresenceTest(e.ID(), wrap(s.Operand()), s.FieldName()))
				} else {
					e.SetKindCase(fac.NewSelect(e.ID(), wrap(s.Operand()), s.FieldName()))
				}
			}
		case celast.CallKind:
			c := e.AsCall()
			switch c.FunctionName() {
			case operators.Index, operators.OptIndex, operators.OptSelect:
				if args := c.Args(); !c.IsMemberFunction() && len(args) == 2 && !isAttribute(args[0]) {
					e.SetKindCase(fac.NewCall(e.ID(), c.FunctionName(), wrap(args[0]), args[1]))
				}
			}
		}
	}))
	return out
}

// isAttribute reports whether the interpreter reads e as an attribute,
// whose fields and elements it reads as qualifiers at a unit each: a
// variable, a field or an element of an attribute, a conditional.
func isAttribute(e celast.Expr) bool {
	switch e.Kind() {
	case celast.IdentKind, celast.SelectKind:
		return true
	case celast.CallKind:
		switch e.AsCall().FunctionName() {
		case operators.Index, operators.OptIndex, operators.OptSelect, operators.Conditional:
			return !e.AsCall().IsMemberFunction()
		}
	}
	return false
}

// chargeSelections is checked with the operand of each field selection
// whose type is neither a map, a message nor a type parameter typed as
// a map of strings to dyn: nil when it cannot be rebuilt so. cel-go's
// estimate charges a selection on a map, a message or a type parameter
// one unit, and one on anything else (dyn, which is what every field
// of the data is) nothing, where its tracker charges every selection
// one (an attribute's qualifier), so that a chain of n fields in a
// macro over m items was estimated at m units short of n*m
// (TestDataEstimateBoundsItsCharge). Typed as a map, each is estimated
// as it is charged. Nothing else of the estimate reads the operand's
// type: its path, its size and the overloads of the calls around it
// are the same; a value is the operand of one selection or the
// argument of a call, never both.
func chargeSelections(checked *cel.Ast) *cel.Ast {
	native := chargeRelativeRoots(checked.NativeRep())
	pb, err := celast.ToProto(native)
	if err != nil {
		return nil
	}
	asMap, err := types.TypeToExprType(types.NewMapType(types.StringType, types.DynType))
	if err != nil {
		return nil
	}
	celast.PostOrderVisit(native.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		if e.Kind() != celast.SelectKind {
			return
		}
		op := e.AsSelect().Operand()
		switch native.GetType(op.ID()).Kind() {
		case types.MapKind, types.StructKind, types.TypeParamKind:
			return
		}
		pb.TypeMap[op.ID()] = asMap
	}))
	return cel.CheckedExprToAst(pb)
}

// dataBound is sizeBound with each path into a variable of the data
// bounded by the longest value at that path in one evaluation's data
// (act). The estimate is then at least the tracker's charge with no
// margin: each step of cel-go's estimate charges what its tracker does
// on values no longer than those it is given, or more, but for a field
// of a dyn value (see chargeSelections) and split's last piece (see
// splitPieces), both counted (TestDataEstimateBoundsRandomFormulas,
// TestDataEstimateBoundsItsCharge).
type dataBound struct {
	sizeBound
	paths map[int64]bool
	tools map[string]bool
	act   interpreter.Activation
	// known are the bounds of the paths looked into, by path.
	known map[string]pathBound
	// shared are the formula's bounds of paths into shared variables
	// (see dataEstimate.shared).
	shared *sync.Map
	// derived are the bounds of the values the formula derives from
	// the data (see derivedBounds).
	derived derivedSizes
}

// pathBound is the length of the longest value at a path, and whether
// every value there could be looked into.
type pathBound struct {
	n  uint64
	ok bool
}

// EstimateSize is sizeBound's, but for a path into a variable of the
// data, not into the tool, which it bounds by what the data holds there
// (see pathSize).
func (b *dataBound) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	est, ofData := b.sizeBound.estimateSize(n)
	if d, ok := b.derived.self[n.Expr().ID()]; ok && (est == nil || d < est.Max) {
		est = &checker.SizeEstimate{Min: 0, Max: d}
	}
	path := b.dataPath(n)
	if !ofData || path == nil {
		return est
	}
	pb := b.at(path)
	if !pb.ok || pb.n >= est.Max {
		return est
	}
	return &checker.SizeEstimate{Min: 0, Max: pb.n}
}

// dataPath is n's path when n is a path into a variable of the data, not
// into the tool (whose paths keep the static bound): what the data
// bounds; nil otherwise.
func (b *dataBound) dataPath(n checker.AstNode) []string {
	path := n.Path()
	if len(path) == 0 || !b.paths[n.Expr().ID()] || b.tools[path[0]] {
		return nil
	}
	return path
}

// at is the bound of path in the data, looked up once an evaluation.
func (b *dataBound) at(path []string) pathBound {
	return b.measure(pathKey(path), path, leafSize)
}

// stringsAt is the length in bytes of the longest value at path in the
// data, when every value there is a string (see flatString).
func (b *dataBound) stringsAt(path []string) pathBound {
	return b.measure("strings"+pathKey(path), path, flatString)
}

// pathKey is the key of a path in dataBound.known: its steps, none of
// which holds a NUL (see fieldStep), each after one, so that no key
// starts with its variable's name (see stringsAt).
func pathKey(path []string) string {
	var k strings.Builder
	for _, step := range path {
		k.WriteByte(0)
		k.WriteString(step)
	}
	return k.String()
}

// measure is the measure leaf gives the values at path in the data,
// looked up once an evaluation under key.
func (b *dataBound) measure(key string, path []string, leaf func(any) (uint64, bool)) pathBound {
	pb, seen := b.known[key]
	if !seen {
		pb = b.lookupShared(key, path, leaf)
		b.known[key] = pb
	}
	return pb
}

// flatString is the length in bytes of v when it is a string, what
// pairWork reads of one at most; false for anything else.
func flatString(v any) (uint64, bool) {
	switch x := v.(type) {
	case types.String:
		return uint64(len(x)), true
	case string:
		return uint64(len(x)), true
	}
	return 0, false
}

// EstimateCallCost is sizeBound's, but for x in c where c is a path into
// the data (not into the tool) at which every value holds only strings:
// comparing x with each of its n elements reads no more of x than of
// the element, whatever x is (a string pair reads the shorter string; x
// of another kind is a unit a pair), so the pairs read at most n times
// its longest string, where sizeBound needs a bound on x's own weight,
// which a value the formula typed dyn has none of (a word mapped through
// a table of synonyms: TestInDataStringsBoundedByThem). Looked up in c,
// a map, x costs a tenth of its size, as inEstimate has it.
func (b *dataBound) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	est := b.sizeBound.EstimateCallCost(function, overloadID, target, args)
	if function != operators.In || len(args) != 2 {
		return est
	}
	x, c := args[0], args[1]
	path := b.dataPath(c)
	if path == nil {
		return est
	}
	n, ok := knownSize(b, c)
	sx, okx := uint64(1), true
	if sized(x.Type()) {
		sx, okx = knownSize(b, x)
	}
	each := b.stringsAt(append(path[:len(path):len(path)], "@items"))
	if !ok || !okx || !each.ok || n >= math.MaxUint32 || each.n >= math.MaxUint32 {
		return est
	}
	cost := max(tenthCost(sx), n+tenthCost(max(1, n*max(1, each.n))))
	if est != nil && est.Max <= cost {
		return est
	}
	return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: cost}}
}

// SharedActivation is an activation some of whose variables hold the
// same value for every evaluation it serves, a value nothing changes
// while a formula may read it: a surface's values, read by the formulas
// of each of its tools. The per-evaluation estimate bounds a path into
// such a variable once for each value it holds, where it would walk the
// value once an evaluation: a formula of each of N tools that goes
// through a surface's value of N members walked it N times, the square
// of the surface (TestSharedValueWalkedOnce).
type SharedActivation interface {
	interpreter.Activation
	// SharedValue is the value of the variable name as the activation
	// holds it (before adapting it to a formula's value), when it is
	// shared so; false when it is not.
	SharedValue(name string) (any, bool)
}

// sharedBound is the bound of a path into a shared variable (see
// SharedActivation) when it held raw.
type sharedBound struct {
	raw any
	pb  pathBound
}

// lookupShared is lookup, but for a path into a variable the activation
// shares between evaluations, whose bound is kept for the value it
// holds. The entry holds that value, so its identity is never another
// value's.
func (b *dataBound) lookupShared(key string, path []string, leaf func(any) (uint64, bool)) pathBound {
	sa, ok := b.act.(SharedActivation)
	if !ok {
		n, ok := b.lookup(path, leaf)
		return pathBound{n, ok}
	}
	raw, ok := sa.SharedValue(path[0])
	if !ok {
		n, ok := b.lookup(path, leaf)
		return pathBound{n, ok}
	}
	if e, ok := b.shared.Load(key); ok && oneValue(e.(sharedBound).raw, raw) {
		return e.(sharedBound).pb
	}
	n, ok := b.lookup(path, leaf)
	b.shared.Store(key, sharedBound{raw, pathBound{n, ok}})
	return pathBound{n, ok}
}

// oneValue reports whether a and b are one value: the same map, or
// slice of the same elements, or pointer; equal, for a value compared
// by content that holds none of those.
func oneValue(a, b any) bool {
	ra, rb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !ra.IsValid() || !rb.IsValid() || ra.Type() != rb.Type() {
		return false
	}
	switch ra.Kind() {
	case reflect.Map, reflect.Pointer, reflect.UnsafePointer:
		return ra.UnsafePointer() == rb.UnsafePointer()
	case reflect.Slice:
		return ra.UnsafePointer() == rb.UnsafePointer() && ra.Len() == rb.Len()
	case reflect.Interface, reflect.Struct, reflect.Array, reflect.Func, reflect.Chan:
		return false
	}
	return ra.Comparable() && a == b
}

// lookup is the length of the longest value at path in the data, and
// whether the data holds its variable and every value there could be
// looked into.
func (b *dataBound) lookup(path []string, leaf func(any) (uint64, bool)) (uint64, bool) {
	v, ok := b.act.ResolveName(path[0])
	if !ok {
		return 0, false
	}
	return pathFold(v, path[1:], leaf)
}

// pathSize is the length of the longest value at path inside v, as
// cel-go's cost tracker measures a value (a string's characters, no more
// than its bytes; a list's or a map's members; 1 for anything else), an
// exact number by its digits when they are more than the estimate
// gives any number (see numSize), and 0 when v holds nothing there; ok
// is false when v holds a value on the
// way it cannot look into (a message, a type it does not know). The
// steps of path are those of cel-go's estimator: a field of a map, or
// @items and @values (a list's elements, a map's values), @keys (a
// map's keys; a list's indexes and elements, see below) and @indices (a
// list's indexes).
func pathSize(v any, path []string) (uint64, bool) {
	return pathFold(v, path, leafSize)
}

// pathFold is pathSize with leaf measuring each value the path reaches
// (leafSize, or flatString): the largest of their measures, and false
// when leaf fails on one, or when v holds one on the way that pathSize
// cannot look into.
func pathFold(v any, path []string, leaf func(any) (uint64, bool)) (uint64, bool) {
	if len(path) == 0 {
		return leaf(v)
	}
	step, rest := path[0], path[1:]
	out := uint64(0)
	each := func(x any) bool {
		n, ok := pathFold(x, rest, leaf)
		out = max(out, n)
		return ok
	}
	switch step {
	case "@indices":
		return pathFold(types.Int(0), rest, leaf)
	case "@items", "@values", "@keys":
		keys := step == "@keys"
		switch x := v.(type) {
		case types.String, types.Bytes, types.Bool, types.Int, types.Uint, types.Double, types.Null, Num,
			string, []byte, bool, int, int64, uint64, float64, num.Num, nil:
			return 0, true // no members: such a step of it fails
		case traits.Lister:
			// @keys of a list is its elements as well as its
			// indexes: cel-go names a macro's variable over a value
			// it types dyn by @keys, and over a list that variable
			// holds the elements.
			if keys {
				out, _ = pathFold(types.Int(0), rest, leaf)
			}
			for it := x.Iterator(); it.HasNext() == types.True; {
				if !each(it.Next()) {
					return 0, false
				}
			}
			return out, true
		case traits.Mapper:
			for it := x.Iterator(); it.HasNext() == types.True; {
				k := it.Next()
				m := k
				if !keys {
					m = x.Get(k)
				}
				if !each(m) {
					return 0, false
				}
			}
			return out, true
		case ref.Val:
			return 0, false
		}
		r := reflect.ValueOf(v)
		switch r.Kind() {
		case reflect.Slice, reflect.Array:
			if keys {
				out, _ = pathFold(0, rest, leaf)
			}
			for i := range r.Len() {
				if !each(r.Index(i).Interface()) {
					return 0, false
				}
			}
			return out, true
		case reflect.Map:
			for it := r.MapRange(); it.Next(); {
				m := it.Value()
				if keys {
					m = it.Key()
				}
				if !each(m.Interface()) {
					return 0, false
				}
			}
			return out, true
		}
		return 0, false
	}
	if strings.HasPrefix(step, "@") {
		return 0, false
	}
	// A field: of a map, the value under it; of anything else, nothing
	// (selecting it fails), but for what this cannot look into.
	switch x := v.(type) {
	case map[string]any:
		m, ok := x[step]
		if !ok {
			return 0, true
		}
		return pathFold(m, rest, leaf)
	case types.String, types.Bytes, types.Bool, types.Int, types.Uint, types.Double, types.Null, Num,
		string, []byte, bool, int, int64, uint64, float64, num.Num, nil:
		return 0, true
	case traits.Mapper:
		m, found := x.Find(types.String(step))
		if !found {
			if types.IsError(m) {
				return 0, false
			}
			return 0, true
		}
		return pathFold(m, rest, leaf)
	case traits.Lister:
		return 0, true
	case ref.Val:
		return 0, false
	}
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Map:
		if r.Type().Key().Kind() != reflect.String {
			return 0, false
		}
		m := r.MapIndex(reflect.ValueOf(step).Convert(r.Type().Key()))
		if !m.IsValid() {
			return 0, true
		}
		return pathFold(m.Interface(), rest, leaf)
	case reflect.Slice, reflect.Array:
		return 0, true // a Go list, []any or another: no fields
	}
	return 0, false
}

// leafSize is the size cel-go's tracker gives v (see pathSize).
func leafSize(v any) (uint64, bool) {
	switch x := v.(type) {
	case types.String:
		return uint64(len(x)), true
	case types.Bytes:
		return uint64(len(x)), true
	case string:
		return uint64(len(x)), true
	case []byte:
		return uint64(len(x)), true
	case traits.Sizer:
		n, ok := x.Size().(types.Int)
		if !ok || n < 0 {
			return 0, false
		}
		return uint64(n), true
	case *types.Optional:
		// The tracker measures an optional by what it holds.
		if x.HasValue() {
			return leafSize(x.GetValue())
		}
		return 1, true
	case num.Num:
		// An exact number, as the engine's values hold one: the
		// tracker measures it adapted (Num, no Sizer) as 1, and
		// charges the arithmetic on it by its digits (see numDigits).
		return numSize(x), true
	case Num:
		return numSize(x.N), true
	case ref.Val, bool, int, int64, uint64, float64, nil:
		return 1, true
	}
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map, reflect.String:
		return uint64(r.Len()), true
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return 1, true
	}
	return 0, false
}

// dataPathExprs are the expressions of checked, by id, whose value is a
// path into a variable of the formula: the variable, a field or an
// element of such a path (x.f, x[i]), a macro's variable over such a
// path, a cel.bind's of one. cel-go's estimator names such a value by
// its path (AstNode.Path); it names by a path too a field of what a
// call or a cel.bind of a computed value returns (f().x is "x"), which
// is no path into the data and is left out. A comprehension's value is
// never one.
func dataPathExprs(checked *cel.Ast) map[int64]bool {
	out := map[int64]bool{}
	type scope struct {
		name string
		data bool
		next *scope
	}
	with := func(sc *scope, name string, data bool) *scope { return &scope{name, data, sc} }
	var walk func(e celast.Expr, sc *scope) bool
	walk = func(e celast.Expr, sc *scope) bool {
		data := false
		switch e.Kind() {
		case celast.IdentKind:
			data = true
			for v := sc; v != nil; v = v.next {
				if v.name == e.AsIdent() {
					data = v.data
					break
				}
			}
		case celast.SelectKind:
			s := e.AsSelect()
			data = walk(s.Operand(), sc) && !s.IsTestOnly()
		case celast.CallKind:
			c := e.AsCall()
			if c.IsMemberFunction() {
				walk(c.Target(), sc)
			}
			for i, a := range c.Args() {
				if d := walk(a, sc); i == 0 && d {
					data = c.FunctionName() == operators.Index && len(c.Args()) == 2
				}
			}
		case celast.ComprehensionKind:
			c := e.AsComprehension()
			r := walk(c.IterRange(), sc)
			init := walk(c.AccuInit(), sc)
			var inner *scope
			if isBindExpr(c) {
				inner = with(sc, c.AccuVar(), init)
			} else {
				inner = with(with(sc, c.AccuVar(), false), c.IterVar(), r)
				if c.HasIterVar2() {
					inner = with(inner, c.IterVar2(), r)
				}
			}
			walk(c.LoopCondition(), inner)
			walk(c.LoopStep(), inner)
			if isBindExpr(c) {
				walk(c.Result(), inner)
			} else {
				walk(c.Result(), with(sc, c.AccuVar(), false))
			}
		default:
			eachOperand(e, func(x celast.Expr) { walk(x, sc) })
		}
		if data {
			out[e.ID()] = true
		}
		return data
	}
	walk(checked.NativeRep().Expr(), nil)
	return out
}
