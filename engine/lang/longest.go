package lang

import (
	"math"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/num"
)

// Longest is the length of the longest string, list or map in v (a
// string's length in bytes, a map's in entries, its keys counted as
// strings), or math.MaxUint64 when v holds a value whose length it
// cannot tell. It bounds a value that a formula computed, such as an
// item of a check's each, so that the formulas that then read it can be
// evaluated untracked when their worst case at that length is within
// the cost limit (see Program.Untracked).
//
// A map or list that wraps decoded JSON is measured in its Go form,
// without making a formula value of every member.
func Longest(v ref.Val) uint64 {
	switch x := v.(type) {
	case types.String:
		return uint64(len(x))
	case types.Bool, types.Int, types.Uint, types.Double, types.Null, Num:
		return 0
	case *Record:
		if n := x.longest.Load(); n > 0 {
			return n - 1
		}
		out := uint64(len(x.keys))
		for i, k := range x.keys {
			out = max(out, uint64(len(k)), Longest(x.vals[i]))
		}
		if out < math.MaxUint64 {
			x.longest.Store(out + 1)
		}
		return out
	case *toolValue:
		return longestNative(x.def)
	case traits.Lister, traits.Mapper:
		switch n := v.Value().(type) {
		case map[string]any, []any:
			return longestNative(n)
		case []ref.Val:
			out := uint64(len(n))
			for _, e := range n {
				out = max(out, Longest(e))
			}
			return out
		}
		return longestIterated(v)
	}
	return math.MaxUint64
}

// longestNative is Longest of a Go value as the language's adapter reads
// it: decoded JSON, exact numbers and formula values.
func longestNative(v any) uint64 {
	switch x := v.(type) {
	case string:
		return uint64(len(x))
	case nil, bool, float64, int, int64, num.Num:
		return 0
	case []any:
		out := uint64(len(x))
		for _, e := range x {
			out = max(out, longestNative(e))
		}
		return out
	case map[string]any:
		out := uint64(len(x))
		for k, e := range x {
			out = max(out, uint64(len(k)), longestNative(e))
		}
		return out
	case ref.Val:
		return Longest(x)
	}
	return math.MaxUint64
}

// longestIterated is Longest of a list or map of another kind, read
// through its members as formulas read them.
func longestIterated(v ref.Val) uint64 {
	switch x := v.(type) {
	case traits.Lister:
		n, ok := x.Size().(types.Int)
		if !ok {
			return math.MaxUint64
		}
		out := uint64(n)
		for i := range int64(n) {
			out = max(out, Longest(x.Get(types.Int(i))))
		}
		return out
	case traits.Mapper:
		n, ok := x.Size().(types.Int)
		if !ok {
			return math.MaxUint64
		}
		out := uint64(n)
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			out = max(out, Longest(k), Longest(x.Get(k)))
		}
		return out
	}
	return math.MaxUint64
}
