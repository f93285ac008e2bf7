package lang

import (
	"context"
	"math"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	celast "github.com/google/cel-go/common/ast"
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
	// fixed are the lengths of variables whose value the formula was
	// compiled with (see CompileWith).
	fixed map[string]uint64
	// tools are the identifiers that read the tool variable, by
	// expression id (see toolIdents): the one value a formula sees whose
	// whole length, not only its longest member's, is within max (see
	// walkBounded).
	tools map[int64]bool
}

// newSizeBound is the estimator of checked for data at most max long,
// with the variables fixed at the lengths fixed.
func newSizeBound(checked *cel.Ast, max uint64, fixed map[string]uint64) sizeBound {
	return sizeBound{max: max, computed: boundToComputed(checked), fixed: fixed, tools: toolIdents(checked)}
}

// EstimateSize bounds every value of the data by the same length, and
// knows no bound for a variable bound to a computed value: formulas that
// read one are estimated from what they do with it, and are tracked when
// that has no bound.
func (b sizeBound) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if e := n.Expr(); len(n.Path()) == 0 && e.Kind() == celast.IdentKind {
		if b.computed[e.AsIdent()] {
			return nil
		}
		if n, ok := b.fixed[e.AsIdent()]; ok {
			return &checker.SizeEstimate{Min: n, Max: n}
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: b.max}
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

// EstimateCallCost charges the language's own functions what the runtime
// cost tracker charges them, one unit a call, so that an estimate bounds
// the tracked cost; what they return is no longer than the data.
func (b sizeBound) EstimateCallCost(function, _ string, _ *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
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
	one := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 1}}
	switch function {
	case "params":
		one.ResultSize = &checker.SizeEstimate{Min: 0, Max: b.max}
		return one
	case "schema_types":
		one.ResultSize = &checker.SizeEstimate{Min: 0, Max: uint64(len(jsonTypes))}
		return one
	case "typed", "nonblank", "nonempty", "is_object", "is_list", "is_string", equalsFn, notEqualsFn,
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
	e := labels.Expr()
	if !isDataPath(e) || b.computed[rootIdent(e)] {
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
	fits := func(exp int) bool {
		b.max = 1 << exp
		est, err := env.EstimateCost(checked, b)
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
	if p.Untracked(size) {
		if p.konst != nil {
			return p.konst.eval(p.fast, act)
		}
		out, _, err := p.fast.Eval(act)
		return out, err
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
