package lex

import "testing"

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
