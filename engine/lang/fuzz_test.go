package lang

import (
	"testing"
)

// FuzzEval compiles any formula and, when it compiles, evaluates it on a
// tool with parameters, with and without cost tracking: it may fail, but
// it must not panic, and the tracked run must end.
func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"round(tool.inputSchema.properties.a.maximum, 1)",
		"round(1.5, tool.name)",
		"sum(params(tool).map(p, p.required))",
		"clamp(tool.x, 0, 1)",
		"typed(params(tool)[0].schema) && schema_types(tool.inputSchema) == ['object']",
		"efficiency(size(tool.description), 10, 0)",
		"mean(params(tool).map(p, size(p.name))) / 0",
		"num(tool.name) + 1",
		"-tool.inputSchema.properties.a.maximum",
		"1 == 1.0 && 'a' != 2 && [1] == [1.0]",
		"tool.inputSchema.required.exists(r, nonblank(r)) ? 1 : 2.5",
		"min(params(tool).map(p, p.schema)) < 1",
		"params(tool).all(a, params(tool).all(b, a.name != b.name || a == b))",
		"find_all_in([tool.description, tool.name], '[A-Za-z]+', {'Lists': 1}, tool.inputSchema)",
	} {
		f.Add(s)
	}
	env, err := NewEnv(Var{"tool", Object}, Var{"item", Dyn})
	if err != nil {
		f.Fatal(err)
	}
	tool := map[string]any{
		"name":        "t",
		"description": "Lists things.",
		"x":           2.5,
		"inputSchema": map[string]any{
			"type":     "object",
			"required": []any{"a"},
			"properties": map[string]any{
				"a": map[string]any{"type": "number", "maximum": 10.0, "description": "A"},
				"b": map[string]any{"$ref": "#/$defs/B"},
			},
			"$defs": map[string]any{"B": map[string]any{"anyOf": []any{map[string]any{"type": "string"}, true}}},
		},
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, diags := env.Compile(src, nil)
		if diags != nil {
			for _, d := range diags {
				if d.Line < 1 || d.Col < 1 {
					t.Fatalf("diagnostic without a position: %+v", d)
				}
			}
			return
		}
		vars := Vars{"tool": ToolValue(tool), "item": nil}
		_, _ = p.EvalSized(vars, 64)
		_, _ = p.EvalIn(vars)
	})
}

// FuzzFromJSON: any JSON a judge sends decodes to exact values that
// encode back canonically, and decoding that again gives the same bytes.
func FuzzFromJSON(f *testing.F) {
	for _, s := range []string{`{"n": 3}`, `{"a": [1, 2.5, -0.1, 1e3, 12345678901234567890]}`, `"x"`, `null`, `{"b": {"c": true}}`, `[0.1, 0.2]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := FromJSON(data)
		if err != nil {
			return
		}
		b, err := MarshalCanonical(v)
		if err != nil {
			t.Fatalf("%q decoded but does not encode: %v", data, err)
		}
		v2, err := FromJSON(b)
		if err != nil {
			t.Fatalf("canonical %q does not decode: %v", b, err)
		}
		b2, err := MarshalCanonical(v2)
		if err != nil || string(b) != string(b2) {
			t.Fatalf("canonical form is not stable: %q then %q (%v)", b, b2, err)
		}
	})
}
