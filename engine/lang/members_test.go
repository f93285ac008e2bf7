package lang

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/google/cel-go/common/types"
)

// TestMembers: the members of a variable a formula reads, when it reads
// it only through them, and the formula's value over those members alone
// the same as over the whole definition; a read of the whole, or a pass
// to a function, reads it whole (nil).
func TestMembers(t *testing.T) {
	env, err := NewEnv(Var{"tool", Object}, Var{"answers", Object})
	if err != nil {
		t.Fatal(err)
	}
	def := map[string]any{"name": "read_note", "title": "Read", "annotations": map[string]any{"readOnlyHint": true},
		"inputSchema": map[string]any{"type": "object"}}
	for _, tc := range []struct {
		src     string
		members []string // nil: the tool is read whole
	}{
		{`answers.x`, []string{}},
		{`tool.name`, []string{"name"}},
		{`answers.x != null && tool.name in ['read_note'] ? ['Shadowing Risk'] : []`, []string{"name"}},
		{`has(tool.title) && tool['annotations'].readOnlyHint`, []string{"annotations", "title"}},
		{`'description' in tool`, []string{"description"}},
		{`['a'].map(tool, tool + '!')`, []string{}},
		{`['a'].map(tool, tool) + [tool.name]`, []string{"name"}},
		{`tool`, nil},
		{`size(tool)`, nil},
		{`params(tool)`, nil},
		{`canonical_json(tool)`, nil},
		{`tool[tool.name]`, nil},
		{`cel.bind(t, tool, t.name)`, nil},
		{`tool.map(k, k)`, nil},
	} {
		p, ds := env.Compile(tc.src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", tc.src, ds)
		}
		got, ok := p.Members("tool")
		if ok != (tc.members != nil) || ok && !slices.Equal(slices.Sorted(maps.Keys(got)), tc.members) {
			t.Errorf("%s: Members = %v, %v; want %v", tc.src, got, ok, tc.members)
			continue
		}
		if !ok {
			continue
		}
		cut := map[string]any{}
		for k := range got {
			if v, has := def[k]; has {
				cut[k] = v
			}
		}
		answers := map[string]any{"x": 1}
		whole, werr := p.Eval(map[string]any{"tool": ToolValue(def), "answers": answers})
		part, perr := p.Eval(map[string]any{"tool": ToolValue(cut), "answers": answers})
		if fmt.Sprint(werr) != fmt.Sprint(perr) || werr == nil && whole.Equal(part) != types.True {
			t.Errorf("%s: %v, %v over the whole tool; %v, %v over its members", tc.src, whole, werr, part, perr)
		}
	}
}
