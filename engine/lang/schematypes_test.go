package lang_test

import (
	"fmt"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
)

// TestSchemaTypesShared: schema_types of a schema naming one type (a list
// shared between calls) is what SchemaTypes says, as is that of any other
// schema, and the shared lists compare and read as lists made afresh.
func TestSchemaTypesShared(t *testing.T) {
	env, err := lang.NewEnv(lang.Var{Name: "tool", Type: lang.Object})
	if err != nil {
		t.Fatal(err)
	}
	p, diags := env.Compile("[schema_types(tool.s), size(schema_types(tool.s)), 'string' in schema_types(tool.s), schema_types(tool.s) == tool.want]", nil)
	if diags != nil {
		t.Fatal(diags)
	}
	for _, typ := range []any{"string", "object", "null", "", "float", []any{"string", "null", "string"}, []any{}, 3.0, nil} {
		s := map[string]any{"type": typ}
		want := []any{}
		for _, n := range lang.SchemaTypes(s) {
			want = append(want, n)
		}
		for range 2 {
			v, err := p.Eval(map[string]any{"tool": map[string]any{"s": s, "want": want}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := lang.Native(v)
			if err != nil {
				t.Fatal(err)
			}
			in := false
			for _, n := range want {
				in = in || n == "string"
			}
			wantAll := []any{want, int64(len(want)), in, true}
			if fmt.Sprint(got) != fmt.Sprint(wantAll) {
				t.Errorf("type %v: got %v, want %v", typ, got, wantAll)
			}
		}
	}
}
