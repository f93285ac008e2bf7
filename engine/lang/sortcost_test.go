package lang

import (
	"fmt"
	"testing"
)

// listOf is data of one list, xs, holding strs, and its bound.
func listOf(t *testing.T, strs []any) (*Env, Vars, uint64) {
	t.Helper()
	e, err := NewEnv(Var{"xs", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	size := uint64(len(strs))
	for _, s := range strs {
		if str, ok := s.(string); ok {
			size = max(size, uint64(len(str)))
		}
	}
	return e, Vars{"xs": strs}, size
}

// TestSortSizedAsItsList: the list extension sized l.sort() as the
// square of l, so that a join of a sorted list of n words was estimated
// as one of n*n words. It is sized as l: what a join adds to a sort is
// what it costs alone, give or take a unit.
func TestSortSizedAsItsList(t *testing.T) {
	// As many words as each has characters: the data's bound is both.
	words := make([]any, 200)
	for i := range words {
		words[i] = fmt.Sprintf("%0200d", len(words)-i)
	}
	e, act, size := listOf(t, words)
	cost := func(src string) uint64 {
		return compileAt(t, e, src, CostLimit).costOn(act, size)
	}
	sorted, sortedJoined, joined := cost("xs.sort()"), cost("xs.sort().join(' ')"), cost("xs.join(' ')")
	if extra := sortedJoined - sorted; extra > joined+1 {
		t.Errorf("a join of the sorted list adds %d to its sort's %d, where a join of the list costs %d", extra, sorted, joined)
	}
	p := compileAt(t, e, "xs.sort().join(' ')", 1<<62)
	_, charge, err := evalTracked(t, p, act)
	if err != nil {
		t.Fatal(err)
	}
	if charge > sortedJoined {
		t.Errorf("charged %d, above its estimate %d", charge, sortedJoined)
	}
}
