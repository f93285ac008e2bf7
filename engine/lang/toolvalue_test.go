package lang_test

import (
	"fmt"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/lang"
)

// TestToolFieldsMadeOnce: a field of a tool read again is the formula
// value made at the first read, no new one, and every read (a field, a
// missing one, a key that is no string, a definition of more fields than
// are kept) gives what cel-go's map of the same definition gives.
func TestToolFieldsMadeOnce(t *testing.T) {
	def := map[string]any{"name": "get_note", "description": "Gets one note.", "inputSchema": map[string]any{"type": "object"}}
	tool := lang.ToolValue(def).(traits.Mapper)
	key := types.String("description")
	tool.Find(key)
	if n := testing.AllocsPerRun(100, func() { tool.Find(key) }); n != 0 {
		t.Errorf("reading a field again: %v allocations, want 0", n)
	}
	wide := map[string]any{}
	for i := range 20 {
		wide[fmt.Sprint("f", i)] = fmt.Sprint("v", i)
	}
	for _, d := range []map[string]any{def, wide} {
		tool, plain := lang.ToolValue(d).(traits.Mapper), types.NewStringInterfaceMap(lang.Adapter, d)
		for _, k := range []any{"name", "description", "inputSchema", "f3", "absent", 1} {
			key := types.DefaultTypeAdapter.NativeToValue(k)
			got, gotOK := tool.Find(key)
			want, wantOK := plain.Find(key)
			if gotOK != wantOK || (gotOK && got.Equal(want) != types.True) {
				t.Errorf("Find(%v) = %v, %v; want %v, %v", k, got, gotOK, want, wantOK)
			}
			if g, w := fmt.Sprint(tool.Get(key)), fmt.Sprint(plain.Get(key)); g != w {
				t.Errorf("Get(%v) = %s, want %s", k, g, w)
			}
			if g, w := tool.Contains(key), plain.Contains(key); g != w {
				t.Errorf("Contains(%v) = %v, want %v", k, g, w)
			}
		}
	}
}
