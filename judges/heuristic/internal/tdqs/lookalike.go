package tdqs

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// lookAlikePairs is what disambiguation needs of the look-alike pairs:
// how many there are and the first five in tool order (by the first
// tool's index, then the second's).
type lookAlikePairs struct {
	count int
	first [][2]int
}

// cell is a set of tools that every comparison treats alike: the same
// description words with the same counts (so the same TF-IDF vector), the
// same name key, verb and resource. Any two tools of one cell are a pair
// or not together, and so are a tool of one cell and one of another.
type cell struct {
	members []int // tool indexes, ascending
	group   int   // the term group
}

// termGroup is a set of tools whose descriptions have the same words with
// the same counts.
type termGroup struct {
	rep   int   // the first tool of the group
	cells []int // its cells
}

// lookAlikes finds the look-alike pairs among tools and marks every tool
// in one in involved. It compares cells, not tools, and only cells that
// share a name key or whose descriptions may reach confusableCosine (found
// through an index, see similarGroups), so that a surface of many copies
// of a few descriptions costs the number of its cells and pairs of cells,
// not the square of its tools. The answer is the one comparing every pair
// of tools gives (disambiguationPairwise in the tests).
func lookAlikes(tools []surfaceTool, involved []bool) lookAlikePairs {
	vectors := tfidf(tools)
	type cellKey struct {
		group               int
		key, verb, resource string
	}
	groupOf := map[string]int{}
	cellOf := map[cellKey]int{}
	var groups []termGroup
	var cells []cell
	cellOfTool := make([]int, len(tools))
	byKey := map[string][]int{}
	for i, t := range tools {
		sig := termsKey(t.terms)
		g, ok := groupOf[sig]
		if !ok {
			g = len(groups)
			groupOf[sig] = g
			groups = append(groups, termGroup{rep: i})
		}
		ck := cellKey{g, t.key, t.verb, t.resource}
		c, ok := cellOf[ck]
		if !ok {
			c = len(cells)
			cellOf[ck] = c
			cells = append(cells, cell{group: g})
			groups[g].cells = append(groups[g].cells, c)
			if t.key != "" {
				byKey[t.key] = append(byKey[t.key], c)
			}
		}
		cells[c].members = append(cells[c].members, i)
		cellOfTool[i] = c
	}
	// match is the pairwise test of disambiguationPairwise, on one tool of
	// each cell.
	match := func(c, d int) bool {
		i, j := cells[c].members[0], cells[d].members[0]
		a, b := tools[i], tools[j]
		if a.key != "" && a.key == b.key {
			return true
		}
		apart := a.verb != "" && b.verb != "" && a.verb != b.verb && (lex.LifecycleOf[a.verb] == "" || lex.LifecycleOf[a.verb] != lex.LifecycleOf[b.verb]) ||
			a.resource != "" && b.resource != "" && a.resource != b.resource
		if apart || len(a.terms) < minConfusableWords || len(b.terms) < minConfusableWords {
			return false
		}
		return lex.Cosine(vectors[groups[cells[c].group].rep], vectors[groups[cells[d].group].rep]) >= confusableCosine
	}
	neighbours := make([][]int, len(cells))
	seen := map[[2]int]bool{}
	var out lookAlikePairs
	check := func(c, d int) {
		if c > d {
			c, d = d, c
		}
		if seen[[2]int{c, d}] {
			return
		}
		seen[[2]int{c, d}] = true
		if c == d && len(cells[c].members) < 2 || !match(c, d) {
			return
		}
		if c == d {
			k := len(cells[c].members)
			out.count += k * (k - 1) / 2
			neighbours[c] = append(neighbours[c], c)
		} else {
			out.count += len(cells[c].members) * len(cells[d].members)
			neighbours[c] = append(neighbours[c], d)
			neighbours[d] = append(neighbours[d], c)
		}
		for _, e := range []int{c, d} {
			for _, i := range cells[e].members {
				involved[i] = true
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		cs := byKey[k]
		for x, c := range cs {
			for _, d := range cs[x:] {
				check(c, d)
			}
		}
	}
	for _, gp := range similarGroups(tools, groups, vectors) {
		for _, c := range groups[gp[0]].cells {
			for _, d := range groups[gp[1]].cells {
				check(c, d)
			}
		}
	}
	// The first five pairs: for each tool in order, its partners after it.
	var next []int
	for i := 0; i < len(tools) && len(out.first) < 5; i++ {
		next = next[:0]
		need := 5 - len(out.first)
		for _, d := range neighbours[cellOfTool[i]] {
			ms := cells[d].members
			at := sort.SearchInts(ms, i+1)
			for _, j := range ms[at:min(len(ms), at+need)] {
				next = append(next, j)
			}
		}
		slices.Sort(next)
		for _, j := range next[:min(len(next), need)] {
			out.first = append(out.first, [2]int{i, j})
		}
	}
	return out
}

// termsKey is a text that two term counts share exactly when they are equal.
func termsKey(terms map[string]int) string {
	var b strings.Builder
	for _, w := range slices.Sorted(maps.Keys(terms)) {
		b.WriteString(w)
		b.WriteByte(0)
		b.WriteString(strconv.Itoa(terms[w]))
		b.WriteByte(0)
	}
	return b.String()
}

// prefixMass is the least squared weight a description's vector must have
// left from a word on for that word to be indexed. Two unit vectors whose
// first shared word (in the index's order) has less weight than this from
// there on have a cosine of at most its square root, below
// confusableCosine; the margin of 0.01 stands for rounding.
const prefixMass = (confusableCosine - 0.01) * (confusableCosine - 0.01)

// similarGroups returns the pairs of term groups (first <= second) with at
// least minConfusableWords words each whose descriptions' cosine reaches
// confusableCosine, a group with itself included. It orders words rarest
// first and indexes each vector only by the words before its remaining
// weight falls under prefixMass (a prefix filter): any two vectors similar
// enough share a word in both their prefixes, so only groups that do are
// compared.
func similarGroups(tools []surfaceTool, groups []termGroup, vectors []map[string]float64) [][2]int {
	var eligible []int
	df := map[string]int{}
	for g, tg := range groups {
		if len(tools[tg.rep].terms) < minConfusableWords {
			continue
		}
		eligible = append(eligible, g)
		for w := range tools[tg.rep].terms {
			df[w]++
		}
	}
	postings := map[string][]int{}
	stamp := make([]int, len(groups))
	for i := range stamp {
		stamp[i] = -1
	}
	var out [][2]int
	for _, g := range eligible {
		v := vectors[groups[g].rep]
		if lex.Cosine(v, v) >= confusableCosine {
			out = append(out, [2]int{g, g})
		}
		words := slices.Collect(maps.Keys(v))
		slices.SortFunc(words, func(a, b string) int {
			if df[a] != df[b] {
				return df[a] - df[b]
			}
			return strings.Compare(a, b)
		})
		rest := make([]float64, len(words)+1)
		for k := len(words) - 1; k >= 0; k-- {
			rest[k] = rest[k+1] + v[words[k]]*v[words[k]]
		}
		var candidates []int
		prefix := words[:0:0]
		for k, w := range words {
			if rest[k] < prefixMass {
				break
			}
			prefix = append(prefix, w)
			for _, h := range postings[w] {
				if stamp[h] != g {
					stamp[h] = g
					candidates = append(candidates, h)
				}
			}
		}
		for _, w := range prefix {
			postings[w] = append(postings[w], g)
		}
		slices.Sort(candidates)
		for _, h := range candidates {
			if lex.Cosine(vectors[groups[h].rep], v) >= confusableCosine {
				out = append(out, [2]int{h, g})
			}
		}
	}
	return out
}
