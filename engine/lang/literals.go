package lang

import (
	"hash/maphash"
	"slices"
	"strings"
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

// holds marks in found (one entry a literal) the literals s holds, and
// appends each to touched the first time.
func (m *literalSet) holds(s []byte, found []bool, touched []int32) []int32 {
	state := int32(0)
	for i := 0; i < len(s); i++ {
		state = m.next[int(state)*m.n+int(m.class[s[i]])]
		for _, k := range m.output[state] {
			if !found[k] {
				found[k] = true
				touched = append(touched, k)
			}
		}
	}
	return touched
}

// patternSet is a list of expressions compiled together: each one's
// needed literals as indices into one literalSet, so that a text is
// searched for all their literals at once.
type patternSet struct {
	patterns []string
	res      []*compiledRegexp
	lits     *literalSet // its outputs are groups, not literals
	groups   int         // sets of literals of which a need asks for any one
	needs    []*needAt   // by pattern, its need over the groups
	nonASCII []int32     // the groups met by any text past ASCII
	// byGroup are, by group, the patterns whose need cannot hold
	// unless the text meets it or another of a few groups (see
	// needAt.anyOf); free are the patterns no group decides, whose need
	// is read for every text. A text meets few groups, so most needs
	// are never read.
	byGroup [][]int32
	free    []bool
}

// A group is a set of literals a need asks for any one of (a phrase and
// its variants): the automaton marks the groups a text meets, not its
// literals, so that a need of hundreds of phrases costs one look.

func newPatternSet(patterns []string) (*patternSet, error) {
	ps := &patternSet{patterns: patterns}
	litIndex := map[string]int32{}
	groupIndex := map[string]int32{}
	var lits []string
	var groupsOf [][]int32 // by literal
	group := func(members []string) int32 {
		key := strings.Join(members, "\x00")
		if g, ok := groupIndex[key]; ok {
			return g
		}
		g := int32(ps.groups)
		ps.groups++
		groupIndex[key] = g
		for _, l := range members {
			if l == nonASCII {
				ps.nonASCII = append(ps.nonASCII, g)
				continue
			}
			k, ok := litIndex[l]
			if !ok {
				k = int32(len(lits))
				litIndex[l] = k
				lits = append(lits, l)
				groupsOf = append(groupsOf, nil)
			}
			groupsOf[k] = append(groupsOf[k], g)
		}
		return g
	}
	for _, p := range patterns {
		c, err := compileCached(p)
		if err != nil {
			return nil, err
		}
		ps.res = append(ps.res, c)
		ps.needs = append(ps.needs, c.need.at(group))
	}
	ps.byGroup = make([][]int32, ps.groups)
	ps.free = make([]bool, len(patterns))
	for i, n := range ps.needs {
		gs := n.anyOf()
		if gs == nil {
			ps.free[i] = true
			continue
		}
		for _, g := range gs {
			if !slices.Contains(ps.byGroup[g], int32(i)) {
				ps.byGroup[g] = append(ps.byGroup[g], int32(i))
			}
		}
	}
	ps.lits = newLiteralSet(lits)
	// Each state's literals become their groups.
	for state, out := range ps.lits.output {
		var gs []int32
		for _, k := range out {
			for _, g := range groupsOf[k] {
				if !slices.Contains(gs, g) {
					gs = append(gs, g)
				}
			}
		}
		ps.lits.output[state] = gs
	}
	return ps, nil
}

// findScratch is what find reuses from one text to the next: which
// groups a text meets (and the list of them), the patterns they may let
// through, and its folded form.
type findScratch struct {
	found   []bool
	touched []int32
	cand    []bool
	buf     []byte
}

// scratch makes a findScratch for the set.
func (ps *patternSet) scratch() *findScratch {
	return &findScratch{found: make([]bool, ps.groups), cand: make([]bool, len(ps.res))}
}

// find appends to out FindAllEach of the set's patterns in s.
func (ps *patternSet) find(s string, sc *findScratch, out []PatternSpan) []PatternSpan {
	var ascii bool
	sc.buf, ascii = foldInto(sc.buf, s)
	clear(sc.found)
	sc.touched = ps.lits.holds(sc.buf, sc.found, sc.touched[:0])
	if !ascii {
		for _, g := range ps.nonASCII {
			if !sc.found[g] {
				sc.found[g] = true
				sc.touched = append(sc.touched, g)
			}
		}
	}
	copy(sc.cand, ps.free)
	for _, g := range sc.touched {
		for _, i := range ps.byGroup[g] {
			sc.cand[i] = true
		}
	}
	for i, c := range ps.res {
		if !sc.cand[i] || len(s) < c.minLen || !ps.needs[i].holds(s, sc.found) {
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
	need *need // needRun, needCount
}

// at numbers the literals of n by group: group gives the number of a set
// of literals of which any one will do (one literal alone is a set of
// one).
func (n *need) at(group func([]string) int32) *needAt {
	if n == nil {
		return nil
	}
	out := &needAt{op: n.op}
	switch n.op {
	case needRun, needCount:
		out.need = n
		return out
	case needLit:
		out.lit = group([]string{n.lit})
		return out
	case needAny:
		var lits []string
		for _, s := range n.subs {
			if s.op == needLit {
				lits = append(lits, s.lit)
			}
		}
		if len(lits) == len(n.subs) {
			out.op, out.lit = needLit, group(lits)
			return out
		}
	}
	for _, s := range n.subs {
		out.subs = append(out.subs, s.at(group))
	}
	return out
}

// anyOf is a few groups of which a text meets one whenever it meets
// the need, nil when no such groups are known (a need of runs or counts
// alone, or nil).
func (n *needAt) anyOf() []int32 {
	if n == nil {
		return nil
	}
	switch n.op {
	case needLit:
		return []int32{n.lit}
	case needAll:
		// Each part is needed: the one that names the fewest groups.
		var best []int32
		for _, sub := range n.subs {
			if gs := sub.anyOf(); gs != nil && (best == nil || len(gs) < len(best)) {
				best = gs
			}
		}
		return best
	case needAny:
		var all []int32
		for _, sub := range n.subs {
			gs := sub.anyOf()
			if gs == nil {
				return nil
			}
			all = append(all, gs...)
		}
		return all
	}
	return nil
}

// holds is need.holds of s over its found literals.
func (n *needAt) holds(s string, found []bool) bool {
	if n == nil {
		return true
	}
	switch n.op {
	case needLit:
		return found[n.lit]
	case needRun, needCount:
		return n.need.countIn(s)
	case needAll:
		for _, sub := range n.subs {
			if !sub.holds(s, found) {
				return false
			}
		}
		return true
	default:
		for _, sub := range n.subs {
			if sub.holds(s, found) {
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
	defer patternSets.Unlock()
	if patternSets.sets == nil {
		patternSets.seed = maphash.MakeSeed()
		patternSets.sets = map[uint64]*patternSet{}
	}
	h.SetSeed(patternSets.seed)
	for _, p := range patterns {
		h.WriteString(p)
		h.WriteByte(0)
	}
	key := h.Sum64()
	if ps := patternSets.sets[key]; ps != nil && equalStrings(ps.patterns, patterns) {
		return ps, nil
	}
	// Built under the lock: the formulas of every tool ask for the same
	// list at once, and one build serves them all.
	ps, err := newPatternSet(append([]string(nil), patterns...))
	if err != nil {
		return nil, err
	}
	if len(patternSets.sets) < maxCachedPatternSets {
		patternSets.sets[key] = ps
	}
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
