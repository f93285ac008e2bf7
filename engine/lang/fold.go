package lang

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Folding: a copy of a text in which characters that read alike are
// written alike, for matching, with the span of the original each of its
// characters came from, so that a match on the copy is reported as the
// original text it covers. Two folds are known, applied in this order:
//
//   - FoldNFKC is Unicode's compatibility normalization (NFKC): full-width
//     letters (Ｉｇｎｏｒｅ), mathematical alphanumerics, ligatures and the
//     like become the plain letters a reader sees in them.
//   - FoldConfusable rewrites, in each word whose letters mix Latin with
//     another script, every letter of the other script whose confusable
//     prototype (TR39's confusables.txt, of its lower case, else of
//     itself) is one ASCII letter as that letter: "Ignоre" with a Cyrillic
//     о reads "Ignore". A word of one script is left alone, so Greek and
//     Cyrillic prose keeps its letters.
const (
	FoldNFKC       = "nfkc"
	FoldConfusable = "confusable"
)

// maxFoldGrowth bounds how many characters a fold may make of one: NFKC
// expands a character into at most 18 (U+FDFA), and FoldConfusable
// writes each letter as one.
const maxFoldGrowth = 18

// foldedRune is a character of a folded text and the span, in characters
// of the original, that it came from.
type foldedRune struct {
	r          rune
	start, end int32
}

// Folded is a text folded for matching (see Fold).
type Folded struct {
	// Text is the folded copy.
	Text string
	// Changed is false when the copy is the original.
	Changed bool
	runes   []foldedRune
}

// Original is the span of the original text, in characters, that the
// characters [start, end) of the folded copy came from: from the first
// one's first original character to the last one's last; an empty span
// is where its place is in the original.
func (f *Folded) Original(start, end int) (int, int) {
	if !f.Changed {
		return start, end
	}
	at := func(i int) int {
		if i < len(f.runes) {
			return int(f.runes[i].start)
		}
		if len(f.runes) == 0 {
			return 0
		}
		return int(f.runes[len(f.runes)-1].end)
	}
	if end <= start {
		return at(start), at(start)
	}
	return at(start), int(f.runes[end-1].end)
}

// checkFolds reports the first name of folds that is not a known fold.
func checkFolds(folds []string) error {
	for _, f := range folds {
		if f != FoldNFKC && f != FoldConfusable {
			return fmt.Errorf("unknown fold %q: the folds are %q and %q", f, FoldNFKC, FoldConfusable)
		}
	}
	return nil
}

// Fold is s with each of folds applied in the order FoldNFKC,
// FoldConfusable (whatever order folds lists them in), and the span of
// s each folded character came from. An ASCII s, and any s the folds
// leave alone, is returned unchanged without a copy.
func Fold(s string, folds []string) (*Folded, error) {
	if err := checkFolds(folds); err != nil {
		return nil, err
	}
	nfkc, confusable := false, false
	for _, f := range folds {
		nfkc = nfkc || f == FoldNFKC
		confusable = confusable || f == FoldConfusable
	}
	out := &Folded{Text: s}
	if isASCII(s) {
		return out, nil
	}
	doNFKC := nfkc && !norm.NFKC.IsNormalString(s)
	doConfusable := confusable && mixesLatin(s)
	if !doNFKC && !doConfusable {
		return out, nil
	}
	runes := make([]foldedRune, 0, len(s))
	if doNFKC {
		chars := int32(0)
		for i := 0; i < len(s); {
			n := norm.NFKC.NextBoundaryInString(s[i:], true)
			if n <= 0 {
				n = len(s) - i
			}
			seg := s[i : i+n]
			width := int32(utf8.RuneCountInString(seg))
			for _, r := range norm.NFKC.String(seg) {
				runes = append(runes, foldedRune{r: r, start: chars, end: chars + width})
			}
			chars += width
			i += n
		}
	} else {
		i := int32(0)
		for _, r := range s {
			runes = append(runes, foldedRune{r: r, start: i, end: i + 1})
			i++
		}
	}
	if doConfusable {
		foldConfusable(runes)
	}
	b := make([]byte, 0, len(s))
	for _, fr := range runes {
		b = utf8.AppendRune(b, fr.r)
	}
	if string(b) == s {
		return out, nil
	}
	out.Text, out.Changed, out.runes = string(b), true, runes
	return out, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// mixesLatin reports whether s has a Latin letter and a letter of another
// script (not necessarily in one word): a quick look before FoldConfusable
// reads its words.
func mixesLatin(s string) bool {
	latin, other := false, false
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		if r < utf8.RuneSelf || unicode.Is(unicode.Latin, r) {
			latin = true
		} else if !unicode.Is(unicode.Common, r) && !unicode.Is(unicode.Inherited, r) {
			other = true
		}
		if latin && other {
			return true
		}
	}
	return false
}

// foldConfusable applies FoldConfusable to runes in place: a word is a
// run of letters and combining marks.
func foldConfusable(runes []foldedRune) {
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }
	for i := 0; i < len(runes); {
		if !isWord(runes[i].r) {
			i++
			continue
		}
		j := i
		latin, other := false, false
		for j < len(runes) && isWord(runes[j].r) {
			r := runes[j].r
			switch {
			case r < utf8.RuneSelf || unicode.Is(unicode.Latin, r):
				latin = true
			case unicode.IsLetter(r) && !unicode.Is(unicode.Common, r) && !unicode.Is(unicode.Inherited, r):
				other = true
			}
			j++
		}
		if latin && other {
			for k := i; k < j; k++ {
				r := runes[k].r
				if r < utf8.RuneSelf || !unicode.IsLetter(r) || unicode.Is(unicode.Latin, r) {
					continue
				}
				if p, ok := asciiPrototype(unicode.ToLower(r)); ok {
					runes[k].r = p
				} else if p, ok := asciiPrototype(r); ok {
					runes[k].r = p
				}
			}
		}
		i = j
	}
}

// asciiPrototype is r's confusable prototype when that is one ASCII
// letter.
func asciiPrototype(r rune) (rune, bool) {
	p := Skeleton(string(r))
	if len(p) != 1 {
		return 0, false
	}
	c := rune(p[0])
	if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
		return c, true
	}
	return 0, false
}

// FindAllEachFolded is FindAllEach of patterns in the folded copy of s
// (see Fold), each match reported as the original characters it covers.
func FindAllEachFolded(s string, patterns, folds []string) ([]PatternSpan, error) {
	if err := checkFolds(folds); err != nil {
		return nil, err
	}
	ps, err := patternSetFor(patterns)
	if err != nil {
		return nil, err
	}
	return findFolded(ps, ps.scratch(), s, folds, nil)
}

// findFolded appends to out the matches of ps in the folded copy of s,
// reported on s. The caller has checked folds.
func findFolded(ps *patternSet, sc *findScratch, s string, folds []string, out []PatternSpan) ([]PatternSpan, error) {
	if isASCII(s) {
		// Most strings: no fold changes ASCII, so they need no copy.
		return ps.find(s, sc, out), nil
	}
	f, err := Fold(s, folds)
	if err != nil {
		return nil, err
	}
	from := len(out)
	out = ps.find(f.Text, sc, out)
	if !f.Changed {
		return out, nil
	}
	// Character offsets of s to byte offsets, for the matched text.
	var offsets []int
	for i := range s {
		offsets = append(offsets, i)
	}
	offsets = append(offsets, len(s))
	for i := from; i < len(out); i++ {
		start, end := f.Original(out[i].Start, out[i].End)
		out[i].Start, out[i].End, out[i].Text = start, end, s[offsets[start]:offsets[end]]
	}
	return out, nil
}
