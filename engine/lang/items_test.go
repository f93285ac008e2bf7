package lang

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

// TestItemMembers: the members of surface.tools' items a formula reads,
// or that it reads an item whole; and where it says only members are
// read, the formula gives the same value or the same error over items
// cut down to those members as over the whole items.
func TestItemMembers(t *testing.T) {
	env, err := NewEnv(Var{"surface", Object}, Var{"answers", Object})
	if err != nil {
		t.Fatal(err)
	}
	tools := []any{
		map[string]any{"name": "a", "description": "reads a", "inputSchema": map[string]any{"type": "object", "required": []any{"x"}}},
		map[string]any{"name": "b", "title": "B", "annotations": map[string]any{"readOnlyHint": true}},
		map[string]any{"name": "c", "description": 3.0},
	}
	for _, tc := range []struct {
		src     string
		members []string // nil: an item is read whole
	}{
		{`1 + 2`, []string{}},
		{`answers.x`, []string{}},
		{`size(surface.tools)`, []string{}},
		{`surface.tools.size() > 0`, []string{}},
		{`has(surface.tools)`, []string{}},
		{`'name' in surface.server`, []string{}},
		{`surface.server.name`, []string{}},
		{`surface.tools.map(t, t.name)`, []string{"name"}},
		{`surface.tools.map(t, t['name'])`, []string{"name"}},
		{`surface.tools.map(t, has(t.description) ? t.description : '')`, []string{"description"}},
		{`surface.tools.all(t, t.description != '')`, []string{"description"}},
		{`surface.tools.exists(t, has(t.annotations) && t.annotations.readOnlyHint)`, []string{"annotations"}},
		{`surface.tools.exists_one(t, t.name == 'a')`, []string{"name"}},
		{`surface.tools.map(t, t.name != 'c', t.title)`, []string{"name", "title"}},
		{`surface.tools.map(t, cel.bind(r, t.inputSchema, {'n': t.name, 'r': r}))`, []string{"inputSchema", "name"}},
		{`surface.tools.map(t, surface.tools.filter(u, u.name < t.name).size())`, nil},
		{`surface.tools.map(t, surface.tools.map(u, u.name).filter(n, n < t.name).size())`, []string{"name"}},
		{`[1].map(t, t) + surface.tools.map(t, t.name).map(t, 1)`, []string{"name"}},
		{`surface.tools.map(t, [t].map(t, t.name))`, nil},
		{`surface.tools.map(t, t.missing)`, []string{"missing"}},
		{`surface.tools.map(t, t)`, nil},
		{`surface.tools.filter(t, t.name == 'a')`, nil},
		{`surface.tools[0].name`, nil},
		{`surface.tools.map(t, t[t.name])`, nil},
		{`surface.tools.map(t, 'name' in t)`, []string{"name"}},
		{`surface.tools.map(t, 'rubric/server' in t && t['rubric/server'] != '')`, []string{"rubric/server"}},
		{`surface.tools.map(t, t.name in t)`, nil},
		{`surface.tools.map(t, 1 in t)`, nil},
		{`surface.tools.map(t, size(t))`, nil},
		{`cel.bind(ts, surface.tools, ts.map(t, t.name))`, nil},
		{`surface.tools == []`, nil},
		{`surface`, nil},
		{`size(surface)`, nil},
		{`surface['tools'].map(t, t.name)`, nil},
		{`[surface.tools].map(ts, size(ts))`, nil},
	} {
		p, ds := env.Compile(tc.src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", tc.src, ds)
		}
		got, ok := p.ItemMembers("surface", "tools")
		if ok != (tc.members != nil) || ok && !slices.Equal(slices.Sorted(maps.Keys(got)), tc.members) {
			t.Errorf("%s: ItemMembers = %v, %v; want %v", tc.src, got, ok, tc.members)
			continue
		}
		if !ok {
			continue
		}
		cut := make([]any, len(tools))
		for i, tool := range tools {
			m := map[string]any{}
			for k := range got {
				if v, has := tool.(map[string]any)[k]; has {
					m[k] = v
				}
			}
			cut[i] = m
		}
		server := map[string]any{"name": "s"}
		whole, werr := p.Eval(map[string]any{"surface": map[string]any{"tools": tools, "server": server}, "answers": map[string]any{"x": 1}})
		part, perr := p.Eval(map[string]any{"surface": map[string]any{"tools": cut, "server": server}, "answers": map[string]any{"x": 1}})
		if fmt.Sprint(werr) != fmt.Sprint(perr) {
			t.Errorf("%s: error %v over whole items, %v over their members", tc.src, werr, perr)
			continue
		}
		if werr == nil {
			w, _ := Native(whole)
			pv, _ := Native(part)
			if fmt.Sprintf("%#v", w) != fmt.Sprintf("%#v", pv) {
				t.Errorf("%s: %#v over whole items, %#v over their members", tc.src, w, pv)
			}
		}
	}
}
