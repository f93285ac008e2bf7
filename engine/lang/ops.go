package lang

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/num"
)

// The rubric language replaces CEL's arithmetic, comparison and equality
// operators. Whole numbers still add, subtract, multiply and take remainders
// as ints (counts and indexes), but any arithmetic that involves a num or a
// double, and every division, is exact: 1/3 is one third, not 0, and
// 0.1 + 0.2 == 0.3. Comparisons and equality across numeric types are exact.

var numericTypes = []*cel.Type{cel.IntType, cel.UintType, cel.DoubleType, NumType}

// The functions that == and != become (see Compile); '@' keeps them out of
// reach of formula authors.
const (
	equalsFn    = "@eq"
	notEqualsFn = "@ne"
)

// replacedOperators are removed from CEL's standard library and declared
// again by operatorOptions.
var replacedOperators = []string{
	operators.Add, operators.Subtract, operators.Multiply, operators.Divide,
	operators.Modulo, operators.Negate,
	operators.Less, operators.LessEquals, operators.Greater, operators.GreaterEquals,
	operators.Equals, operators.NotEquals,
}

func overloadID(fn string, ts ...*cel.Type) string {
	id := fn
	for _, t := range ts {
		id += "_" + t.String()
	}
	return id
}

// numericPairs declares fn over every pair of numeric types; same-typed int
// and uint pairs keep their own type, everything else yields a num.
func numericPairs(fn string, intResult bool) []cel.FunctionOpt {
	var opts []cel.FunctionOpt
	for _, a := range numericTypes {
		for _, b := range numericTypes {
			res := NumType
			if intResult && a == b && (a == cel.IntType || a == cel.UintType) {
				res = a
			}
			opts = append(opts, cel.Overload(overloadID(fn, a, b), []*cel.Type{a, b}, res))
		}
	}
	return opts
}

func comparisons(fn string) []cel.FunctionOpt {
	var opts []cel.FunctionOpt
	for _, a := range numericTypes {
		for _, b := range numericTypes {
			opts = append(opts, cel.Overload(overloadID(fn, a, b), []*cel.Type{a, b}, cel.BoolType))
		}
	}
	for _, t := range []*cel.Type{cel.StringType, cel.BytesType, cel.BoolType, cel.TimestampType, cel.DurationType} {
		opts = append(opts, cel.Overload(overloadID(fn, t, t), []*cel.Type{t, t}, cel.BoolType))
	}
	return opts
}

func operatorOptions() []cel.EnvOption {
	a := cel.TypeParamType("A")
	listA := cel.ListType(a)

	add := numericPairs("add", true)
	add = append(add,
		cel.Overload("add_string", []*cel.Type{cel.StringType, cel.StringType}, cel.StringType),
		cel.Overload("add_bytes", []*cel.Type{cel.BytesType, cel.BytesType}, cel.BytesType),
		cel.Overload("add_list", []*cel.Type{listA, listA}, listA),
		cel.SingletonBinaryBinding(addOp))

	// Equality takes any two values, as CEL's heterogeneous equality does at
	// run time; numbers of different types compare exactly. CEL's evaluator
	// handles == and != itself, so Compile renames them to these functions.
	eq := []cel.FunctionOpt{cel.Overload("equals", []*cel.Type{cel.DynType, cel.DynType}, cel.BoolType)}
	ne := []cel.FunctionOpt{cel.Overload("not_equals", []*cel.Type{cel.DynType, cel.DynType}, cel.BoolType)}
	eq = append(eq, cel.SingletonBinaryBinding(equalOp))
	ne = append(ne, cel.SingletonBinaryBinding(func(l, r ref.Val) ref.Val {
		if b, ok := equalOp(l, r).(types.Bool); ok {
			return !b
		}
		return equalOp(l, r)
	}))

	neg := []cel.FunctionOpt{
		cel.Overload("negate_int", []*cel.Type{cel.IntType}, cel.IntType),
		cel.Overload("negate_double", []*cel.Type{cel.DoubleType}, NumType),
		cel.Overload("negate_num", []*cel.Type{NumType}, NumType),
		cel.SingletonUnaryBinding(negOp),
	}

	opts := []cel.EnvOption{
		cel.Function(operators.Add, add...),
		cel.Function(operators.Subtract, append(numericPairs("subtract", true), cel.SingletonBinaryBinding(arith(func(x, y ref.Val) ref.Val { return x.(traits.Subtractor).Subtract(y) }, subNum)))...),
		cel.Function(operators.Multiply, append(numericPairs("multiply", true), cel.SingletonBinaryBinding(arith(func(x, y ref.Val) ref.Val { return x.(traits.Multiplier).Multiply(y) }, mulNum)))...),
		cel.Function(operators.Divide, append(numericPairs("divide", false), cel.SingletonBinaryBinding(divOp))...),
		cel.Function(operators.Modulo,
			cel.Overload("modulo_int", []*cel.Type{cel.IntType, cel.IntType}, cel.IntType),
			cel.Overload("modulo_uint", []*cel.Type{cel.UintType, cel.UintType}, cel.UintType),
			cel.SingletonBinaryBinding(func(x, y ref.Val) ref.Val {
				m, ok := x.(traits.Modder)
				if !ok {
					return types.MaybeNoSuchOverloadErr(x)
				}
				return m.Modulo(y)
			})),
		cel.Function(operators.Negate, neg...),
		cel.Function(equalsFn, eq...),
		cel.Function(notEqualsFn, ne...),
		cel.Function("string", cel.Overload("string_num", []*cel.Type{NumType}, cel.StringType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return types.String(v.(Num).N.String()) }))),
	}
	for _, c := range []struct {
		op   string
		id   string
		test func(int) bool
	}{
		{operators.Less, "less", func(c int) bool { return c < 0 }},
		{operators.LessEquals, "less_equals", func(c int) bool { return c <= 0 }},
		{operators.Greater, "greater", func(c int) bool { return c > 0 }},
		{operators.GreaterEquals, "greater_equals", func(c int) bool { return c >= 0 }},
	} {
		test := c.test
		opts = append(opts, cel.Function(c.op, append(comparisons(c.id), cel.SingletonBinaryBinding(func(x, y ref.Val) ref.Val {
			cmp, err := compare(x, y)
			if err != nil {
				return err
			}
			return types.Bool(test(cmp))
		}))...))
	}
	return opts
}

// sameWhole reports whether both operands are ints, or both uints, the only
// case where arithmetic keeps CEL's integer semantics.
func sameWhole(x, y ref.Val) bool {
	switch x.(type) {
	case types.Int:
		_, ok := y.(types.Int)
		return ok
	case types.Uint:
		_, ok := y.(types.Uint)
		return ok
	}
	return false
}

func addOp(x, y ref.Val) ref.Val {
	if isNumeric(x) && isNumeric(y) && !sameWhole(x, y) {
		return exact(x, y, func(a, b Num) ref.Val { return Num{a.N.Add(b.N)} })
	}
	if a, ok := x.(traits.Adder); ok {
		return a.Add(y)
	}
	return types.MaybeNoSuchOverloadErr(x)
}

func subNum(a, b Num) ref.Val { return Num{a.N.Sub(b.N)} }
func mulNum(a, b Num) ref.Val { return Num{a.N.Mul(b.N)} }

// arith applies whole for int/int and uint/uint, and exact otherwise.
func arith(whole func(x, y ref.Val) ref.Val, exactOp func(a, b Num) ref.Val) func(x, y ref.Val) ref.Val {
	return func(x, y ref.Val) ref.Val {
		if !isNumeric(x) || !isNumeric(y) {
			if types.IsUnknownOrError(x) {
				return x
			}
			return types.MaybeNoSuchOverloadErr(y)
		}
		if sameWhole(x, y) {
			return whole(x, y)
		}
		return exact(x, y, exactOp)
	}
}

func divOp(x, y ref.Val) ref.Val {
	return exact(x, y, func(a, b Num) ref.Val {
		q, err := a.N.Quo(b.N)
		if err != nil {
			return types.NewErr("division by zero")
		}
		return Num{q}
	})
}

func negOp(x ref.Val) ref.Val {
	switch v := x.(type) {
	case types.Int:
		return v.Negate()
	case Num:
		return Num{v.N.Neg()}
	case types.Double:
		n, ok := toNum(v)
		if !ok {
			return types.NewErr("%v is not a finite number", v)
		}
		return Num{n.Neg()}
	}
	return types.MaybeNoSuchOverloadErr(x)
}

func exact(x, y ref.Val, op func(a, b Num) ref.Val) ref.Val {
	a, ok := toNum(x)
	if !ok {
		return types.MaybeNoSuchOverloadErr(x)
	}
	b, ok := toNum(y)
	if !ok {
		return types.MaybeNoSuchOverloadErr(y)
	}
	if err := denominatorTooLong(a); err != nil {
		return err
	}
	if err := denominatorTooLong(b); err != nil {
		return err
	}
	return op(Num{a}, Num{b})
}

// maxDenominatorDigits bounds the denominator of an exact number the
// language computes with. A fraction is kept in lowest terms, and
// reducing one whose numerator and denominator both have d digits costs
// about d squared, which the cost limit, charging by digits, does not
// bound (two fractions of 300,000 digits took 3.1 s to multiply), while
// a whole number, or one with a short denominator, reduces in time
// linear in its digits. No score needs a denominator this long.
const maxDenominatorDigits = 1000

// maxDenominatorBits is maxDenominatorDigits in bits (log2 of 10 is
// just under 3.322).
const maxDenominatorBits = maxDenominatorDigits * 3322 / 1000

// denominatorTooLong is the error for n when its denominator is longer
// than maxDenominatorDigits, nil otherwise.
func denominatorTooLong(n num.Num) ref.Val {
	if n.DenBitLen() <= maxDenominatorBits {
		return nil
	}
	return types.NewErr("a fraction whose denominator has more than %d digits: round it (round(x, 6)) before computing with it", maxDenominatorDigits)
}

func compare(x, y ref.Val) (int, ref.Val) {
	if isNumeric(x) && isNumeric(y) {
		if sameWhole(x, y) {
			return int(x.(traits.Comparer).Compare(y).(types.Int)), nil
		}
		a, ok1 := toNum(x)
		b, ok2 := toNum(y)
		if !ok1 || !ok2 {
			return 0, types.NewErr("cannot compare %v and %v", x, y)
		}
		return a.Cmp(b), nil
	}
	c, ok := x.(traits.Comparer)
	if !ok {
		return 0, types.MaybeNoSuchOverloadErr(x)
	}
	r := c.Compare(y)
	i, ok := r.(types.Int)
	if !ok {
		return 0, r
	}
	return int(i), nil
}

func equalOp(x, y ref.Val) ref.Val {
	if isNumeric(x) && isNumeric(y) {
		c, err := compare(x, y)
		if err != nil {
			return types.False
		}
		return types.Bool(c == 0)
	}
	return x.Equal(y)
}
