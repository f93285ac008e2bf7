package lang

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// Phrases: the literal filter of find_all (needOf) knows more than the
// single literals of an expression when it knows the few strings a part
// of it can match. "(pass|put)\s+(it|them)" matches one of four phrases,
// "pass it" ... "put them", and a text that holds none of them is passed
// over, where a text holding "put" and "it" apart would be run. Texts are
// compared in their folded form (fold): lower case, every run of white
// space one space, so that \s+ is one space there.

// maxPhrases bounds the strings of one set of phrases.
const maxPhrases = 256

// foldByte is an ASCII byte as fold writes it: lower case, and white
// space as RE2's \s knows it a space.
func foldByte(b byte) byte {
	switch b {
	case '\t', '\n', '\f', '\r':
		return ' '
	}
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// isFoldSpace reports whether fold writes r as a space.
func isFoldSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
}

// collapse writes each run of spaces in s as one.
func collapse(s string) string {
	if !strings.Contains(s, "  ") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && len(b) > 0 && b[len(b)-1] == ' ' {
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// phrases is every string, folded, that re can match, when they are
// few (at most maxPhrases) and ASCII; ok is false otherwise. A
// zero-width assertion matches the empty string.
func phrases(re *syntax.Regexp) (out []string, ok bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, true
	case syntax.OpLiteral:
		b := make([]byte, 0, len(re.Rune))
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				return nil, false
			}
			b = append(b, foldByte(byte(r)))
		}
		return []string{collapse(string(b))}, true
	case syntax.OpCharClass:
		for i := 0; i < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= utf8.RuneSelf || hi-lo >= maxPhrases {
				return nil, false
			}
			for r := lo; r <= hi; r++ {
				if c := string(foldByte(byte(r))); !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		}
		return out, len(out) > 0 && len(out) <= maxPhrases
	case syntax.OpCapture:
		return phrases(re.Sub[0])
	case syntax.OpQuest:
		p, ok := phrases(re.Sub[0])
		if !ok || len(p) >= maxPhrases {
			return nil, false
		}
		if !slices.Contains(p, "") {
			p = append(slices.Clone(p), "")
		}
		return p, true
	case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		// White space repeated is one space, folded; nothing else
		// repeated is few strings.
		p, ok := phrases(re.Sub[0])
		if !ok || len(p) != 1 || p[0] != " " {
			return nil, false
		}
		if re.Op == syntax.OpPlus || (re.Op == syntax.OpRepeat && re.Min >= 1) {
			return []string{" "}, true
		}
		return []string{"", " "}, true
	case syntax.OpConcat:
		out = []string{""}
		for _, sub := range re.Sub {
			p, ok := phrases(sub)
			if !ok {
				return nil, false
			}
			if out, ok = product(out, p); !ok {
				return nil, false
			}
		}
		return out, true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			p, ok := phrases(sub)
			if !ok {
				return nil, false
			}
			for _, s := range p {
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
			if len(out) > maxPhrases {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// product is every string of a followed by one of b, folded, or false
// when there would be more than maxPhrases.
func product(a, b []string) ([]string, bool) {
	if len(a)*len(b) > maxPhrases {
		return nil, false
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if s := collapse(x + y); !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out, true
}

// concatNeed is what a concatenation of subs needs: the phrases of each
// run of parts whose phrases are known, the needs of the others.
func concatNeed(subs []*syntax.Regexp) *need {
	var all []*need
	var run [][]string
	for _, sub := range subs {
		if p, ok := phrases(sub); ok {
			run = append(run, p)
			if blank(p) {
				// White space as a phrase says little; repeated, it may
				// need a run or a count.
				all = append(all, needOf(sub))
			}
			continue
		}
		all = append(all, runNeed(run), needOf(sub))
		run = nil
	}
	all = append(all, runNeed(run))
	return joined(needAll, all)
}

// runNeed is what a run of consecutive parts needs, given the phrases of
// each: the phrases of the whole run, or of pieces of it when they would
// be too many. A part that may match nothing at either end of the run
// adds nothing (the phrases without it are in every match), and is left
// out.
func runNeed(run [][]string) *need {
	for len(run) > 0 && slices.Contains(run[0], "") {
		run = run[1:]
	}
	for len(run) > 0 && slices.Contains(run[len(run)-1], "") {
		run = run[:len(run)-1]
	}
	var all []*need
	cur := []string{""}
	for _, p := range run {
		if next, ok := product(cur, p); ok {
			cur = next
			continue
		}
		all = append(all, anyPhrase(cur))
		cur = p
	}
	all = append(all, anyPhrase(cur))
	return joined(needAll, all)
}

// blank reports whether every phrase is empty or white space.
func blank(ps []string) bool {
	for _, p := range ps {
		if strings.TrimSpace(p) != "" {
			return false
		}
	}
	return true
}

// anyPhrase needs one of the phrases: nil when one of them is blank,
// which every text holds. A phrase that holds another is left out: the
// text holds the other one whenever it holds it.
func anyPhrase(ps []string) *need {
	var keep []*need
	for i, p := range ps {
		if strings.TrimSpace(p) == "" {
			return nil
		}
		redundant := false
		for j, q := range ps {
			if j != i && strings.Contains(p, q) && (len(q) < len(p) || j < i) {
				redundant = true
				break
			}
		}
		if !redundant {
			keep = append(keep, &need{op: needLit, lit: p})
		}
	}
	return joined(needAny, keep)
}
