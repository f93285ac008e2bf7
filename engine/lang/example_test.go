package lang_test

import (
	"fmt"

	"github.com/rubricmcp/rubric/engine/lang"
)

// show compiles and evaluates a formula over a tool and prints its result
// the way reports write it.
func show(src string, tool map[string]any) {
	env, err := lang.NewEnv(lang.Var{Name: "tool", Type: lang.Object})
	if err != nil {
		panic(err)
	}
	p, diags := env.Compile(src, nil)
	if diags != nil {
		fmt.Println(src, "→", diags)
		return
	}
	v, err := p.Eval(map[string]any{"tool": tool})
	if err != nil {
		fmt.Println(src, "→ error:", err)
		return
	}
	out, err := lang.Native(v)
	if err != nil {
		fmt.Println(src, "→ error:", err)
		return
	}
	if n, ok := lang.ToNum(v); ok == nil {
		fmt.Println(src, "→", n.Exact())
		return
	}
	fmt.Println(src, "→", out)
}

// Every number is exact: fractions stay fractions, and division never
// truncates.
func Example_exactNumbers() {
	show("0.1 + 0.2 == 0.3", nil)
	show("1 / 3", nil)
	show("7 / 2 * 2", nil)
	show("7 % 2", nil)
	// Output:
	// 0.1 + 0.2 == 0.3 → true
	// 1 / 3 → 1/3
	// 7 / 2 * 2 → 7
	// 7 % 2 → 1
}

// round rounds half away from zero, where binary floats would not:
// 2.85 is 2.8499999999999996 as a float64.
func Example_round() {
	show("round(2.85, 1)", nil)
	show("round(3.25, 1)", nil)
	show("round(1373 / 15, 1)", nil)
	show("round(-0.25, 1)", nil)
	// Output:
	// round(2.85, 1) → 29/10
	// round(3.25, 1) → 33/10
	// round(1373 / 15, 1) → 183/2
	// round(-0.25, 1) → -3/10
}

// The list functions: sum, mean, median, min, max.
func Example_lists() {
	show("sum([10, 15, 20 * 2 / 3])", nil)
	show("mean([100, 75, 0])", nil)
	show("median([4, 1, 3, 2])", nil)
	show("min([3, 1.5, 2])", nil)
	show("max([3, 1.5, 2])", nil)
	show("mean([])", nil)
	// Output:
	// sum([10, 15, 20 * 2 / 3]) → 115/3
	// mean([100, 75, 0]) → 175/3
	// median([4, 1, 3, 2]) → 5/2
	// min([3, 1.5, 2]) → 3/2
	// max([3, 1.5, 2]) → 3
	// mean([]) → error: mean of an empty list
}

// efficiency is linear between an ideal value (1) and an unacceptable one
// (0), and clamp keeps a value in a range.
func Example_efficiency() {
	show("efficiency(1500, 1000, 5000)", nil)
	show("efficiency(800, 1000, 5000)", nil)
	show("efficiency(0.9, 1, 0)", nil)
	show("clamp(120, 0, 100)", nil)
	// Output:
	// efficiency(1500, 1000, 5000) → 7/8
	// efficiency(800, 1000, 5000) → 1
	// efficiency(0.9, 1, 0) → 9/10
	// clamp(120, 0, 100) → 100
}

// params lists a tool's parameters, sorted by name, with local $refs
// resolved; keys beside a $ref win over the target's.
func Example_params() {
	tool := map[string]any{"inputSchema": map[string]any{
		"type":     "object",
		"required": []any{"id"},
		"properties": map[string]any{
			"id":    map[string]any{"$ref": "#/$defs/Id", "description": "The record"},
			"limit": map[string]any{"type": []any{"integer", "null"}},
		},
		"$defs": map[string]any{"Id": map[string]any{"type": "string", "description": "An id"}},
	}}
	show("params(tool).map(p, p.name)", tool)
	show("params(tool).map(p, p.required)", tool)
	show("params(tool)[0].schema.description", tool)
	show("params(tool).map(p, typed(p.schema))", tool)
	show("schema_types(params(tool)[1].schema)", tool)
	// Output:
	// params(tool).map(p, p.name) → [id limit]
	// params(tool).map(p, p.required) → [true false]
	// params(tool)[0].schema.description → The record
	// params(tool).map(p, typed(p.schema)) → [true true]
	// schema_types(params(tool)[1].schema) → [integer null]
}

// typed: a type, a const, a non-empty enum, or anyOf/oneOf whose every
// branch is typed.
func Example_typed() {
	for _, schema := range []string{
		`{"type": "string"}`,
		`{"enum": ["a", "b"]}`,
		`{"const": 1}`,
		`{"anyOf": [{"type": "integer"}, {"type": "null"}]}`,
		`{"anyOf": [{"type": "integer"}, {"description": "anything"}]}`,
		`{"enum": []}`,
	} {
		show("typed("+schema+")", nil)
	}
	// Output:
	// typed({"type": "string"}) → true
	// typed({"enum": ["a", "b"]}) → true
	// typed({"const": 1}) → true
	// typed({"anyOf": [{"type": "integer"}, {"type": "null"}]}) → true
	// typed({"anyOf": [{"type": "integer"}, {"description": "anything"}]}) → false
	// typed({"enum": []}) → false
}

// A mistake is found when the formula is compiled, with its position.
func Example_compileError() {
	show("mean(['a', 'b'])", nil)
	show("nosuch(tool)", nil)
	// Output:
	// mean(['a', 'b']) → [1:5: found no matching overload for 'mean' applied to '(list(string))']
	// nosuch(tool) → [1:7: undeclared reference to 'nosuch']
}

// token_count counts tokens exactly as a model's tokenizer splits the
// text, with the encoding named in the formula (so in the rubric's
// digest); the tables are in the binary, nothing is downloaded.
func Example_tokenCount() {
	show("token_count('hello world', 'o200k_base')", nil)
	show("token_count(canonical_json({'name': 'get_bookmark'}), 'cl100k_base')", nil)
	show("token_count('x', 'gpt9')", nil)
	// Output:
	// token_count('hello world', 'o200k_base') → 2
	// token_count(canonical_json({'name': 'get_bookmark'}), 'cl100k_base') → 7
	// token_count('x', 'gpt9') → error: token_count: no token encoding "gpt9": use one of o200k_base, cl100k_base, p50k_base, r50k_base
}
