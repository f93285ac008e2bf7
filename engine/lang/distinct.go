package lang

import (
	"math"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// distinctFunctions replaces the binding and the runtime cost of the list
// extension's l.distinct() (same overload, same result: the elements in
// the order of their first occurrence, compared with CEL's ==).
//
// The extension charges every call the square of the list's length,
// whatever the list holds, so distinct over a surface's tools
// (say 5,000 tools' invocation costs, a dozen of them distinct)
// was charged 50 million and exceeded a surface formula's cost limit,
// though its work is one comparison per element and kept value. Here a
// list of strings, of whole numbers or of booleans alone is deduplicated
// through a Go map and charged its length; any other list is compared
// element by element with what was kept, as the extension does, and
// charged the comparisons that can take: the length times the number kept.
// The estimate (estimateDistinct) bounds that charge on any data whose
// list and strings are within its bounds; the kept count is only known
// at run time, so it counts every element kept.
func distinctFunctions() cel.EnvOption {
	listType := cel.ListType(cel.TypeParamType("T"))
	return cel.Lib(distinctLib{
		cel.CostEstimatorOptions(checker.OverloadCostEstimate("list_distinct", estimateDistinct)),
		cel.Function("distinct",
			cel.MemberOverload("list_distinct", []*cel.Type{listType}, listType,
				cel.UnaryBinding(func(list ref.Val) ref.Val {
					l, ok := list.(traits.Lister)
					if !ok {
						return types.MaybeNoSuchOverloadErr(list)
					}
					return distinct(l)
				}))),
	})
}

type distinctLib []cel.EnvOption

func (d distinctLib) CompileOptions() []cel.EnvOption { return d }

// ProgramOptions replaces the extension's cost tracker of list_distinct;
// this library comes after the extension, so its tracker is the one kept.
func (distinctLib) ProgramOptions() []cel.ProgramOption {
	return []cel.ProgramOption{cel.CostTrackerOptions(
		interpreter.OverloadCostTracker("list_distinct", func(args []ref.Val, result ref.Val) *uint64 {
			c := distinctCost(args[0], result)
			return &c
		}))}
}

// distinctKind is what a list's elements all are, when a Go map can
// stand for CEL's equality among them.
type distinctKind int

const (
	distinctMixed distinctKind = iota
	distinctStrings
	distinctInts
	distinctBools
)

// kindOf tells whether every element of l is a string, every one an int,
// or every one a bool. Ints alone, not ints beside doubles or uints: CEL's
// == says 1 == 1.0 == 1u, which a map keyed by the Go value would not.
func kindOf(l traits.Lister, n int) distinctKind {
	if n == 0 {
		return distinctMixed
	}
	var k distinctKind
	switch l.Get(types.IntZero).(type) {
	case types.String:
		k = distinctStrings
	case types.Int:
		k = distinctInts
	case types.Bool:
		k = distinctBools
	default:
		return distinctMixed
	}
	for i := 1; i < n; i++ {
		var same bool
		switch l.Get(types.Int(i)).(type) {
		case types.String:
			same = k == distinctStrings
		case types.Int:
			same = k == distinctInts
		case types.Bool:
			same = k == distinctBools
		}
		if !same {
			return distinctMixed
		}
	}
	return k
}

func distinct(l traits.Lister) ref.Val {
	n := int(l.Size().(types.Int))
	if n == 0 {
		return l
	}
	kept := make([]ref.Val, 0, min(n, 16))
	if kindOf(l, n) != distinctMixed {
		seen := make(map[ref.Val]struct{})
		for i := range n {
			v := l.Get(types.Int(i))
			if _, dup := seen[v]; !dup {
				seen[v] = struct{}{}
				kept = append(kept, v)
			}
		}
		return types.DefaultTypeAdapter.NativeToValue(kept)
	}
next:
	for i := range n {
		v := l.Get(types.Int(i))
		for _, k := range kept {
			if v.Equal(k) == types.True {
				continue next
			}
		}
		kept = append(kept, v)
	}
	return types.DefaultTypeAdapter.NativeToValue(kept)
}

// distinctCost is the work distinct did: a map's step per element for a
// list of one hashable kind (with the strings' length read once), else a
// comparison of each element with each kept value, at most; plus the
// kept list's allocation.
func distinctCost(arg, result ref.Val) uint64 {
	l, ok := arg.(traits.Lister)
	if !ok {
		return 1
	}
	n := uint64(l.Size().(types.Int))
	kept := uint64(1)
	if r, ok := result.(traits.Lister); ok {
		kept = max(1, uint64(r.Size().(types.Int)))
	}
	switch kindOf(l, int(n)) {
	case distinctStrings:
		var chars uint64
		for i := range int(n) {
			chars += uint64(len(l.Get(types.Int(i)).(types.String)))
		}
		return 1 + 2*n + chars/10 + kept
	case distinctInts, distinctBools:
		return 1 + 2*n + kept
	}
	return 1 + 2*n*kept + kept
}

// estimateDistinct is the estimate of l.distinct(), in place of the
// extension's, which sized its result as the square of l's length (so
// that a sort of it was estimated as the fourth power) and charged the
// strings' length nothing where distinctCost charges a tenth of it: a
// result no longer than l, and at most what distinctCost charges a list
// of n elements all kept (1 + 2n*n + n), plus a tenth of n strings each
// as long as the estimator bounds the strings of l (see stringsSizer)
// when l may hold strings, and a unit for the call and one for the list
// made. Unbounded when those have no bound.
func estimateDistinct(estimator checker.CostEstimator, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if target == nil || len(args) != 0 {
		return nil
	}
	unbounded := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
	n, ok := knownSize(estimator, *target)
	if !ok || n >= math.MaxUint32/2 {
		return unbounded
	}
	chars := uint64(0)
	if mayHoldStrings((*target).Type()) {
		sizer, ok := estimator.(stringsSizer)
		if !ok {
			return unbounded
		}
		each, ok := sizer.stringsSize(*target)
		if !ok || each >= math.MaxUint32 {
			return unbounded
		}
		chars = n*each/10 + 1
	}
	return estimated(1+2*n*n+n+chars+2, n)
}

// mayHoldStrings reports whether a list of type t may hold strings.
func mayHoldStrings(t *types.Type) bool {
	if t.Kind() != types.ListKind || len(t.Parameters()) != 1 {
		return true
	}
	switch t.Parameters()[0].Kind() {
	case types.StringKind, types.DynKind, types.AnyKind, types.TypeParamKind:
		return true
	}
	return false
}
