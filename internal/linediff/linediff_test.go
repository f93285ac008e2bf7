package linediff

import (
	"slices"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       []string
	}{
		{"same", "x\ny", "x\ny", []string{"  x", "  y"}},
		{"one changed", "a\nb\nc", "a\nB\nc", []string{"  a", "- b", "+ B", "  c"}},
		{"added at the end", "a", "a\nb", []string{"  a", "+ b"}},
		{"removed at the start", "a\nb", "b", []string{"- a", "  b"}},
		{"all new", "a", "b", []string{"- a", "+ b"}},
		{"from nothing", "", "a", []string{"- ", "+ a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := Lines(strings.Split(tt.a, "\n"), strings.Split(tt.b, "\n"))
			if !ok {
				t.Fatal("not ok for small texts")
			}
			var got []string
			for _, l := range d {
				got = append(got, l.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestLinesKeepBothTexts: whatever the texts, the diff's ' ' and '-' lines
// are a, and its ' ' and '+' lines are b, and the ' ' lines are as many
// as a longest common subsequence has.
func TestLinesKeepBothTexts(t *testing.T) {
	a := strings.Split("a b c a b b a", " ")
	b := strings.Split("c b a b a c", " ")
	d, _ := Lines(a, b)
	var gotA, gotB []string
	same := 0
	for _, l := range d {
		if l.Op != '+' {
			gotA = append(gotA, l.Text)
		}
		if l.Op != '-' {
			gotB = append(gotB, l.Text)
		}
		if l.Op == ' ' {
			same++
		}
	}
	if !slices.Equal(gotA, a) || !slices.Equal(gotB, b) {
		t.Errorf("the diff rebuilds %q and %q, want %q and %q", gotA, gotB, a, b)
	}
	if same != 4 { // "c b b a" or "b a b a": no common subsequence of 5
		t.Errorf("%d unchanged lines, want 4", same)
	}
}

func TestLinesTooLarge(t *testing.T) {
	a := make([]string, MaxLines+1)
	d, ok := Lines(a, []string{"x"})
	if ok || len(d) != MaxLines+2 || d[0].Op != '-' || d[len(d)-1] != (Line{'+', "x"}) {
		t.Errorf("ok %v, %d lines (first %q, last %q), want every line removed then added", ok, len(d), d[0], d[len(d)-1])
	}
}
