package lex

import (
	"math"
	"slices"
	"strings"
)

// Phrases is a list of phrases made ready to be looked for in a text's
// words in one pass: each word of the text is looked up once among the
// phrases' first words, where Has would search the whole text again for
// every phrase of the list. FirstIn and AllIn give what FirstOf and
// AllOf give for the same list.
type Phrases struct {
	list []string
	// words are each phrase's words, its trailing "*" dropped; prefix
	// says the last word only starts a word of the text.
	words  [][]string
	prefix []bool
	// byFirst indexes, by their first word, the phrases whose first word
	// must be a whole word of the text; stems indexes, by their first
	// byte, the one-word phrases ending in "*".
	byFirst map[string][]int
	stems   [256][]int
	// stemMin is, for each first byte, the length of the shortest of
	// its stems: a shorter word ("a", "and", "the") starts none of them.
	// A byte that opens no stem has one longer than any word, so that
	// a word that opens with it is done with at once.
	stemMin [256]int
	// firsts has, for each first byte of byFirst's words, a bit for each
	// of their lengths (63 for any longer), and lasts the same for each
	// last byte: a word of the text whose first or last byte has no bit
	// for its length is looked up no further (most words of a text pass
	// the first test alone, and the map lookup was most of a scan).
	firsts, lasts [256]uint64
	// odd are the phrases that are not words separated by single spaces
	// ("", "a  b", " a"): they are looked for as Has does, one by one.
	odd []int
}

// NewPhrases prepares list for FirstIn and AllIn. The list is kept, not
// copied: it must not change afterwards.
func NewPhrases(list []string) *Phrases {
	p := &Phrases{
		list:    list,
		words:   make([][]string, len(list)),
		prefix:  make([]bool, len(list)),
		byFirst: map[string][]int{},
	}
	for c := range p.stemMin {
		p.stemMin[c] = math.MaxInt
	}
	for i, phrase := range list {
		p.prefix[i] = strings.HasSuffix(phrase, "*")
		ws := strings.Split(strings.TrimSuffix(phrase, "*"), " ")
		plain := true
		for _, w := range ws {
			plain = plain && w != ""
		}
		switch {
		case !plain:
			p.odd = append(p.odd, i)
		case len(ws) == 1 && p.prefix[i]:
			p.words[i] = ws
			c := ws[0][0]
			p.stemMin[c] = min(p.stemMin[c], len(ws[0]))
			p.stems[c] = append(p.stems[c], i)
		default:
			p.words[i] = ws
			p.byFirst[ws[0]] = append(p.byFirst[ws[0]], i)
			p.firsts[ws[0][0]] |= lengthBit(ws[0])
			p.lasts[ws[0][len(ws[0])-1]] |= lengthBit(ws[0])
		}
	}
	return p
}

// FirstIn returns the first phrase of p, in its list's order, found in
// t, without its "*", and whether one was: t.FirstOf(list).
func (t Text) FirstIn(p *Phrases) (string, bool) {
	best := len(p.list)
	p.scan(t, func(i int) bool {
		best = min(best, i)
		return best == 0
	})
	if best == len(p.list) {
		return "", false
	}
	return strings.TrimSuffix(p.list[best], "*"), true
}

// AllIn returns every phrase of p found in t, in its list's order,
// without their "*": t.AllOf(list).
func (t Text) AllIn(p *Phrases) []string {
	found := t.Matched(p)
	var out []string
	for i, ok := range found {
		if ok {
			out = append(out, strings.TrimSuffix(p.list[i], "*"))
		}
	}
	return out
}

// Matched reports, for each phrase of p in its list's order, whether t
// has it (t.Has(phrase)).
func (t Text) Matched(p *Phrases) []bool { return t.MatchedOutside(p, nil) }

// MatchedOutside is Matched, reading none of the words of t that mask
// marks (SnakeNameWords): a phrase found only among them, or across
// one of them, is not found. A nil mask marks none.
func (t Text) MatchedOutside(p *Phrases, mask []bool) []bool {
	found := make([]bool, len(p.list))
	p.scanMasked(t, mask, func(i int) bool {
		found[i] = true
		return false
	})
	return found
}

// scan calls hit with the index of each phrase found in t, a phrase once
// or more, until hit returns true.
func (p *Phrases) scan(t Text, hit func(int) bool) { p.scanMasked(t, nil, hit) }

// scanMasked is scan reading none of the words mask marks: a phrase
// that starts at one, or goes on over one, is not found there. Odd
// phrases are looked for in the whole text.
func (p *Phrases) scanMasked(t Text, mask []bool, hit func(int) bool) {
	for _, i := range p.odd {
		if t.Has(p.list[i]) && hit(i) {
			return
		}
	}
	ws := t.Words
	for at, w := range ws {
		if w == "" || at < len(mask) && mask[at] {
			continue
		}
		if p.firsts[w[0]]&p.lasts[w[len(w)-1]]&lengthBit(w) != 0 {
			for _, i := range p.byFirst[w] {
				if p.at(ws, at, i) && (mask == nil || !slices.Contains(mask[at:min(at+len(p.words[i]), len(mask))], true)) && !t.Crosses(at, len(p.words[i])) && hit(i) {
					return
				}
			}
		}
		if len(w) < p.stemMin[w[0]] {
			continue
		}
		for _, i := range p.stems[w[0]] {
			if strings.HasPrefix(w, p.words[i][0]) && hit(i) {
				return
			}
		}
	}
}

// lengthBit is the bit of firsts for a word of w's length.
func lengthBit(w string) uint64 {
	return 1 << min(len(w), 63)
}

// at reports whether phrase i, whose first word is ws[at], goes on with
// the words after it.
func (p *Phrases) at(ws []string, at, i int) bool {
	pw := p.words[i]
	if at+len(pw) > len(ws) {
		return false
	}
	last := len(pw) - 1
	for k := 1; k < last; k++ {
		if ws[at+k] != pw[k] {
			return false
		}
	}
	switch {
	case last == 0:
		return true // byFirst holds no one-word phrase ending in "*"
	case p.prefix[i]:
		return strings.HasPrefix(ws[at+last], pw[last])
	}
	return ws[at+last] == pw[last]
}
