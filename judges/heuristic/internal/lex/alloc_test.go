package lex

import (
	"maps"
	"slices"
	"testing"
)

// TestTextHandsOverItsBuffers: the lowered text and the words' text are
// the buffers they were written into, not copies of them (owned): Lower
// allocates its one buffer, and NewText no more than its buffers and
// lists (the words' buffer, the lowered text, the sentences, where they
// start, the words).
func TestTextHandsOverItsBuffers(t *testing.T) {
	s := "Creates a Page in the workspace. Use it when the user asks; never for databases."
	if n := testing.AllocsPerRun(100, func() { _ = Lower(s) }); n != 1 {
		t.Errorf("Lower allocates %v times, want 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = NewText(s) }); n > 6 {
		t.Errorf("NewText allocates %v times, want at most 6", n)
	}
}

// TestSentencesAllocateTheirListOnce: the sentences of a description are
// gathered on the stack and copied out once, where the list grew at
// each of them; none makes a nil list, as before.
func TestSentencesAllocateTheirListOnce(t *testing.T) {
	s := "Creates a page. Use it when the user asks. Never for databases. See the docs."
	if n := testing.AllocsPerRun(100, func() { _ = Sentences(s) }); n != 1 {
		t.Errorf("Sentences allocates %v times, want 1", n)
	}
	if got := Sentences("  \n "); got != nil {
		t.Errorf("no sentence gives %#v, want nil", got)
	}
}

// TestSortedKeys: SortedKeys is slices.Sorted(maps.Keys(m)), nil for an
// empty map, and allocates its list once.
func TestSortedKeys(t *testing.T) {
	for _, m := range []map[string]int{nil, {}, {"b": 1}, {"delta": 1, "alpha": 2, "charlie": 3, "bravo": 4, "echo": 5, "foxtrot": 6, "golf": 7, "hotel": 8, "india": 9}} {
		got, want := SortedKeys(m), slices.Sorted(maps.Keys(m))
		if !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("SortedKeys(%v) = %#v, want %#v", m, got, want)
		}
	}
	m := map[string]float64{"delta": 1, "alpha": 2, "charlie": 3, "bravo": 4, "echo": 5, "foxtrot": 6, "golf": 7, "hotel": 8, "india": 9}
	if n := testing.AllocsPerRun(100, func() { _ = SortedKeys(m) }); n != 1 {
		t.Errorf("SortedKeys allocates %v times, want 1", n)
	}
}
