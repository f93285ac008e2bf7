package lang

import (
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
)

// TestFixedVariablesBoundedByTheirValue: a variable whose value the
// formula was compiled with (CompileWith; a rubric's weights) is bounded
// by the longest string, list or map in that value, not by the data's
// bound, and only where an identifier reads it. The estimate looked a
// fixed variable up by an identifier with no path, which cel-go never
// gives the variable (it names it by its path, "w"), only a cel.bind's
// variable bound to a value with none: so a fixed list longer than the
// data, or one holding a longer string, was estimated as the data's,
// and a cel.bind that took a fixed variable's name for a list of the
// data was estimated at the fixed one's length; each of these ran
// untracked past CostLimit. Each scan's step reads a string, so that
// the limit is met within few steps.
func TestFixedVariablesBoundedByTheirValue(t *testing.T) {
	e, err := NewEnv(append(rangeVars[:len(rangeVars):len(rangeVars)], Var{"w", cel.ListType(cel.StringType)})...)
	if err != nil {
		t.Fatal(err)
	}
	many, long := make([]any, 1200), make([]any, 64)
	for i := range many {
		many[i] = strings.Repeat("x", 64)
	}
	for i := range long {
		long[i] = strings.Repeat("x", 20_000)
	}
	for _, c := range []struct {
		name  string
		w     []any
		n     int
		names int
		src   string
	}{
		{"a longer list", many, 64, 64, "w.all(a, w.all(b, !a.contains(b + 'z')))"},
		{"longer strings", long, 64, 64, "w.all(s, names.all(m, !s.contains(m + 'z')))"},
		{"a cel.bind of its name", []any{"x"}, 1024, 400, "cel.bind(a, dyn(names), cel.bind(w, a, w.all(x, w.all(y, !x.contains(y + 'z')))))"},
	} {
		act := rangeData(c.n)
		act["names"] = act["names"].([]any)[:c.names]
		p, ds := e.CompileWith(c.src, nil, map[string]any{"w": c.w})
		if ds != nil {
			t.Fatalf("%s: %v", c.src, ds)
		}
		if _, err := p.EvalSized(act, uint64(c.n)); err == nil || !strings.Contains(err.Error(), "cost limit") {
			t.Errorf("%s: %s on data %d long: got error %v, want the cost limit (untracked: %v)", c.name, c.src, c.n, err, p.Untracked(uint64(c.n)))
		}
	}
}
