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
