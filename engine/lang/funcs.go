package lang

import (
	"strings"
	"unicode"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/num"
)

// numericSignatures returns every combination of numeric parameter types
// for an arity, so that ints, doubles and nums mix freely.
func numericSignatures(arity int) [][]*cel.Type {
	ts := []*cel.Type{cel.IntType, cel.DoubleType, NumType}
	sigs := [][]*cel.Type{{}}
	for range arity {
		var next [][]*cel.Type
		for _, s := range sigs {
			for _, t := range ts {
				next = append(next, append(append([]*cel.Type{}, s...), t))
			}
		}
		sigs = next
	}
	return sigs
}

// numericFunction declares fn over numeric arguments (plus fixed trailing
// ones) returning a num, bound to impl.
func numericFunction(fn string, arity int, trailing []*cel.Type, impl func(args []num.Num, rest []ref.Val) ref.Val) cel.EnvOption {
	var opts []cel.FunctionOpt
	for _, sig := range numericSignatures(arity) {
		params := append(sig, trailing...)
		opts = append(opts, cel.Overload(overloadID(fn, params...), params, NumType))
	}
	opts = append(opts, cel.SingletonFunctionBinding(func(args ...ref.Val) ref.Val {
		ns := make([]num.Num, arity)
		for i := range arity {
			n, ok := toNum(args[i])
			if !ok {
				return types.MaybeNoSuchOverloadErr(args[i])
			}
			ns[i] = n
		}
		return impl(ns, args[arity:])
	}))
	return cel.Function(fn, opts...)
}

// listFunction declares fn over a list of numbers returning a num.
func listFunction(fn string, impl func([]num.Num) ref.Val) cel.EnvOption {
	var opts []cel.FunctionOpt
	for _, t := range []*cel.Type{cel.IntType, cel.DoubleType, NumType} {
		opts = append(opts, cel.Overload(overloadID(fn, cel.ListType(t)), []*cel.Type{cel.ListType(t)}, NumType))
	}
	opts = append(opts, cel.SingletonUnaryBinding(func(v ref.Val) ref.Val {
		ns, err := numList(v)
		if err != nil {
			return err
		}
		return impl(ns)
	}))
	return cel.Function(fn, opts...)
}

func numList(v ref.Val) ([]num.Num, ref.Val) {
	l, ok := v.(traits.Lister)
	if !ok {
		return nil, types.MaybeNoSuchOverloadErr(v)
	}
	// Read by index into a slice made at the list's length: an
	// iterator, and a slice grown as it goes, were four allocations of
	// a TDQS tool's weighted sum of six.
	size, ok := l.Size().(types.Int)
	if !ok {
		return nil, types.MaybeNoSuchOverloadErr(l.Size())
	}
	out := make([]num.Num, 0, max(size, 0))
	for i := range size {
		e := l.Get(i)
		n, ok := toNum(e)
		if !ok {
			if types.IsError(e) {
				return nil, e
			}
			return nil, types.NewErr("list holds %s, want numbers", e.Type().TypeName())
		}
		if err := denominatorTooLong(n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// sum is the sum of ns, an error when a partial sum's denominator
// grows past maxDenominatorDigits (fractions of many denominators, as
// 1/1 + 1/2 + ... + 1/3000).
func sum(ns []num.Num) (num.Num, ref.Val) {
	s := num.Zero
	for _, n := range ns {
		s = s.Add(n)
		if err := denominatorTooLong(s); err != nil {
			return num.Zero, err
		}
	}
	return s, nil
}

func mean(ns []num.Num) ref.Val {
	if len(ns) == 0 {
		return types.NewErr("mean of an empty list")
	}
	s, err := sum(ns)
	if err != nil {
		return err
	}
	m, _ := s.Quo(num.Int(int64(len(ns))))
	return Num{m}
}

func median(ns []num.Num) ref.Val {
	m, ok := num.Median(ns)
	if !ok {
		return types.NewErr("median of an empty list")
	}
	return Num{m}
}

func extreme(name string, better func(c int) bool) func([]num.Num) ref.Val {
	return func(ns []num.Num) ref.Val {
		if len(ns) == 0 {
			return types.NewErr("%s of an empty list", name)
		}
		m := ns[0]
		for _, n := range ns[1:] {
			if better(n.Cmp(m)) {
				m = n
			}
		}
		return Num{m}
	}
}

// Efficiency is 1 at or better than ideal, 0 at or worse than unacceptable,
// and linear in between. Ideal may lie on either side of unacceptable.
func Efficiency(value, ideal, unacceptable num.Num) (num.Num, error) {
	span := unacceptable.Sub(ideal)
	if span.Sign() == 0 {
		if value.Cmp(ideal) == 0 {
			return num.One, nil
		}
		return num.Zero, nil
	}
	e, err := unacceptable.Sub(value).Quo(span)
	if err != nil {
		return num.Num{}, err
	}
	return clamp(e, num.Zero, num.One), nil
}

func clamp(x, lo, hi num.Num) num.Num {
	if x.Cmp(lo) < 0 {
		return lo
	}
	if x.Cmp(hi) > 0 {
		return hi
	}
	return x
}

// MaxRoundDigits bounds the digits of round(x, digits) either way: the
// work of rounding grows with them (10^digits), and no score needs more
// than a few.
const MaxRoundDigits = 100

func functionOptions() []cel.EnvOption {
	dyn := cel.DynType
	return []cel.EnvOption{
		cel.Function("num",
			cel.Overload("num_string", []*cel.Type{cel.StringType}, NumType),
			cel.Overload("num_int", []*cel.Type{cel.IntType}, NumType),
			cel.Overload("num_double", []*cel.Type{cel.DoubleType}, NumType),
			cel.Overload("num_num", []*cel.Type{NumType}, NumType),
			cel.SingletonUnaryBinding(func(v ref.Val) ref.Val {
				if s, ok := v.(types.String); ok {
					if err := num.CheckExponent(string(s)); err != nil {
						return types.NewErr("num(%q): %v", string(s), err)
					}
					n, err := num.Parse(string(s))
					if err != nil {
						return types.NewErr("num(%q): %v", string(s), err)
					}
					return Num{n}
				}
				n, ok := toNum(v)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				return Num{n}
			})),
		// int of an exact number: CEL's int() for the language's numbers,
		// so that a count summed with sum stays an int.
		cel.Function("int",
			cel.Overload("int_num", []*cel.Type{NumType}, cel.IntType,
				cel.UnaryBinding(func(v ref.Val) ref.Val {
					n, ok := v.(Num)
					if !ok {
						return types.MaybeNoSuchOverloadErr(v)
					}
					if !n.N.IsInt() || n.N.Big().Num().BitLen() > 63 {
						return types.NewErr("int(%s): not a whole number that fits in an int; round it first", n.N.Exact())
					}
					return types.Int(n.N.Big().Num().Int64())
				}))),
		listFunction("sum", func(ns []num.Num) ref.Val {
			s, err := sum(ns)
			if err != nil {
				return err
			}
			return Num{s}
		}),
		listFunction("mean", mean),
		listFunction("median", median),
		listFunction("min", extreme("min", func(c int) bool { return c < 0 })),
		listFunction("max", extreme("max", func(c int) bool { return c > 0 })),
		numericFunction("clamp", 3, nil, func(a []num.Num, _ []ref.Val) ref.Val {
			if a[1].Cmp(a[2]) > 0 {
				return types.NewErr("clamp: low %s is above high %s", a[1], a[2])
			}
			return Num{clamp(a[0], a[1], a[2])}
		}),
		numericFunction("round", 1, []*cel.Type{cel.IntType}, func(a []num.Num, rest []ref.Val) ref.Val {
			digits := int64(rest[0].(types.Int))
			if digits < -MaxRoundDigits || digits > MaxRoundDigits {
				return types.NewErr("round: %d digits is outside the %d to %d a number may be rounded to (the work grows with the digits)", digits, -MaxRoundDigits, MaxRoundDigits)
			}
			return Num{a[0].Round(int(digits))}
		}),
		numericFunction("efficiency", 3, nil, func(a []num.Num, _ []ref.Val) ref.Val {
			e, err := Efficiency(a[0], a[1], a[2])
			if err != nil {
				return types.NewErr("efficiency: %v", err)
			}
			return Num{e}
		}),
		// unique_by(items, keys): the items whose key (the string at the
		// same index of keys) has not occurred before, in order; linear,
		// where a comprehension comparing every pair is quadratic.
		cel.Function("unique_by", cel.Overload("unique_by_list_list", []*cel.Type{cel.ListType(dyn), cel.ListType(cel.StringType)}, cel.ListType(dyn),
			cel.BinaryBinding(uniqueBy))),
		// index_by(items, keys): a map from each key to the first item with
		// that key, so a formula looks an item up by name in one step
		// instead of scanning the list.
		cel.Function("index_by", cel.Overload("index_by_list_list", []*cel.Type{cel.ListType(dyn), cel.ListType(cel.StringType)}, cel.MapType(cel.StringType, dyn),
			cel.BinaryBinding(indexBy))),
		cel.Function("nonblank", cel.Overload("nonblank_dyn", []*cel.Type{dyn}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.(types.String)
				return types.Bool(ok && strings.TrimFunc(string(s), unicode.IsSpace) != "")
			}))),
		cel.Function("nonempty", cel.Overload("nonempty_dyn", []*cel.Type{dyn}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				switch v.Type() {
				case types.StringType, types.ListType, types.MapType, types.BytesType:
					if s, ok := v.(traits.Sizer); ok {
						return types.Bool(s.Size().(types.Int) > 0)
					}
				}
				return types.False
			}))),
		cel.Function("is_object", cel.Overload("is_object_dyn", []*cel.Type{dyn}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return types.Bool(v.Type() == types.MapType) }))),
		cel.Function("is_list", cel.Overload("is_list_dyn", []*cel.Type{dyn}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return types.Bool(v.Type() == types.ListType) }))),
		cel.Function("is_string", cel.Overload("is_string_dyn", []*cel.Type{dyn}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return types.Bool(v.Type() == types.StringType) }))),
	}
}

func uniqueBy(items, keys ref.Val) ref.Val {
	var out []ref.Val
	if err := firstOfEachKey("unique_by", items, keys, func(_ string, item ref.Val) { out = append(out, item) }); err != nil {
		return err
	}
	return types.NewRefValList(Adapter, out)
}

func indexBy(items, keys ref.Val) ref.Val {
	out := map[ref.Val]ref.Val{}
	if err := firstOfEachKey("index_by", items, keys, func(k string, item ref.Val) { out[types.String(k)] = item }); err != nil {
		return err
	}
	return types.NewRefValMap(Adapter, out)
}

// firstOfEachKey calls keep, in order, for each item whose key (the
// string at the same index of keys) has not occurred before; it returns
// an error value for lists of different lengths or a key that is not a
// string.
func firstOfEachKey(fn string, items, keys ref.Val, keep func(string, ref.Val)) ref.Val {
	il, ok1 := items.(traits.Lister)
	kl, ok2 := keys.(traits.Lister)
	if !ok1 || !ok2 {
		return types.MaybeNoSuchOverloadErr(items)
	}
	n := int(il.Size().(types.Int))
	if m := int(kl.Size().(types.Int)); m != n {
		return types.NewErr("%s: %d items but %d keys", fn, n, m)
	}
	seen := make(map[string]bool, n)
	for i := range n {
		k, ok := kl.Get(types.Int(i)).(types.String)
		if !ok {
			return types.NewErr("%s: key %d is not a string", fn, i)
		}
		if !seen[string(k)] {
			seen[string(k)] = true
			keep(string(k), il.Get(types.Int(i)))
		}
	}
	return nil
}
