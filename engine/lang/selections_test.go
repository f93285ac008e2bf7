package lang

import (
	"testing"
)

// TestSelectionsEstimatedAsCharged: the tracker charges a selection or
// an index on a value that is no variable (what a call returns, a list
// or a map written out) a unit for the value, as for a variable, and
// one for the field, where cel-go's estimate charged the field alone;
// and a selection or an index on a dyn value a unit, where it charged
// nothing: so omit(tool, ['name']).description.size() was charged 15
// against a static estimate of 14, d.x.y.z 4 against 1. An estimate
// below the charge is unsound: a formula made of such steps, in a
// macro, runs untracked past its limit. Each row's charge, on data at
// its bound, is within its static estimate.
func TestSelectionsEstimatedAsCharged(t *testing.T) {
	e, err := NewEnv(Var{"tool", Tool}, Var{"d", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]any{"a": map[string]any{"b": 1}, "b": 2}
	tool := map[string]any{"name": "t", "description": "abc",
		"x": map[string]any{"y": map[string]any{"z": 1}}, "list": []any{row, row, row}}
	for _, src := range []string{
		"omit(tool, ['name']).description.size()",
		"omit(d, ['name']).description",
		"has(omit(d, ['a']).x)",
		"dyn(tool).description",
		"{'a': 'x'}.a",
		"[tool][0].description",
		"d.description",
		"d.x.y.z",
		"d.list[0]",
		"d.list[size(d.list) - 1]",
		"d.list[d.x.y.z]",
		"d.list.map(x, x.a.b)",
		"d.list.map(x, omit(x, ['a']).b)",
		"d.list.map(x, x)[0].a.b",
	} {
		wantChargeWithin(t, e, src, map[string]any{"tool": ToolValue(tool), "d": tool}, 4, src, true)
	}
}
