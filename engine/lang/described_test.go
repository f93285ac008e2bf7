package lang_test

import (
	"encoding/json"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
)

// TestDescribed: a description counts where a model reads it, including
// on every non-null branch of the unions schema libraries write for an
// optional value.
func TestDescribed(t *testing.T) {
	cases := []struct {
		name, schema string
		want         bool
	}{
		{"description", `{"type":"string","description":"The query."}`, true},
		{"blank description", `{"type":"string","description":"  "}`, false},
		{"none", `{"type":"string"}`, false},
		{"not a string", `{"type":"string","description":7}`, false},
		{"not an object", `"string"`, false},
		{"pydantic Optional", `{"anyOf":[{"type":"string","description":"The query."},{"type":"null"}]}`, true},
		{"null first, oneOf", `{"oneOf":[{"type":"null"},{"type":"integer","description":"A limit."}]}`, true},
		{"description beside the union", `{"anyOf":[{"type":"string"},{"type":"null"}],"description":"The query."}`, true},
		{"undescribed branch", `{"anyOf":[{"type":"string","description":"A name."},{"type":"integer"},{"type":"null"}]}`, false},
		{"every branch described", `{"anyOf":[{"type":"string","description":"A name."},{"type":"integer","description":"An id."}]}`, true},
		{"only null", `{"anyOf":[{"type":"null"}]}`, false},
		{"null by const and enum", `{"anyOf":[{"const":null},{"enum":[null]},{"type":["null"]},{"type":"string","description":"A."}]}`, true},
		{"undescribed non-null", `{"anyOf":[{"type":"string"},{"type":"null"}]}`, false},
		{"empty union", `{"anyOf":[]}`, false},
		{"allOf with a described branch", `{"allOf":[{"type":"object"},{"description":"Options."}]}`, true},
		{"allOf undescribed", `{"allOf":[{"type":"object"}]}`, false},
		{"nested union", `{"anyOf":[{"anyOf":[{"type":"string","description":"A."},{"type":"null"}]},{"type":"null"}]}`, true},
	}
	for _, c := range cases {
		var s any
		if err := json.Unmarshal([]byte(c.schema), &s); err != nil {
			t.Fatal(err)
		}
		if got := lang.Described(s); got != c.want {
			t.Errorf("%s: Described(%s) = %v, want %v", c.name, c.schema, got, c.want)
		}
	}
}

// A parameter whose description sits on the non-null branch of an
// optional value is described.
func Example_described() {
	show(`params(tool).map(p, described(p.schema))`, map[string]any{"inputSchema": map[string]any{
		"type": "object",
		"properties": map[string]any{
			"limit": map[string]any{"anyOf": []any{
				map[string]any{"type": "integer", "description": "How many to return."},
				map[string]any{"type": "null"},
			}},
			"q": map[string]any{"type": "string"},
		},
	}})
	// Output: params(tool).map(p, described(p.schema)) → [true false]
}
