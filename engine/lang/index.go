package lang

import (
	"math"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// m[k] and m[?k] look k up in m: hashing it, and comparing it with the
// key found, work that grows with k when it is a string. cel-go plans an
// index as a qualifier of an attribute, not as a call: its tracker
// charges it one unit whatever the key, and never asks callCosts. A
// formula that looks a description of a megabyte up once for each
// parameter of a tool did a megabyte of work for each unit it was
// charged. So the tracked program reads each key it charges (see
// chargedKey) through keyFn, a call that returns its argument and that
// the tracker charges a tenth of a unit a character of a string (see
// keyCost), and the estimate charges such an index one unit and that
// tenth of the key's size (see sizeBound.indexEstimate). A key written
// out in the formula is bounded by its text and is left as it is, as
// is one that cannot be a string, or one that indexes what can only be
// a list. A field selected on a map (m.f, has(m.f), m.?f) is such a key
// written out.

// keyFn is the function the tracked program reads a charged key through
// (see chargeKeys). No formula can call it: the parser takes no name
// that starts with @.
const keyFn = "@rubric_key"

// keyOverload is keyFn's implementation: it returns its argument (an
// error or an unknown reaches it not, and is returned as it is).
var keyOverload = &functions.Overload{Operator: keyFn, Unary: func(v ref.Val) ref.Val { return v }}

// chargedKey reports whether an index of a collection of type coll by
// key, of type keyType, is charged by its key: whether key is not
// written out, may be a string, and coll may be a map.
func chargedKey(coll, keyType *types.Type, key celast.Expr) bool {
	if key.Kind() == celast.LiteralKind || coll.Kind() == types.ListKind {
		return false
	}
	switch keyType.Kind() {
	case types.StringKind, types.DynKind, types.AnyKind, types.TypeParamKind:
		return true
	}
	return false
}

// keyCost is what the tracker charges keyFn of k, on top of the unit of
// the index that reads it: a tenth of a unit a character of a string,
// rounded up; nothing for any other key.
func keyCost(k ref.Val) uint64 {
	if s, ok := k.(types.String); ok {
		return tenthCost(uint64(utf8.RuneCountInString(string(s)))) - 1
	}
	return 0
}

// indexEstimate is the estimate of an index (args: the collection and
// the key) whose key is charged (see chargedKey): one unit and a tenth
// of the key's size (see keySize); two units for a key that is a part
// of an item of a macro over the tool (see keyBounds); unbounded
// when the key has no bound; nil, cel-go's own estimate of one unit,
// for any other index.
func (b sizeBound) indexEstimate(args []checker.AstNode) *checker.CallEstimate {
	if len(args) != 2 || !chargedKey(args[0].Type(), args[1].Type(), args[1].Expr()) {
		return nil
	}
	if key := args[1].Expr(); isDataPath(key) && b.toolItems[pathRoot(key).ID()] {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 2}}
	}
	n, ok := b.keySize(args[1])
	if !ok {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
	}
	return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: tenthCost(n)}}
}

// maxIntDigits is the most characters string() of an int or a uint
// writes: a uint's 20 digits, or a sign and an int's 19.
const maxIntDigits = 20

// keySize bounds the size of the key n: maxIntDigits for string() of an
// int or a uint; otherwise its size as the estimate knows it (see
// scalarSize); false when it has none.
func (b sizeBound) keySize(n checker.AstNode) (uint64, bool) {
	if b.intStrings[n.Expr().ID()] {
		return maxIntDigits, true
	}
	return b.scalarSize(n)
}

// keyBounds are, for the estimate of checked's indexes (see
// indexEstimate), its intStrings, the calls string(x) of an x the
// checker types int or uint, by expression id; and its toolItems, the
// identifiers, by expression id, that read a variable of a macro (not a
// cel.bind) whose range is a path into the tool (tools, see
// toolIdents), resolved through the scopes as CEL resolves them.
//
// A key that is such a variable, or a path into it, is a part of one
// item of that range: the keys of all its iterations are distinct parts
// of the tool's canonical JSON, each in it with at least three more
// bytes (quotes, a separator), so that a tenth of a unit a character of
// each, rounded up, is at most a fifth of the tool's length in all. The
// estimate counts the iterations as the range's bound, the tool's
// length (the tool is bounded by its whole length, see estimateSize):
// one unit an iteration bounds that charge, though a key may be as long
// as the tool. A tenth of its bound each time, as another key is
// charged, would count the tool's length squared in a macro over its
// members (tool.inputSchema.properties.map(k, ...[k])), where a lookup
// of a key the macro read charges its length once.
func keyBounds(checked *cel.Ast, tools map[int64]bool) (intStrings, toolItems map[int64]bool) {
	native := checked.NativeRep()
	intStrings, toolItems = map[int64]bool{}, map[int64]bool{}
	type scope struct {
		name string
		item bool
		next *scope
	}
	lookup := func(sc *scope, name string) *scope {
		for ; sc != nil; sc = sc.next {
			if sc.name == name {
				return sc
			}
		}
		return nil
	}
	var walk func(e celast.Expr, sc *scope)
	walk = func(e celast.Expr, sc *scope) {
		switch e.Kind() {
		case celast.IdentKind:
			if v := lookup(sc, e.AsIdent()); v != nil && v.item {
				toolItems[e.ID()] = true
			}
		case celast.ComprehensionKind:
			c := e.AsComprehension()
			walk(c.IterRange(), sc)
			walk(c.AccuInit(), sc)
			r := c.IterRange()
			root := pathRoot(r)
			overTool := !isBindExpr(c) && isDataPath(r) && root.Kind() == celast.IdentKind &&
				tools[root.ID()] && lookup(sc, root.AsIdent()) == nil
			inner := &scope{c.AccuVar(), false, sc}
			if isBindExpr(c) {
				walk(c.LoopCondition(), inner)
				walk(c.LoopStep(), inner)
				walk(c.Result(), inner)
				return
			}
			inner = &scope{c.IterVar(), overTool, inner}
			if c.HasIterVar2() {
				inner = &scope{c.IterVar2(), overTool, inner}
			}
			walk(c.LoopCondition(), inner)
			walk(c.LoopStep(), inner)
			walk(c.Result(), &scope{c.AccuVar(), false, sc})
		case celast.CallKind:
			c := e.AsCall()
			if c.FunctionName() == "string" && !c.IsMemberFunction() && len(c.Args()) == 1 {
				switch native.GetType(c.Args()[0].ID()).Kind() {
				case types.IntKind, types.UintKind:
					intStrings[e.ID()] = true
				}
			}
			eachOperand(e, func(x celast.Expr) { walk(x, sc) })
		default:
			eachOperand(e, func(x celast.Expr) { walk(x, sc) })
		}
	}
	walk(native.Expr(), nil)
	return intStrings, toolItems
}

// chargeKeys is checked with each key the tracker charges (see
// chargedKey) read through keyFn, for the tracked program; checked
// itself when it has none.
func chargeKeys(checked *cel.Ast) (*cel.Ast, error) {
	native := celast.Copy(checked.NativeRep())
	maxID := maxExprID(native.Expr())
	fac := celast.NewExprFactory()
	changed := false
	celast.PostOrderVisit(native.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		if e.Kind() != celast.CallKind {
			return
		}
		c := e.AsCall()
		fn, args := c.FunctionName(), c.Args()
		if (fn != operators.Index && fn != operators.OptIndex) || c.IsMemberFunction() || len(args) != 2 {
			return
		}
		coll, key := args[0], args[1]
		if !chargedKey(native.GetType(coll.ID()), native.GetType(key.ID()), key) {
			return
		}
		maxID++
		native.SetType(maxID, native.GetType(key.ID()))
		native.SetReference(maxID, celast.NewFunctionReference(keyFn))
		e.SetKindCase(fac.NewCall(e.ID(), fn, coll, fac.NewCall(maxID, keyFn, key)))
		changed = true
	}))
	if !changed {
		return checked, nil
	}
	pb, err := celast.ToProto(native)
	if err != nil {
		return nil, err
	}
	return cel.CheckedExprToAst(pb), nil
}
