package redact

import (
	"slices"
	"testing"
)

// TestLongestFirst: longest first, ties by text, repeats dropped, so
// that Values hides "abcdef" whole before "abc" inside it.
func TestLongestFirst(t *testing.T) {
	got := LongestFirst([]string{"abc", "abcdef", "xyz", "abc", "zz-long"})
	want := []string{"zz-long", "abcdef", "abc", "xyz"}
	if !slices.Equal(got, want) {
		t.Errorf("LongestFirst = %q, want %q", got, want)
	}
}
