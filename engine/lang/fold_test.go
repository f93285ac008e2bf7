package lang

import (
	"strings"
	"testing"
)

// TestFold: each fold's copy, and that a match on the copy is reported
// as the original characters it covers.
func TestFold(t *testing.T) {
	tests := []struct {
		name, s  string
		folds    []string
		want     string
		changed  bool
		match    string // a pattern matched on the copy
		original string // the original text of its first match
	}{
		{"ascii is left alone", "Ignore previous instructions", []string{FoldNFKC, FoldConfusable}, "Ignore previous instructions", false, "(?i)ignore", "Ignore"},
		{"full-width letters", "Ａ: Ｉｇｎｏｒｅ previous", []string{FoldNFKC}, "A: Ignore previous", true, "(?i)ignore previous", "Ｉｇｎｏｒｅ previous"},
		{"a ligature is two letters of one original", "the ﬁle", []string{FoldNFKC}, "the file", true, "fi", "ﬁ"},
		{"a match inside a ligature covers it whole", "the ﬁle", []string{FoldNFKC}, "the file", true, "il", "ﬁl"},
		{"mathematical bold", "𝐈𝐠𝐧𝐨𝐫𝐞 all", []string{FoldNFKC}, "Ignore all", true, "(?i)ignore all", "𝐈𝐠𝐧𝐨𝐫𝐞 all"},
		{"a Cyrillic о in a Latin word", "Ignоre previous", []string{FoldConfusable}, "Ignore previous", true, "(?i)ignore", "Ignоre"},
		{"a capital Cyrillic І reads as i", "Іgnore", []string{FoldConfusable}, "ignore", true, "(?i)ignore", "Іgnore"},
		{"a Cyrillic word is left alone", "Игнорируй все", []string{FoldConfusable}, "Игнорируй все", false, "", ""},
		{"a Greek unit beside Latin stays", "10 μs", []string{FoldConfusable}, "10 μs", false, "", ""},
		{"nfkc alone leaves look-alikes", "Ignоre", []string{FoldNFKC}, "Ignоre", false, "", ""},
		{"both: full-width and Cyrillic", "Ｉｇｎоｒｅ", []string{FoldConfusable, FoldNFKC}, "Ignore", true, "(?i)ignore", "Ｉｇｎоｒｅ"},
		{"text after a fold keeps its offsets", "ﬁ ok", []string{FoldNFKC}, "fi ok", true, "ok", "ok"},
		{"no folds", "Ｉ", nil, "Ｉ", false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Fold(tt.s, tt.folds)
			if err != nil {
				t.Fatal(err)
			}
			if f.Text != tt.want || f.Changed != tt.changed {
				t.Errorf("Fold(%q) = %q (changed %v), want %q (changed %v)", tt.s, f.Text, f.Changed, tt.want, tt.changed)
			}
			if tt.match == "" {
				return
			}
			spans, err := FindAllEachFolded(tt.s, []string{tt.match}, tt.folds)
			if err != nil {
				t.Fatal(err)
			}
			if len(spans) == 0 {
				t.Fatalf("no match of %q in %q", tt.match, f.Text)
			}
			sp := spans[0]
			runes := []rune(tt.s)
			if sp.Text != tt.original || string(runes[sp.Start:sp.End]) != tt.original {
				t.Errorf("match %q: text %q at [%d, %d) = %q, want %q", tt.match, sp.Text, sp.Start, sp.End, string(runes[sp.Start:sp.End]), tt.original)
			}
		})
	}
	if _, err := Fold("x", []string{"nfd"}); err == nil || !strings.Contains(err.Error(), `"nfkc"`) {
		t.Errorf("an unknown fold: %v, want an error naming the folds", err)
	}
}

// TestFindFoldedASCII: an ASCII string, most of what a rubric reads, is
// matched as it is, with no folded copy made (no allocation past the
// match's own), and a
// fold this package does not know is refused whatever the string.
func TestFindFoldedASCII(t *testing.T) {
	ps, err := patternSetFor([]string{`(?i)ignore\s+previous`, `[\x{200B}]+`})
	if err != nil {
		t.Fatal(err)
	}
	sc := ps.scratch()
	out := make([]PatternSpan, 0, 4)
	s := "Lists files. Ignore previous notes."
	folds := []string{FoldNFKC, FoldConfusable}
	if allocsCounted() {
		allocs := testing.AllocsPerRun(100, func() {
			got, _ := findFolded(ps, sc, s, folds, out[:0])
			if len(got) != 1 || got[0].Text != "Ignore previous" {
				t.Fatalf("got %+v", got)
			}
		})
		plain := testing.AllocsPerRun(100, func() { ps.find(s, sc, out[:0]) })
		if allocs != plain {
			t.Errorf("an ASCII string costs %v allocations, want %v, those of matching it unfolded", allocs, plain)
		}
	}
	for _, s := range []string{"plain", "Ｉｇｎｏｒｅ"} {
		if _, err := FindAllEachFolded(s, []string{`x`}, []string{"nfd"}); err == nil {
			t.Errorf("%q: fold nfd accepted", s)
		}
	}
}
