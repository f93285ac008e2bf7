package lang

import (
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// TestJSONMapAsCelGosMap evaluates formulas over a map given as a Go map
// (which the adapter makes a jsonMap) and as cel-go's own map of the same
// values, and wants the same result or the same error from both.
func TestJSONMapAsCelGosMap(t *testing.T) {
	e, err := NewEnv(Var{"m", Object})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{
		"a": int64(1), "b": "text", "n": nil, "l": []any{"x", map[string]any{"y": true}},
		"o": map[string]any{"p": map[string]any{"q": "deep"}}, "empty": map[string]any{},
	}
	formulas := []string{
		"m.a", "m.b", "m.n", "m.l[1].y", "m.o.p.q", "m['o']['p']",
		"has(m.a)", "has(m.zz)", "has(m.o.p)", "has(m.o.zz)",
		"'a' in m", "'zz' in m", "dyn(1) in dyn(m)",
		"size(m)", "size(m.empty)", "size(m.o)",
		"m.zz", "m.o.zz", "dyn(m)[1]",
		"m == m", "m.o == {'p': {'q': 'deep'}}", "m.o == {'p': {'q': 'other'}}", "m.empty == {}", "m.o != m.empty",
		"m.map(k, k).size()", "m.exists(k, k == 'b')", "m.all(k, k != 'zz')", "m.filter(k, k < 'c')",
		"type(m) == map", "type(m.o)", "m.o.p",
	}
	celMap := types.NewStringInterfaceMap(Adapter, m)
	outcome := func(src string, v any) string {
		p, ds := e.Compile(src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", src, ds)
		}
		out, err := p.EvalSized(Vars{"m": v}, 1<<10)
		if err != nil {
			return "error: " + err.Error()
		}
		if out.Type() == types.TypeType {
			return "type: " + out.(ref.Type).TypeName()
		}
		n, err := Native(out)
		if err != nil {
			return "native error: " + err.Error()
		}
		if l, ok := n.([]any); ok && src == "m.filter(k, k < 'c')" {
			n = len(l) // the keys' order is the map's
		}
		b, err := MarshalCanonical(n)
		if err != nil {
			return "marshal error: " + err.Error()
		}
		return string(b)
	}
	for _, src := range formulas {
		got, want := outcome(src, m), outcome(src, celMap)
		if got != want {
			t.Errorf("%s: %s as a Go map, %s as cel-go's map", src, got, want)
		}
	}
	one := map[string]any{"k": []any{"v", int64(2)}}
	if got, want := jsonMap(one).String(), types.Format(types.NewStringInterfaceMap(Adapter, one)); got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
}
