package lang_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
)

// TestRequiredSubtree: the required subtree of hand-written schemas,
// each number counted by hand in the comment beside the case.
func TestRequiredSubtree(t *testing.T) {
	scalar := `{"type":"string"}`
	flat8 := `{"type":"object","properties":{"a":` + scalar + `,"b":` + scalar + `,"c":` + scalar + `,"d":` + scalar +
		`,"e":` + scalar + `,"f":` + scalar + `,"g":` + scalar + `,"h":` + scalar + `},"required":["a","b","c","d","e","f","g","h"]}`
	// A three-branch union whose widest branch requires one field: each
	// branch an object (depth 1).
	union := `{"oneOf":[{"type":"object","properties":{"kind":{"const":"a"}},"required":["kind"]},{"type":"object","properties":{"n":{"type":"integer"}}},{"type":"object"}]}`
	cases := []struct {
		name, schema string
		want         lang.Subtree
	}{
		// Nothing to build.
		{"not an object", `"object"`, lang.Subtree{}},
		{"empty", `{}`, lang.Subtree{}},
		{"no properties", `{"type":"object","required":["a"]}`, lang.Subtree{}},
		{"optional only", `{"type":"object","properties":{"a":{"type":"string"}}}`, lang.Subtree{Depth: 1}},
		// Four required scalars: 4 fields, one level.
		{"four scalars", `{"type":"object","properties":{"a":{},"b":{},"c":{},"d":{},"e":{}},"required":["a","b","c","d"]}`, lang.Subtree{Fields: 4, Depth: 1}},
		// Eight scalars flat: 8, depth 1; wrapped in one required object:
		// 1 + 8 = 9 fields, depth 2.
		{"eight flat", flat8, lang.Subtree{Fields: 8, Depth: 1}},
		{"eight wrapped", `{"type":"object","properties":{"w":` + flat8 + `},"required":["w"]}`, lang.Subtree{Fields: 9, Depth: 2}},
		// obj (1) requiring a, b, c (3), c holding the union whose widest
		// branch requires 1: 5 fields; root 1, obj 2, the union's objects
		// 3; 3 - 1 = 2 choices.
		{"nested union", `{"type":"object","properties":{"obj":{"type":"object","properties":{"a":{},"b":{},"c":` + union + `},"required":["a","b","c"]}},"required":["obj"]}`,
			lang.Subtree{Fields: 5, Depth: 3, Unions: 2}},
		// Optional branches cost nothing: the union under an optional
		// property is not counted.
		{"optional union", `{"type":"object","properties":{"a":{},"o":` + union + `},"required":["a"]}`, lang.Subtree{Fields: 1, Depth: 1}},
		// The nullable idiom is no choice; a real choice beside null is:
		// [string, integer, null] is 3 - 1 = 2.
		{"nullable", `{"type":"object","properties":{"q":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["q"]}`, lang.Subtree{Fields: 1, Depth: 1}},
		{"two and null", `{"type":"object","properties":{"q":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}},"required":["q"]}`, lang.Subtree{Fields: 1, Depth: 1, Unions: 2}},
		// Enums and type arrays are enumerated, not built.
		{"enum and type array", `{"type":"object","properties":{"e":{"enum":["a","b","c"]},"t":{"type":["string","integer"]}},"required":["e","t"]}`, lang.Subtree{Fields: 2, Depth: 1}},
		// An array of objects adds a level; of scalars, none.
		{"array of objects", `{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"id":{}},"required":["id"]}},"tags":{"type":"array","items":{"type":"string"}}},"required":["rows","tags"]}`,
			lang.Subtree{Fields: 3, Depth: 2}},
		// allOf branches add up.
		{"allOf", `{"type":"object","properties":{"x":{"allOf":[{"type":"object","properties":{"a":{}},"required":["a"]},{"type":"object","properties":{"b":{}},"required":["b"]}]}},"required":["x"]}`,
			lang.Subtree{Fields: 3, Depth: 2}},
		// $refs are followed; a recursive one ends: root 1, node 2, the
		// node met again counts as a scalar.
		{"ref", `{"type":"object","$defs":{"P":{"type":"object","properties":{"id":{}},"required":["id"]}},"properties":{"p":{"$ref":"#/$defs/P"}},"required":["p"]}`,
			lang.Subtree{Fields: 2, Depth: 2}},
		{"recursive ref", `{"type":"object","$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}},"required":["next"]}},"properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"]}`,
			lang.Subtree{Fields: 2, Depth: 2}},
		// A required name without a schema is still a field to fill.
		{"required without schema", `{"type":"object","properties":{"a":{}},"required":["a","b","b"]}`, lang.Subtree{Fields: 2, Depth: 1}},
	}
	for _, c := range cases {
		var s any
		if err := json.Unmarshal([]byte(c.schema), &s); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := lang.RequiredSubtree(s); got != c.want {
			t.Errorf("%s: RequiredSubtree = %+v, want %+v", c.name, got, c.want)
		}
	}
}

// A schema nested deeper than ten levels is measured ten deep.
func TestRequiredSubtreeDepthCap(t *testing.T) {
	schema := `{"type":"string"}`
	for range 30 {
		schema = `{"type":"object","properties":{"x":` + schema + `},"required":["x"]}`
	}
	var s any
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		t.Fatal(err)
	}
	got := lang.RequiredSubtree(s)
	if got.Depth != 10 || got.Fields != 10 {
		t.Errorf("30 nested objects: %+v, want depth 10 and the 10 fields walked", got)
	}
	if strings.Count(schema, "required") != 30 {
		t.Fatal("the schema is not what the test means")
	}
}

// The invocation cost of a tool, from its required subtree.
func Example_requiredSubtree() {
	show(`cel.bind(r, required_subtree(tool.inputSchema), r.fields + 2 * (r.depth - 1) + 2 * r.unions)`, map[string]any{"inputSchema": map[string]any{
		"type": "object",
		"properties": map[string]any{
			"w": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{}, "b": map[string]any{}}, "required": []any{"a", "b"}},
		},
		"required": []any{"w"},
	}})
	// Output: cel.bind(r, required_subtree(tool.inputSchema), r.fields + 2 * (r.depth - 1) + 2 * r.unions) → 5
}

// The UTF-8 bytes of a string, where size counts characters.
func Example_byteSize() {
	show(`[size('né'), byte_size('né')]`, map[string]any{})
	// Output: [size('né'), byte_size('né')] → [2 3]
}
