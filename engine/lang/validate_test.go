package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/internal/schemasize"
)

func TestSchemaErrors(t *testing.T) {
	obj := []Var{{Name: "schema", Type: Object}, {Name: "args", Type: Object}}
	tests := []struct {
		name   string
		schema string // a JSON Schema as a CEL map literal
		args   string
		want   []string // substrings, one per error, in order; none = valid
	}{
		{"valid", `{'type': 'object', 'required': ['q'], 'properties': {'q': {'type': 'string'}}}`, `{'q': 'x'}`, nil},
		{"missing required", `{'type': 'object', 'required': ['q'], 'properties': {'q': {'type': 'string'}}}`, `{}`, []string{"/: missing property 'q'"}},
		{"wrong type and enum", `{'type': 'object', 'properties': {'n': {'type': 'integer'}, 'm': {'enum': ['a', 'b']}}}`, `{'n': 'x', 'm': 'c'}`, []string{"/m: value must be one of", "/n: got string, want integer"}},
		{"integer from exact number", `{'type': 'object', 'properties': {'n': {'type': 'integer', 'maximum': 10}}}`, `{'n': 4}`, nil},
		{"decimal above maximum", `{'type': 'object', 'properties': {'n': {'type': 'number', 'maximum': 0.3}}}`, `{'n': 0.1 + 0.25}`, []string{"/n: maximum: got 0.35, want 0.3"}},
		{"additionalProperties", `{'type': 'object', 'additionalProperties': false, 'properties': {}}`, `{'x': 1}`, []string{"additional properties 'x' not allowed"}},
		{"draft-07 by $schema", `{'$schema': 'http://json-schema.org/draft-07/schema#', 'type': 'object', 'required': ['a']}`, `{}`, []string{"missing property 'a'"}},
		{"empty schema accepts anything", `{}`, `{'a': [1, 2]}`, nil},
		{"remote $ref is not fetched", `{'$ref': 'https://example.com/s.json'}`, `{}`, []string{"the schema does not compile"}},
		{"malformed keyword", `{'type': 7}`, `{}`, []string{"the schema does not compile"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := eval(t, fmt.Sprintf("schema_errors(%s, %s)", tc.args, tc.schema), nil, obj...).([]any)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d errors %q, want %d like %q", len(got), got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i].(string), w) {
					t.Errorf("error %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

// TestSchemaErrorsTooLarge: a schema of more objects than
// schemasize.MaxObjects is not compiled (compiling costs the square of
// them: a 64 MiB inputSchema would take hours) and says so as a schema
// that does not compile; one at the bound is compiled and validates.
func TestSchemaErrorsTooLarge(t *testing.T) {
	heavytest.Later(t)
	obj := []Var{{Name: "schema", Type: Object}, {Name: "args", Type: Object}}
	schema := func(objects int) map[string]any {
		// The root, its properties, and objects-2 properties' schemas.
		props := map[string]any{}
		for i := range objects - 2 {
			props[fmt.Sprint("p", i)] = map[string]any{"type": "string"}
		}
		return map[string]any{"type": "object", "properties": props, "required": []any{"p0"}}
	}
	for _, tc := range []struct {
		objects int
		want    string
	}{
		{schemasize.MaxObjects, "/: missing property 'p0'"},
		{schemasize.MaxObjects + 1, "the schema does not compile: it holds more than 10000 JSON objects and booleans"},
	} {
		got := eval(t, "schema_errors(args, schema)", map[string]any{"schema": schema(tc.objects), "args": map[string]any{}}, obj...).([]any)
		if len(got) != 1 || !strings.Contains(got[0].(string), tc.want) {
			t.Errorf("a schema of %d objects: %q, want one error containing %q", tc.objects, got, tc.want)
		}
	}
}
