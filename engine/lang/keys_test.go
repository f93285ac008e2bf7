package lang

import (
	"slices"
	"testing"

	"github.com/google/cel-go/cel"
)

// TestLiteralKeys: a map literal of string keys gives its keys, through
// the lets it reads; any other formula gives none.
func TestLiteralKeys(t *testing.T) {
	e, err := NewEnv(Var{"tool", Object})
	if err != nil {
		t.Fatal(err)
	}
	lets := []Let{{Name: "n", Src: "size(tool.name)"}}
	for _, tc := range []struct {
		src  string
		keys []string
		ok   bool
	}{
		{"{'name': tool.name, 'count': 2}", []string{"name", "count"}, true},
		{"{'name': tool.name, 'len': n}", []string{"name", "len"}, true},
		{"{}", nil, true},
		{"{tool.name: 1}", nil, false},
		{"{1: 'a'}", nil, false},
		{"tool", nil, false},
		{"true ? {'a': 1} : {'b': 2}", nil, false},
	} {
		t.Run(tc.src, func(t *testing.T) {
			p, ds := e.CompileLets(tc.src, cel.MapType(cel.DynType, cel.DynType), nil, lets)
			if ds != nil {
				t.Fatal(ds)
			}
			keys, ok := p.LiteralKeys()
			if ok != tc.ok || !slices.Equal(keys, tc.keys) {
				t.Errorf("LiteralKeys() = %q, %v; want %q, %v", keys, ok, tc.keys, tc.ok)
			}
		})
	}
}
