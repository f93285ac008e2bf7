package lang

import (
	"math"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/num"
)

// Weight bounds the length of every string, list and map in v, and of
// every one the language's functions make of v's parts: v's weight, one
// for each value in it, plus each string's and each member name's length
// in bytes and the digits of each number longer than a double's (see
// NumSize; math.MaxUint64 when v holds a value it cannot look into).
// A list or map is no longer than the weight of its members, and a map
// that params() merges from several objects of v (a $ref's target and
// the keys beside it) holds names each counted where it occurs, so the
// bound holds for what functions build from v as SizeOf's does for a
// definition. It bounds a value that a formula computed, such as an item
// of a check's each, so that the formulas that then read it can be
// evaluated untracked when their worst case at that length is within
// the cost limit (see Program.Untracked).
//
// A map or list that wraps decoded JSON is weighed in its Go form,
// without making a formula value of every member; a record keeps its
// weight once weighed.
func Weight(v ref.Val) uint64 {
	switch x := v.(type) {
	case types.String:
		return uint64(len(x)) + 1
	case types.Bool, types.Int, types.Uint, types.Double, types.Null:
		return 1
	case Num:
		return 1 + NumSize(x.N)
	case *Record:
		if n := x.weight.Load(); n > 0 {
			return n - 1
		}
		out := uint64(1)
		for i, k := range x.keys {
			out = weigh(out, uint64(len(k))+1, Weight(x.vals[i]))
		}
		if out < math.MaxUint64 {
			x.weight.Store(out + 1)
		}
		return out
	case *toolValue:
		return weightNative(x.def)
	case traits.Lister, traits.Mapper:
		switch n := v.Value().(type) {
		case map[string]any, []any:
			return weightNative(n)
		case []ref.Val:
			out := uint64(1)
			for _, e := range n {
				out = weigh(out, 0, Weight(e))
			}
			return out
		}
		return weightIterated(v)
	}
	return math.MaxUint64
}

// weigh is a + b + c, or math.MaxUint64 when that overflows.
func weigh(a, b, c uint64) uint64 {
	s := a + b
	if s < a {
		return math.MaxUint64
	}
	t := s + c
	if t < s {
		return math.MaxUint64
	}
	return t
}

// weightNative is Weight of a Go value as the language's adapter reads
// it: decoded JSON, exact numbers and formula values.
func weightNative(v any) uint64 {
	switch x := v.(type) {
	case string:
		return uint64(len(x)) + 1
	case nil, bool, float64, int, int64:
		return 1
	case num.Num:
		return 1 + NumSize(x)
	case []any:
		out := uint64(1)
		for _, e := range x {
			out = weigh(out, 0, weightNative(e))
		}
		return out
	case map[string]any:
		out := uint64(1)
		for k, e := range x {
			out = weigh(out, uint64(len(k))+1, weightNative(e))
		}
		return out
	case ref.Val:
		return Weight(x)
	}
	return math.MaxUint64
}

// weightIterated is Weight of a list or map of another kind, read
// through its members as formulas read them.
func weightIterated(v ref.Val) uint64 {
	switch x := v.(type) {
	case traits.Lister:
		n, ok := x.Size().(types.Int)
		if !ok {
			return math.MaxUint64
		}
		out := uint64(1)
		for i := range int64(n) {
			out = weigh(out, 0, Weight(x.Get(types.Int(i))))
		}
		return out
	case traits.Mapper:
		if _, ok := x.Size().(types.Int); !ok {
			return math.MaxUint64
		}
		out := uint64(1)
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			out = weigh(out, Weight(k), Weight(x.Get(k)))
		}
		return out
	}
	return math.MaxUint64
}
