package lang

import (
	"encoding/json"
	"testing"
)

// FuzzSchemaErrors: schema_errors over any schema and value, both JSON,
// never panics and ends, however the schema's applicators and references
// fan out; what it returns is a list of messages, or nothing.
func FuzzSchemaErrors(f *testing.F) {
	for _, s := range [][2]string{
		{`{"type":"object","required":["q"],"properties":{"q":{"type":"string"}}}`, `{"q":1}`},
		{`{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"},{"$ref":"#/$defs/b"}]},"b":{"allOf":[{"$ref":"#/$defs/c"},{"$ref":"#/$defs/c"}]},"c":{"anyOf":[{"$ref":"#/$defs/a"},{"type":"string"}]}},"$ref":"#/$defs/a"}`, `"x"`},
		{`{"$defs":{"t":{"oneOf":[{"properties":{"c":{"$ref":"#/$defs/t"}}},{"properties":{"c":{"$ref":"#"}}}]}},"$ref":"#/$defs/t"}`, `{"c":{"c":{"c":{}}}}`},
		{`{"items":[{"$anchor":"x"},{"$ref":"#x"}],"additionalItems":{"not":{"$ref":"#"}}}`, `[1,[2],[[3]]]`},
		{`{"$id":"s.json","if":{"$ref":"s.json"},"then":true,"else":false}`, `null`},
		{`{"patternProperties":{".":{"$ref":"#"}},"propertyNames":{"maxLength":1}}`, `{"a":{"b":{}}}`},
		{`{"maximum":1e308,"multipleOf":1e-300}`, `1e308`},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, schema, value string) {
		var s, v any
		if json.Unmarshal([]byte(schema), &s) != nil || json.Unmarshal([]byte(value), &v) != nil {
			return
		}
		errs, err := schemaErrors(Adapter.NativeToValue(v), Adapter.NativeToValue(s))
		if err != nil {
			return
		}
		for _, e := range errs {
			if e == "" {
				t.Fatalf("an empty message among %q", errs)
			}
		}
	})
}
