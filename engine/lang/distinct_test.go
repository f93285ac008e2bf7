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
