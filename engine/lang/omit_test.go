package lang

import (
	"fmt"
	"strings"
	"testing"
)

// TestOmitOfTheToolKeepsItsBound: omit(tool, keys) is the tool without
// some of its keys, no longer than the tool and walked no further, so a
// formula over its texts or strings (a definition's, but for a member
// the engine adds) is bounded as one over the tool's: the first, which
// finds the names a definition mentions, runs untracked on an ordinary
// tool, where each had no bound and was always tracked, and what the
// tracker charges each, on tools of every shape at their bound, stays
// within its static estimate.
func TestOmitOfTheToolKeepsItsBound(t *testing.T) {
	e, err := NewEnv(Var{"tool", Tool})
	if err != nil {
		t.Fatal(err)
	}
	props := map[string]any{}
	for i := range 4 {
		props[fmt.Sprintf("p%d", i)] = map[string]any{"type": "string", "description": fmt.Sprintf("value %d", i)}
	}
	ordinary := map[string]any{"name": "read_file", "description": "Reads a file; see list_files.", "rubric/server": "fs",
		"inputSchema": map[string]any{"type": "object", "properties": props}}
	tools := []map[string]any{
		ordinary,
		{"name": "t", "rubric/server": strings.Repeat("s", 200), "inputSchema": map[string]any{"properties": map[string]any{
			strings.Repeat("/", 60): map[string]any{"description": "a", "title": "b"}}}},
		{"name": "t", "enum": []any{"", "", "", "", "", "", "", "", "", "", "", ""}},
	}
	for _, src := range []string{
		"texts(omit(tool, ['rubric/server'])).filter(t, !t.key && t.path != '/name').map(t, find_all(t.text, '[A-Za-z0-9]+([_.-][A-Za-z0-9]+)*').size())",
		"texts(omit(tool, ['rubric/server']), true).map(t, t.path + t.path).map(p, find_all(p, '.').size())",
		"string_values(omit(tool, ['name'])).map(s, s.matches('" + strings.Repeat("y", 20) + "'))",
	} {
		for i, tool := range tools {
			n := jsonSize(t, tool)
			if i == 0 && strings.HasPrefix(src, "texts(omit(tool, ['rubric/server'])).filter") {
				p, ds := e.Compile(src, nil)
				if ds != nil {
					t.Fatalf("%s: %v", src, ds)
				}
				if !p.Untracked(n) {
					t.Errorf("%.60s: tracked on an ordinary tool of %d bytes, want untracked", src, n)
				}
			}
			wantChargeWithin(t, e, src, map[string]any{"tool": ToolValue(tool)}, n, fmt.Sprintf("tool %d: %.60s", i, src), true)
		}
	}
}
