package lang

import (
	"math"
	"math/bits"
	"strings"

	"github.com/google/cel-go/checker"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/engine/num"
)

// Exact numbers have no bound on their digits: squaring one doubles
// them, so ten squarings of a number of 64 digits make one of 65,536,
// and thirty of 2^64 one of 8 GiB. So the language's arithmetic is
// charged, and estimated, by the digits of what it reads, as cel-go
// charges a string by its length: one unit, and one more for each ten
// digits of its operands together (see numCallCost). The estimate sizes
// an exact number by a bound on its digits (see numDigits): a number of
// the data by the data's bound, a literal by its own, a sum by its
// operands' together and one more, a product or a quotient by its
// operands' together, and string() of one by twice its digits and
// fourteen (see numStringLength); ints and doubles by the most they can
// have.

// numDigits bounds the decimal digits of the larger of n's numerator
// and denominator (in lowest terms), from its length in bits: at least
// the digits of that number, and what the tracker charges n by.
func numDigits(n num.Num) uint64 {
	if n.IsInt() && n.Cmp(smallestBig) > 0 && n.Cmp(largestSmall) < 0 {
		// Whole and within an int32: charged as a number of 31 bits.
		return digitsOfBits(31)
	}
	return digitsOfBits(uint64(n.BitLen()))
}

var (
	largestSmall = num.Int(1 << 31)
	smallestBig  = num.Int(-1 << 31)
)

// digitsOfBits bounds the decimal digits of a number of b bits: b times
// a ratio just above log10(2), and one.
func digitsOfBits(b uint64) uint64 {
	return b*1234>>12 + 1
}

// The digits the estimate gives a number of each kind (see numDigits):
// an int or a uint has at most 64 bits; a double, read exactly, at most
// 1,080 (its numerator 309 digits, as 1.8e308's, or its denominator 324,
// as 5e-324's).
var (
	intDigits    = digitsOfBits(64)
	doubleDigits = digitsOfBits(1080)
)

// numSize is the size the estimate gives n, a number of the data or a
// fixed variable, when it bounds the value at its path: 1, as the
// tracker measures any number, when n has no more digits than the
// estimate gives every number already (see operandDigits), and its
// digits when it has more, so that the arithmetic on it is estimated
// by them.
func numSize(n num.Num) uint64 {
	return max(NumSize(n), 1)
}

// NumSize is the size a number counts for in the data bound a formula
// is handed, as a string counts its length: 0 when n has no more digits
// than the estimate gives every number already (a double's most), and
// its digits when it has more, so that a value holding such a number (a
// let, a signal, an answer) is not handed on as short.
func NumSize(n num.Num) uint64 {
	if d := digitsOfBits(uint64(n.BitLen())); d > doubleDigits {
		return d
	}
	return 0
}

// valueDigits is numDigits of a numeric value as the arithmetic reads
// it: an int's, a uint's, a double's bound (its exact value is not
// worked out to charge it), a num's own; 0 for any other value.
func valueDigits(v ref.Val) uint64 {
	switch x := v.(type) {
	case Num:
		return numDigits(x.N)
	case types.Int:
		if x < 0 {
			return digitsOfBits(uint64(bits.Len64(uint64(-x))))
		}
		return digitsOfBits(uint64(bits.Len64(uint64(x))))
	case types.Uint:
		return digitsOfBits(uint64(bits.Len64(uint64(x))))
	case types.Double:
		return doubleDigits
	}
	return 0
}

// digitsCost is what an operation reading numbers of d digits together
// is charged: a unit, and one for each ten digits, as cel-go charges a
// string's traversal.
func digitsCost(d uint64) uint64 {
	if d >= math.MaxUint64-9 {
		return math.MaxUint64
	}
	return 1 + (d+9)/10
}

// numStringLength bounds the length of string() of a number of d
// digits (see numDigits): its digits, a sign and a point with at most
// twelve decimals, or a numerator, a slash and a denominator.
func numStringLength(d uint64) uint64 {
	if d >= math.MaxUint64/4 {
		return math.MaxUint64
	}
	return 2*d + 14
}

// isNumArith reports whether function is one of the language's
// arithmetic operators or comparisons, whose cost grows with the digits
// of their operands when they are exact.
func isNumArith(function string) bool {
	switch function {
	case operators.Add, operators.Subtract, operators.Multiply, operators.Divide,
		operators.Less, operators.LessEquals, operators.Greater, operators.GreaterEquals:
		return true
	}
	return false
}

// numCallCost is what the tracker charges a call of function on args
// that returned result, when it is exact arithmetic: +, -, *, / and the
// comparisons of two numbers other than two ints or two uints, and the
// negation of a num or a double, charged by the digits of their
// operands (see digitsCost); string() of a num by its digits; num() by
// the digits of what it made. False for any other call.
func numCallCost(function string, args []ref.Val, result ref.Val) (uint64, bool) {
	switch {
	case len(args) == 2 && isNumArith(function):
		if !isNumeric(args[0]) || !isNumeric(args[1]) || sameWhole(args[0], args[1]) {
			return 0, false
		}
		return digitsCost(valueDigits(args[0]) + valueDigits(args[1])), true
	case function == operators.Negate && len(args) == 1:
		switch args[0].(type) {
		case Num, types.Double:
			return digitsCost(valueDigits(args[0])), true
		}
	case function == "string" && len(args) == 1:
		if _, ok := args[0].(Num); ok {
			return digitsCost(valueDigits(args[0])), true
		}
	case function == "num" && len(args) == 1:
		if _, ok := result.(Num); ok {
			return digitsCost(valueDigits(result)), true
		}
	}
	return 0, false
}

// numOverloads are the overloads the estimate charges as numCallCost
// does, by their ids: each function of isNumArith over two numbers but
// two ints or two uints, and the negation of a num or a double.
var numOverloads = func() map[string]string {
	out := map[string]string{"negate_double": operators.Negate, "negate_num": operators.Negate}
	fns := map[string]string{"add": operators.Add, "subtract": operators.Subtract, "multiply": operators.Multiply, "divide": operators.Divide,
		"less": operators.Less, "less_equals": operators.LessEquals, "greater": operators.Greater, "greater_equals": operators.GreaterEquals}
	for id, fn := range fns {
		for _, a := range numericTypes {
			for _, b := range numericTypes {
				if a == b && (a == types.IntType || a == types.UintType) && fn != operators.Divide {
					continue
				}
				out[overloadID(id, a, b)] = fn
			}
		}
	}
	return out
}()

// operandDigits is the estimate's bound on the digits of a numeric
// operand (see numDigits): an int's or a uint's most; for a double, a
// num or a value the checker types dyn, the most a double has, or, when
// more, its size as the estimate gives it, taken as the characters of a
// number of the data (a string of c digits has at most c + c/256 + 1
// digits as numDigits counts them) or the digits of one the formula
// computed (see numCallEstimate), whichever it is; an int's most for a
// part of a text function's result, whose size the estimate may not
// know; false for none.
func operandDigits(e checker.CostEstimator, n checker.AstNode) (uint64, bool) {
	switch n.Type().Kind() {
	case types.IntKind, types.UintKind:
		return intDigits, true
	}
	sz, ok := knownSize(e, n)
	if !ok || sz >= math.MaxUint64/4 {
		root := pathRoot(n.Expr())
		for root.Kind() == celast.CallKind && root.AsCall().FunctionName() == "dyn" && len(root.AsCall().Args()) == 1 {
			// As the estimate reads a selection (see chargeRelativeRoots).
			root = pathRoot(root.AsCall().Args()[0])
		}
		if root.Kind() == celast.CallKind && textFunctionNames[root.AsCall().FunctionName()] {
			// A part of what a text function returns (a tally's
			// count): every number it makes is an int.
			return intDigits, true
		}
		return 0, false
	}
	return max(doubleDigits, sz+sz/256+2), true
}

// numCallEstimate is the estimate of a call of the language's exact
// arithmetic (see numOverloads), of string() of a num and of num():
// cost as numCallCost charges it, and the digits of the number it
// makes (see numDigits), or the length of the string; false for any
// other overload.
func numCallEstimate(e checker.CostEstimator, overload string, args []checker.AstNode) (*checker.CallEstimate, bool) {
	unbounded := estimated(math.MaxUint64, math.MaxUint64)
	switch overload {
	case "string_num":
		d, ok := operandDigits(e, args[0])
		if !ok {
			return unbounded, true
		}
		return estimated(digitsCost(d), numStringLength(d)), true
	case "num_num", "num_int", "num_double":
		d, ok := operandDigits(e, args[0])
		if !ok {
			return unbounded, true
		}
		return estimated(digitsCost(d), d), true
	case "num_string":
		// A number written as a string: a literal by the digits it
		// makes; any other by its characters and the most its exponent
		// adds (see num.MaxExponent).
		d, ok := literalDigits(args[0].Expr())
		if !ok {
			if d, ok = operandDigits(e, args[0]); !ok || d >= math.MaxUint64/2 {
				return unbounded, true
			}
			d = d + 2*num.MaxExponent
		}
		return estimated(digitsCost(d), d), true
	}
	if fn, _, ok := strings.Cut(overload, "_list("); ok && numListFunctions[fn] && len(args) == 1 {
		return numListEstimate(e, fn, args[0]), true
	}
	if fn, _, ok := strings.Cut(overload, "_"); ok && numFunctions[fn] {
		return numFunctionEstimate(e, fn, args), true
	}
	fn, ok := numOverloads[overload]
	if !ok {
		return nil, false
	}
	if fn == operators.Negate {
		d, ok := operandDigits(e, args[0])
		if !ok {
			return unbounded, true
		}
		return estimated(digitsCost(d), d), true
	}
	if len(args) != 2 {
		return nil, false
	}
	x, ok1 := operandDigits(e, args[0])
	y, ok2 := operandDigits(e, args[1])
	if !ok1 || !ok2 {
		return unbounded, true
	}
	cost := digitsCost(x + y)
	switch fn {
	case operators.Add, operators.Subtract:
		// a/b + c/d = (ad + cb)/bd: each at most x + y digits, and a
		// carry.
		return estimated(cost, x+y+1), true
	case operators.Multiply, operators.Divide:
		return estimated(cost, x+y), true
	}
	return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: cost}}, true
}

// literalDigits is numDigits of the number a string literal writes,
// when e is one without an exponent (num('0.6'), as the language writes
// every fractional literal); false otherwise.
func literalDigits(e celast.Expr) (uint64, bool) {
	if e.Kind() != celast.LiteralKind {
		return 0, false
	}
	s, ok := e.AsLiteral().(types.String)
	if !ok || len(s) > 1<<16 || num.CheckExponent(string(s)) != nil {
		return 0, false
	}
	n, err := num.Parse(string(s))
	if err != nil {
		return 1, true // num() fails: it makes none
	}
	return numDigits(n), true
}

// numListFunctions are the language's functions of a list of numbers
// (see listFunction).
var numListFunctions = map[string]bool{"sum": true, "mean": true, "median": true, "min": true, "max": true}

// numFunctions are the language's functions of numbers returning one
// (see numericFunction).
var numFunctions = map[string]bool{"clamp": true, "round": true, "efficiency": true}

// numListsSizer is an estimator that bounds the digits of the numbers
// of a list (see localBounds): false when it knows none.
type numListsSizer interface {
	numListDigits(list checker.AstNode) (uint64, bool)
}

// numListDigits is the static estimator's bound on the digits of each
// number of list, the argument of sum, mean, median, min or max: an
// int's or a double's most for a list of them; for one of nums or of
// dyn values, the data's bound in its multiple localBounds worked
// out, as operandDigits takes a size, when it has one.
func (b sizeBound) numListDigits(list checker.AstNode) (uint64, bool) {
	if p := list.Type().Parameters(); list.Type().Kind() == types.ListKind && len(p) == 1 {
		switch p[0].Kind() {
		case types.IntKind, types.UintKind:
			return intDigits, true
		case types.DoubleKind:
			return doubleDigits, true
		}
	}
	nb, ok := b.numLists[list.Expr().ID()]
	if !ok || nb.scale == 0 && nb.fixed == 0 || nb.scale > 0 && b.max >= (math.MaxUint64/4)/nb.scale {
		return 0, false
	}
	sz := nb.scale * b.max
	return max(doubleDigits, sz+sz/256+2, nb.fixed), true
}

// numsBound bounds the numbers of a list: each of the data, at most
// scale times the data's bound long (see numListDigits), or a literal
// of at most fixed digits; none when both are 0.
type numsBound struct {
	scale, fixed uint64
}

// numbersOf is the bound of the numbers of the list e, within sc: for
// a list written out, the longest of its literals (a number, or num()
// of a string) and of its other elements' bounds as shapes works them
// out; for any other list, its elements' bound. None when some element
// has no bound.
func (sh shapes) numbersOf(e celast.Expr, sc *dataScope) numsBound {
	if e.Kind() != celast.ListKind {
		return numsBound{scale: sh.of(e, sc).elem().bound()}
	}
	var out numsBound
	for _, el := range e.AsList().Elements() {
		if el.Kind() == celast.LiteralKind {
			out.fixed = max(out.fixed, intDigits)
			continue
		}
		if c := el.AsCall(); el.Kind() == celast.CallKind && c.FunctionName() == "num" && !c.IsMemberFunction() && len(c.Args()) == 1 {
			if d, ok := literalDigits(c.Args()[0]); ok {
				out.fixed = max(out.fixed, d)
				continue
			}
		}
		scale := sh.of(el, sc).bound()
		if scale == 0 {
			return numsBound{}
		}
		out.scale = max(out.scale, scale)
	}
	return out
}

// numListEstimate is the estimate of fn(list), fn a function of
// numListFunctions: a unit, as the tracker charges it, and the digits
// of what it returns: one of the list's numbers for min and max, the
// mean of two for median, and for sum and mean as many digits as all of
// them together and one more for each (a sum of fractions may have the
// product of their denominators), and a count's for mean's division.
// A list whose numbers have no bound gives a number with none.
func numListEstimate(e checker.CostEstimator, fn string, list checker.AstNode) *checker.CallEstimate {
	unsized := estimated(1, math.MaxUint64)
	sizer, ok := e.(numListsSizer)
	if !ok {
		return unsized
	}
	d, ok := sizer.numListDigits(list)
	if !ok {
		return unsized
	}
	var out uint64
	switch fn {
	case "min", "max":
		out = d
	case "median":
		out = 2*d + 2
	default:
		n, ok := knownSize(e, list)
		if !ok || n >= math.MaxUint32 || d >= math.MaxUint32 {
			return unsized
		}
		out = n*(d+1) + intDigits
	}
	return estimated(1, out)
}

// numFunctionEstimate is the estimate of fn(args...), fn a function of
// numFunctions: a unit, as the tracker charges it, and the digits of
// what it returns: clamp one of its arguments; round(x, d) x's and
// MaxRoundDigits more, and a carry; efficiency(v, i, u) a quotient of
// two differences, (u - v) / (u - i). An argument with no bound gives a
// number with none.
func numFunctionEstimate(e checker.CostEstimator, fn string, args []checker.AstNode) *checker.CallEstimate {
	unsized := estimated(1, math.MaxUint64)
	var ds []uint64
	for _, a := range args {
		if a.Type().Kind() == types.IntKind && fn == "round" && len(ds) == 1 {
			break // round's digits
		}
		d, ok := operandDigits(e, a)
		if !ok || d >= math.MaxUint32 {
			return unsized
		}
		ds = append(ds, d)
	}
	var out uint64
	switch {
	case fn == "clamp" && len(ds) == 3:
		out = max(ds[0], ds[1], ds[2])
	case fn == "round" && len(ds) == 1:
		out = ds[0] + MaxRoundDigits + 4
	case fn == "efficiency" && len(ds) == 3:
		out = 2*ds[2] + ds[0] + ds[1] + 2
	default:
		return unsized
	}
	return estimated(1, out)
}

// estimated is the estimate of a call that costs from one unit to cost
// and returns a value at most size long.
func estimated(cost, size uint64) *checker.CallEstimate {
	return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: cost}, ResultSize: &checker.SizeEstimate{Min: 0, Max: size}}
}
