package redact

import (
	"slices"
	"strings"
)

// matcher finds every occurrence of any of a set of secrets in one pass
// over a text (an Aho-Corasick automaton over bytes), so that hiding
// them costs the length of the text and the occurrences found, not the
// number of secrets: a scan's log is checked against the secrets of
// every server it read.
type matcher struct {
	// next are each node's edges by byte; node 0 is the root.
	next []map[byte]int32
	// fail is the node of the longest proper suffix of a node's text
	// that is also a node.
	fail []int32
	// size is the length of the secret a node's text is, 0 for none.
	size []int32
	// dict is the nearest node down the fail chain whose text is a
	// secret, -1 for none.
	dict []int32
}

// newMatcher builds the matcher of secrets; empty ones are left out.
func newMatcher(secrets []string) *matcher {
	m := &matcher{next: []map[byte]int32{{}}, fail: []int32{0}, size: []int32{0}, dict: []int32{-1}}
	for _, s := range secrets {
		if s == "" {
			continue
		}
		n := int32(0)
		for i := 0; i < len(s); i++ {
			c, ok := m.next[n][s[i]]
			if !ok {
				c = int32(len(m.next))
				m.next = append(m.next, map[byte]int32{})
				m.fail = append(m.fail, 0)
				m.size = append(m.size, 0)
				m.dict = append(m.dict, -1)
				m.next[n][s[i]] = c
			}
			n = c
		}
		m.size[n] = int32(len(s))
	}
	// Breadth first, so that a node's fail is set before its children's.
	queue := make([]int32, 0, len(m.next))
	for _, c := range m.next[0] {
		queue = append(queue, c)
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for b, c := range m.next[n] {
			f := m.fail[n]
			for {
				if g, ok := m.next[f][b]; ok && g != c {
					m.fail[c] = g
					break
				}
				if f == 0 {
					break
				}
				f = m.fail[f]
			}
			if g := m.fail[c]; m.size[g] > 0 {
				m.dict[c] = g
			} else {
				m.dict[c] = m.dict[g]
			}
			queue = append(queue, c)
		}
	}
	return m
}

// empty says whether the matcher has no secret.
func (m *matcher) empty() bool { return len(m.next) == 1 }

// span is an occurrence of a secret: text[from:to].
type span struct{ from, to int }

// hide returns text with every occurrence of a secret that stands apart
// (see Apart) replaced by Marker; occurrences that overlap are hidden as
// one, so that no part of any is left.
func (m *matcher) hide(text string) string {
	return cover(text, m.find(text, nil))
}

// find appends to spans the occurrences in text of m's secrets that
// stand apart.
func (m *matcher) find(text string, spans []span) []span {
	if m.empty() {
		return spans
	}
	n := int32(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		for {
			if g, ok := m.next[n][c]; ok {
				n = g
				break
			}
			if n == 0 {
				break
			}
			n = m.fail[n]
		}
		d := n
		if m.size[d] == 0 {
			d = m.dict[d] // the longest secret ending here, if any
		}
		for ; d > 0; d = m.dict[d] {
			from, to := i+1-int(m.size[d]), i+1
			if apart(text, from, to) {
				spans = append(spans, span{from, to})
			}
		}
	}
	return spans
}

// cover returns text with each of spans replaced by Marker, those that
// overlap as one.
func cover(text string, spans []span) string {
	if len(spans) == 0 {
		return text
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	var b strings.Builder
	written := 0 // text[:written] is in b
	for i := 0; i < len(spans); {
		from, to := spans[i].from, spans[i].to
		for i++; i < len(spans) && spans[i].from < to; i++ {
			to = max(to, spans[i].to)
		}
		b.WriteString(text[written:from])
		b.WriteString(Marker)
		written = to
	}
	b.WriteString(text[written:])
	return b.String()
}

// apart says whether text[from:to] stands apart from the text around
// it: no letter, digit or underscore runs on from its first or last
// character (when that character is one too).
func apart(text string, from, to int) bool {
	return !(from > 0 && wordByte(text[from-1]) && wordByte(text[from])) &&
		!(to < len(text) && wordByte(text[to]) && wordByte(text[to-1]))
}
