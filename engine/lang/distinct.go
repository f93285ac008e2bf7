package lang

import (
	"github.com/google/cel-go/cel"
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
// The static estimate stays the extension's (a bound must hold for any
// data, and the kept count is only known at run time).
func distinctFunctions() cel.EnvOption {
	listType := cel.ListType(cel.TypeParamType("T"))
	return cel.Lib(distinctLib{
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
