package eval

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

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
// bounded by that signal alone (Scope.SetMembers).
func TestLongNumbersSized(t *testing.T) {
	long := num.MustParse(strings.Repeat("9", 1000))
	short := num.MustParse("12345.5")
	for _, tc := range []struct {
		name     string
		got      uint64
		atLeast  uint64
		exactly0 bool
	}{
		{"a long number in the formulas' values", RefSize(lang.Num{N: long}), 1000, false},
		{"a long number", ValueSize(long), 1000, false},
		{"a long number in a list", ValueSize([]any{"a", long}), 1000, false},
		{"a long number in a map", ValueSize(map[string]any{"n": long}), 1000, false},
		{"a short number in the formulas' values", RefSize(lang.Num{N: short}), 0, true},
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

// TestKeptValuesSized: what lang.Native keeps of a formula's value is
// sized by the longest string, list or map in it, whatever form it is
// kept in. An optional's value is kept as cel-go holds it (a list of
// strings, a list or a map of formula values), which ValueSize sized 0,
// so a signal holding optional.of(words) bounded the formulas reading
// only it by 0, and they ran untracked over every word. A form it does
// not know is Unbounded, never 0.
func TestKeptValuesSized(t *testing.T) {
	long := strings.Repeat("w", 1000)
	words := types.NewStringList(lang.Adapter, []string{"a", long})
	kept, err := lang.Native(types.OptionalOf(words))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		v    any
		want uint64
	}{
		{"a list of strings", []string{"a", long}, 1000},
		{"a list of formula values", []ref.Val{types.String("a"), words}, 1000},
		{"a map of formula values", map[ref.Val]ref.Val{types.String("k"): words}, 1000},
		{"a formula value", words, 1000},
		{"an optional of a list, as Native keeps it", kept, 1000},
		{"an unknown form", struct{ s string }{long}, Unbounded},
		{"a number", int64(7), 0},
	} {
		if got := ValueSize(tc.v); got != tc.want {
			t.Errorf("%s (%T): size %d, want %d", tc.name, tc.v, got, tc.want)
		}
	}
	// A let's value, sized as a formula value.
	for _, tc := range []struct {
		name string
		v    ref.Val
		want uint64
	}{
		{"an optional", types.OptionalOf(words), 1000},
		{"no value", types.OptionalNone, 0},
		{"bytes", types.Bytes(long), 1000},
	} {
		if got := RefSize(tc.v); got != tc.want {
			t.Errorf("%s: size %d, want %d", tc.name, got, tc.want)
		}
	}
}
