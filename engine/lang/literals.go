package lang

import (
	"hash/maphash"
	"sync"
)

// literalSet tells, in one pass over a text, which of many literals the
// text holds: an Aho-Corasick automaton over bytes, its transitions
// complete (a table by state and byte class), so that a text costs one
// table step a byte whatever the number of literals.
type literalSet struct {
	class  [256]uint8 // the byte's class; 0 for a byte no literal holds
	n      int        // classes, 0 included
	next   []int32    // state*n + class: the next state
	output [][]int32  // the literals that end at each state, suffixes included
	count  int        // literals
}

// newLiteralSet builds the automaton of lits (none empty).
func newLiteralSet(lits []string) *literalSet {
	m := &literalSet{count: len(lits), n: 1}
	for _, l := range lits {
		for i := 0; i < len(l); i++ {
			if m.class[l[i]] == 0 {
				m.class[l[i]] = uint8(m.n)
				m.n++
			}
		}
	}
	// The trie, its missing edges -1 for now.
	m.next = make([]int32, m.n)
	m.output = [][]int32{nil}
	for i := range m.next {
		m.next[i] = -1
	}
	for k, l := range lits {
		state := int32(0)
		for i := 0; i < len(l); i++ {
			at := int(state)*m.n + int(m.class[l[i]])
			if m.next[at] < 0 {
				m.next[at] = int32(len(m.output))
				m.output = append(m.output, nil)
				for range m.n {
					m.next = append(m.next, -1)
				}
			}
			state = m.next[at]
		}
		m.output[state] = append(m.output[state], int32(k))
	}
	// Breadth first: each state's failure (its longest proper suffix in
	// the trie) completes its missing edges and adds to its output.
	fail := make([]int32, len(m.output))
	queue := make([]int32, 0, len(m.output))
	for c := range m.n {
		if s := m.next[c]; s > 0 {
			fail[s] = 0
			queue = append(queue, s)
		} else {
			m.next[c] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		m.output[s] = append(m.output[s], m.output[fail[s]]...)
		for c := range m.n {
			at := int(s)*m.n + c
			if t := m.next[at]; t >= 0 {
				fail[t] = m.next[int(fail[s])*m.n+c]
				queue = append(queue, t)
			} else {
				m.next[at] = m.next[int(fail[s])*m.n+c]
			}
		}
	}
	return m
}

// holds marks in found (one entry a literal) the literals s holds.
func (m *literalSet) holds(s string, found []bool) {
	state := int32(0)
	for i := 0; i < len(s); i++ {
		state = m.next[int(state)*m.n+int(m.class[s[i]])]
		for _, k := range m.output[state] {
			found[k] = true
		}
	}
}

// patternSet is a list of expressions compiled together: each one's
// needed literals as indices into one literalSet, so that a text is
// searched for all their literals at once.
type patternSet struct {
	patterns []string
	res      []*compiledRegexp
	lits     *literalSet
	needs    []*needAt // by pattern, its need over the literals' indices
	nonASCII int32     // the index of the literal standing for a character past ASCII, or -1
}

func newPatternSet(patterns []string) (*patternSet, error) {
	ps := &patternSet{patterns: patterns, nonASCII: -1}
	index := map[string]int32{}
	var lits []string
	for _, p := range patterns {
		c, err := compileCached(p)
		if err != nil {
			return nil, err
		}
		ps.res = append(ps.res, c)
		ps.needs = append(ps.needs, c.need.at(func(l string) int32 {
			k, ok := index[l]
			if !ok {
				k = int32(len(lits))
				index[l] = k
				lits = append(lits, l)
				if l == nonASCII {
					ps.nonASCII = k
				}
			}
			return k
		}))
	}
	ps.lits = newLiteralSet(lits)
	return ps, nil
}

// find is FindAllEach of the set's patterns in s.
func (ps *patternSet) find(s string, found []bool, out []PatternSpan) []PatternSpan {
	lower, ascii := fold(s)
	clear(found)
	ps.lits.holds(lower, found)
	if ps.nonASCII >= 0 {
		found[ps.nonASCII] = !ascii
	}
	for i, c := range ps.res {
		if len(s) < c.minLen || !ps.needs[i].holds(found) {
			continue
		}
		for _, sp := range c.spans(s) {
			out = append(out, PatternSpan{Pattern: i, Span: sp})
		}
	}
	return out
}

// needAt is a need with its literals numbered: lit indexes the found
// literals of a text.
type needAt struct {
	op   needOp
	lit  int32
	subs []*needAt
}

// at numbers the literals of n with index.
func (n *need) at(index func(string) int32) *needAt {
	if n == nil {
		return nil
	}
	out := &needAt{op: n.op}
	if n.op == needLit {
		out.lit = index(n.lit)
		return out
	}
	for _, s := range n.subs {
		out.subs = append(out.subs, s.at(index))
	}
	return out
}

// holds is need.holds over the found literals.
func (n *needAt) holds(found []bool) bool {
	if n == nil {
		return true
	}
	switch n.op {
	case needLit:
		return found[n.lit]
	case needAll:
		for _, s := range n.subs {
			if !s.holds(found) {
				return false
			}
		}
		return true
	default:
		for _, s := range n.subs {
			if s.holds(found) {
				return true
			}
		}
		return false
	}
}

// patternSets caches pattern lists by a hash of their text: a formula
// passes the same list (a rubric's cues) for every text it searches.
var patternSets struct {
	sync.Mutex
	seed maphash.Seed
	sets map[uint64]*patternSet
}

const maxCachedPatternSets = 64

func patternSetFor(patterns []string) (*patternSet, error) {
	var h maphash.Hash
	patternSets.Lock()
	if patternSets.sets == nil {
		patternSets.seed = maphash.MakeSeed()
		patternSets.sets = map[uint64]*patternSet{}
	}
	h.SetSeed(patternSets.seed)
	patternSets.Unlock()
	for _, p := range patterns {
		h.WriteString(p)
		h.WriteByte(0)
	}
	key := h.Sum64()
	patternSets.Lock()
	ps := patternSets.sets[key]
	patternSets.Unlock()
	if ps != nil && equalStrings(ps.patterns, patterns) {
		return ps, nil
	}
	ps, err := newPatternSet(append([]string(nil), patterns...))
	if err != nil {
		return nil, err
	}
	patternSets.Lock()
	if len(patternSets.sets) < maxCachedPatternSets {
		patternSets.sets[key] = ps
	}
	patternSets.Unlock()
	return ps, nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
