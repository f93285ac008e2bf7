package lang_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
)

// TestWeight: a value's weight (one for each value in it, plus the
// bytes of its strings and member names), whether it wraps decoded JSON,
// is a record, or is a list of formula values, and no bound for a value
// it cannot look into.
func TestWeight(t *testing.T) {
	long := num.MustParse(strings.Repeat("7", 2000))
	def := map[string]any{"name": "a", "inputSchema": map[string]any{
		"type": "object", "properties": map[string]any{"q": map[string]any{"description": "twelve bytes"}},
		"required": []any{"q", "r", "s", "t", "u", "v", "w"},
	}}
	for _, tc := range []struct {
		name string
		v    ref.Val
		want uint64
	}{
		{"string", types.String("hello"), 6},
		{"number", lang.Num{N: num.Int(12345)}, 1},
		// A number longer than a double's digits weighs its digits too, as
		// string() of it would: a value each built from one is not short.
		{"a long number", lang.Num{N: long}, 1 + lang.NumSize(long)},
		{"a long number in decoded JSON", lang.Adapter.NativeToValue([]any{long}), 2 + lang.NumSize(long)},
		{"a long number in a record", lang.RecordOf([]string{"n"}, []ref.Val{lang.Num{N: long}}), 4 + lang.NumSize(long)},
		{"null", types.NullValue, 1},
		{"decoded JSON", lang.Adapter.NativeToValue(def), 97},
		{"a member name", lang.Adapter.NativeToValue(map[string]any{"a_long_key": 1.0}), 13},
		{"tool value", lang.ToolValue(def), 97},
		{"record", lang.RecordOf([]string{"name", "schema"}, []ref.Val{types.String("abc"), lang.Adapter.NativeToValue([]any{"x", "y"})}), 22},
		{"list of formula values", types.NewRefValList(lang.Adapter, []ref.Val{types.String("abcdefgh"), types.Int(3)}), 11},
		{"a Go value of no JSON kind", lang.Adapter.NativeToValue([]any{struct{}{}}), math.MaxUint64},
		{"an error", types.NewErr("no value"), math.MaxUint64},
		{"record holding a value of no known length", lang.RecordOf([]string{"x"}, []ref.Val{types.NewErr("no value")}), math.MaxUint64},
	} {
		// Twice: a record keeps what it measured.
		for range 2 {
			if got := lang.Weight(tc.v); got != tc.want {
				t.Errorf("%s: Weight = %d, want %d", tc.name, got, tc.want)
			}
		}
	}
}
