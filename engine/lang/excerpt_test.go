package lang

import "testing"

// TestContext pins that an excerpt's context is cut between words, never
// inside one, and that a cut is marked.
func TestContext(t *testing.T) {
	const s = "Search type: 'vector'). Note to LLM: Use the collection index."
	match := func(sub string) (int, int) {
		r := []rune(s)
		for i := range r {
			if string(r[i:min(i+len([]rune(sub)), len(r))]) == sub {
				return i, i + len([]rune(sub))
			}
		}
		t.Fatalf("%q not in %q", sub, s)
		return 0, 0
	}
	start, end := match("Note to LLM")
	for _, c := range []struct {
		name          string
		s             string
		i, n          int
		before, after string
	}{
		{"mid-word cuts move to a space", s, -1, 16, "…'vector'). ", ": Use the…"},
		{"a cut at a space keeps the word", s, -1, 14, "…'vector'). ", ": Use the…"},
		{"the whole text fits", s, -1, 100, "Search type: 'vector'). ", ": Use the collection index."},
		{"no space in the window", "abcdefghijXYZklmnopqrst", 10, 4, "…ghij", ""},
		{"nothing asked", s, -1, 0, "…", "…"},
		{"offsets past the ends", "short", 99, 3, "…ort", ""},
		{"letters of other scripts", "ünïcödé wörds «x» möré wörds hére", 14, 9, "…wörds ", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, en := c.i, c.i
			if c.i < 0 {
				st, en = start, end
			}
			if got := ContextBefore(c.s, st, c.n); got != c.before {
				t.Errorf("ContextBefore(%q, %d, %d) = %q, want %q", c.s, st, c.n, got, c.before)
			}
			if c.after == "" {
				return
			}
			if got := ContextAfter(c.s, en, c.n); got != c.after {
				t.Errorf("ContextAfter(%q, %d, %d) = %q, want %q", c.s, en, c.n, got, c.after)
			}
		})
	}
}
