package lang_test

import (
	"fmt"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
)

// group_by keeps every item of a key, in order; a lookup by key is one
// step, where comparing every pair of a list is quadratic.
func Example_groupBy() {
	show("group_by(['a', 'b', 'c'], ['x', 'y', 'x'])", nil)
	show("group_by([{'server': 'git', 'name': 'search'}, {'server': 'web', 'name': 'search'}], ['search', 'search'])['search'].map(t, t.server)", nil)
	show("group_by([1], [])", nil)
	// Output:
	// group_by(['a', 'b', 'c'], ['x', 'y', 'x']) → map[x:[a c] y:[b]]
	// group_by([{'server': 'git', 'name': 'search'}, {'server': 'web', 'name': 'search'}], ['search', 'search'])['search'].map(t, t.server) → [git web]
	// group_by([1], []) → error: group_by: 1 items but 0 keys
}

// omit drops members by name and leaves the rest as they are.
func Example_omit() {
	show("omit(tool, ['rubric/server'])", map[string]any{"name": "a", "rubric/server": "s"})
	show("omit(tool, ['missing']) == tool", map[string]any{"name": "a"})
	show("size(canonical_json(omit(tool, ['x'])))", map[string]any{"name": "a", "x": "yyyy"})
	// Output:
	// omit(tool, ['rubric/server']) → map[name:a]
	// omit(tool, ['missing']) == tool → true
	// size(canonical_json(omit(tool, ['x']))) → 12
}

func TestGroupByKeepsOrder(t *testing.T) {
	env, err := lang.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ src, want string }{
		{"group_by(['1', '2', '3', '4'], ['b', 'a', 'b', 'b'])['b'].join(',')", "1,3,4"},
		{"group_by([], []).size()", "0"},
		{"'c' in group_by(['x'], ['c'])", "true"},
	} {
		p, diags := env.Compile(tt.src, nil)
		if diags != nil {
			t.Fatalf("%s: %v", tt.src, diags)
		}
		v, err := p.Eval(map[string]any{})
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		got, _ := lang.Native(v)
		if s := toString(got); s != tt.want {
			t.Errorf("%s = %s, want %s", tt.src, s, tt.want)
		}
	}
}

func toString(v any) string { return fmt.Sprint(v) }
