package lang_test

import (
	"math"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
)

// TestLongest: the longest string, list or map in a value, whether it
// wraps decoded JSON, is a record, or is a list of formula values, and
// no bound for a value it cannot look into.
func TestLongest(t *testing.T) {
	def := map[string]any{"name": "a", "inputSchema": map[string]any{
		"type": "object", "properties": map[string]any{"q": map[string]any{"description": "twelve bytes"}},
		"required": []any{"q", "r", "s", "t", "u", "v", "w"},
	}}
	for _, tc := range []struct {
		name string
		v    ref.Val
		want uint64
	}{
		{"string", types.String("hello"), 5},
		{"number", lang.Num{N: num.Int(12345)}, 0},
		{"null", types.NullValue, 0},
		{"decoded JSON, longest a list", lang.Adapter.NativeToValue(def), 12},
		{"decoded JSON, longest a key", lang.Adapter.NativeToValue(map[string]any{"a_long_key": 1.0}), 10},
		{"tool value", lang.ToolValue(def), 12},
		{"record", lang.RecordOf([]string{"name", "schema"}, []ref.Val{types.String("abc"), lang.Adapter.NativeToValue([]any{"x", "y"})}), 6},
		{"list of formula values", types.NewRefValList(lang.Adapter, []ref.Val{types.String("abcdefgh"), types.Int(3)}), 8},
		{"a Go value of no JSON kind", lang.Adapter.NativeToValue([]any{struct{}{}}), math.MaxUint64},
		{"an error", types.NewErr("no value"), math.MaxUint64},
		{"record holding a value of no known length", lang.RecordOf([]string{"x"}, []ref.Val{types.NewErr("no value")}), math.MaxUint64},
	} {
		// Twice: a record keeps what it measured.
		for range 2 {
			if got := lang.Longest(tc.v); got != tc.want {
				t.Errorf("%s: Longest = %d, want %d", tc.name, got, tc.want)
			}
		}
	}
}
