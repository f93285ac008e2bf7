package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
)

// TestDistinctAgreesWithTheExtension: the language's distinct returns what
// cel-go's list extension returns (the first of each value, in order,
// under CEL's ==), for lists of one hashable kind and for mixed ones.
func TestDistinctAgreesWithTheExtension(t *testing.T) {
	ref, err := cel.NewEnv(ext.Lists(ext.ListsVersion(3)))
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"[]",
		"[3, 1, 3, 2, 1, 3]",
		"['b', 'b', 'c', 'a', 'c', '']",
		"[true, false, true]",
		"[1, 1.0, 1u, 2, 2.5, 2.5]",
		"[2.5, 1, 1.0, 'a', 'a', null, null]",
		"[[1], [1], [2], [1, 2]]",
		"[{'a': 1}, {'a': 1}, {'a': 2}]",
		"['x', 1, 'x', 1]",
		"[1, 'x', 1, 'x']",
	} {
		ast, iss := ref.Compile(src + ".distinct()")
		if iss.Err() != nil {
			t.Fatal(iss.Err())
		}
		prg, err := ref.Program(ast)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := prg.Eval(cel.NoVars())
		if err != nil {
			t.Fatal(err)
		}
		wantNative, err := Native(want)
		if err != nil {
			t.Fatal(err)
		}
		got := eval(t, src+".distinct()", nil)
		if g, w := fmt.Sprintf("%#v", got), fmt.Sprintf("%#v", wantNative); g != w {
			t.Errorf("%s.distinct() = %s, the extension gives %s", src, g, w)
		}
	}
}

// TestDistinctIsChargedItsWork: distinct over a long list with few values
// (a surface's invocation costs) stays well within a formula's cost limit,
// where the extension charged the square of the length; a list that keeps
// most of its values and must be compared pairwise is still charged the
// comparisons, and stopped.
func TestDistinctIsChargedItsWork(t *testing.T) {
	e, err := NewEnv(Var{"xs", celList()})
	if err != nil {
		t.Fatal(err)
	}
	p, ds := e.Compile("size(xs.distinct())", nil)
	if ds != nil {
		t.Fatal(ds)
	}
	ints := make([]any, 5000)
	strs := make([]any, 5000)
	for i := range ints {
		ints[i] = int64(i % 12)
		strs[i] = fmt.Sprintf("tool_%d", i)
	}
	for name, xs := range map[string][]any{"few ints": ints, "distinct strings": strs} {
		if _, err := p.Eval(map[string]any{"xs": xs}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	mixed := make([]any, 2000)
	for i := range mixed {
		mixed[i] = float64(i) + 0.5
	}
	mixed[0] = "a string among doubles"
	if _, err := p.Eval(map[string]any{"xs": mixed}); err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Errorf("2,000 distinct values of mixed types: got %v, want the cost limit", err)
	}
}

// TestDistinctEstimateBoundsItsCharge: distinct of a list of strings is
// charged a tenth of their characters (distinctCost), which the list
// extension's estimate, the square of the list's length, fell short of
// for a few long strings (two of 20,000 characters: charged 4,008,
// estimated 20). The estimate counts them; and it gives the list's
// length, not its square.
func TestDistinctEstimateBoundsItsCharge(t *testing.T) {
	for _, strs := range [][]any{
		{strings.Repeat("a", 20_000), strings.Repeat("b", 20_000)},
		{"a", "b", "a", "c"},
		{"a", 1, "a", true},
	} {
		e, act, size := listOf(t, strs)
		p := compileAt(t, e, "xs.distinct()", 1<<62)
		_, charge, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatal(err)
		}
		if est := p.costOn(act, size); charge > est {
			t.Errorf("%d elements: charged %d, above the estimate %d", len(strs), charge, est)
		}
	}
	e, act, size := listOf(t, []any{"x", "y", "z"})
	if a, b := compileAt(t, e, "xs.distinct().sort()", 1<<62).costOn(act, size), compileAt(t, e, "xs.sort()", 1<<62).costOn(act, size); a > 2*b {
		t.Errorf("a sort of the distinct elements is estimated %d, a sort of the list %d", a, b)
	}
}
