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
