package eval

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
)

// TestLongNumbersSized: a value holding a number longer than a double's
// digits (a let or a signal a formula computed, within its own cost
// limit, by squarings; an answer's number) is sized by its digits, as a
// string is by its length. It was sized 0, so a formula reading it was
// handed a short data bound, and its estimate took the number to be as
// short as a double: squarings of it could run untracked far past the
// limit. A number of a double's digits or fewer still counts 0. Bytes
// counted 0 too: a formula reading only a signal of long bytes is
// bounded by that signal alone (Scope.BoundMembers).
func TestLongNumbersSized(t *testing.T) {
	long := num.MustParse(strings.Repeat("9", 1000))
	short := num.MustParse("12345.5")
	for _, tc := range []struct {
		name     string
		got      uint64
		atLeast  uint64
		exactly0 bool
	}{
		{"a long number in the formulas' values", valSize(lang.Num{N: long}), 1000, false},
		{"a long number", ValueSize(long), 1000, false},
		{"a long number in a list", ValueSize([]any{"a", long}), 1000, false},
		{"a long number in a map", ValueSize(map[string]any{"n": long}), 1000, false},
		{"a short number in the formulas' values", valSize(lang.Num{N: short}), 0, true},
		{"a short number", ValueSize(short), 0, true},
		// Bytes a formula built (b'...' + b'...'), and a number as a
		// report writes it, are as long as their bytes.
		{"bytes", ValueSize([]byte(strings.Repeat("b", 1000))), 1000, false},
		{"a number as written", ValueSize(json.Number(strings.Repeat("9", 1000))), 1000, false},
	} {
		if tc.got < tc.atLeast || tc.exactly0 && tc.got != 0 {
			t.Errorf("%s: size %d, want at least %d (exactly 0: %v)", tc.name, tc.got, tc.atLeast, tc.exactly0)
		}
	}
}
