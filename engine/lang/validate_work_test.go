package lang

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// doubling is a schema of n definitions, each of whose allOf applies the
// next one twice: validating anything against it takes 2^n steps.
func doubling(n int, ref func(i int) string, def func(i int) map[string]any) map[string]any {
	defs := map[string]any{}
	for i := range n {
		d := def(i)
		d["allOf"] = []any{map[string]any{"$ref": ref(i + 1)}, map[string]any{"$ref": ref(i + 1)}}
		defs[fmt.Sprintf("d%d", i)] = d
	}
	last := def(n)
	last["type"] = "string"
	defs[fmt.Sprintf("d%d", n)] = last
	return map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"$ref": ref(0)}}, "$defs": defs}
}

func TestSchemaErrorsTooComplex(t *testing.T) {
	pointer := func(i int) string { return fmt.Sprintf("#/$defs/d%d", i) }
	anchor := func(i int) string { return fmt.Sprintf("#a%d", i) }
	plain := func(int) map[string]any { return map[string]any{} }
	anchored := func(i int) map[string]any { return map[string]any{"$anchor": fmt.Sprintf("a%d", i)} }
	// tree's definition reaches itself twice through each member "c": the
	// work doubles with every level of the value.
	tree := map[string]any{"$defs": map[string]any{"t": map[string]any{"type": "object", "allOf": []any{
		map[string]any{"properties": map[string]any{"c": map[string]any{"$ref": "#/$defs/t"}}},
		map[string]any{"properties": map[string]any{"c": map[string]any{"$ref": "#/$defs/t"}}},
	}}}, "$ref": "#/$defs/t"}
	deep := func(n int) any {
		var v any = map[string]any{}
		for range n {
			v = map[string]any{"c": v}
		}
		return v
	}
	tests := []struct {
		name    string
		schema  map[string]any
		value   any
		refused bool
		want    string // an error expected when not refused; "" = valid
	}{
		{"40 doublings by pointer", doubling(40, pointer, plain), map[string]any{"a": "x"}, true, ""},
		{"40 doublings by anchor", doubling(40, anchor, anchored), map[string]any{"a": "x"}, true, ""},
		{"8 doublings validate", doubling(8, pointer, plain), map[string]any{"a": 1}, false, "/a: "},
		{"a recursive schema on a shallow value", tree, deep(4), false, ""},
		{"a recursive schema doubling on a deep value", tree, deep(40), true, ""},
		{"a value nested past the depth bound", map[string]any{}, deep(maxValidationDepth + 1), true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs, err := schemaErrors(Adapter.NativeToValue(roundTrip(t, tc.value)), Adapter.NativeToValue(roundTrip(t, tc.schema)))
			if err != nil {
				t.Fatal(err)
			}
			if tc.refused {
				if len(errs) != 1 || errs[0] != tooComplex {
					t.Fatalf("got %q, want only %q", errs, tooComplex)
				}
				return
			}
			if tc.want == "" && len(errs) > 0 || tc.want != "" && (len(errs) == 0 || !strings.Contains(errs[0], tc.want)) {
				t.Fatalf("got %q, want %q", errs, tc.want)
			}
		})
	}
}

// roundTrip gives a value the shapes JSON decoding gives it.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
