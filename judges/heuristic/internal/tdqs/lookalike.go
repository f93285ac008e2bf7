package tdqs

import (
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

// cell is a set of tools that a comparison of descriptions and of verbs
// and resources treats alike: the same description words with the same
// counts (so the same TF-IDF vector), the same verb and resource. Any two
// tools of one cell look alike by their descriptions or not together, and
// so do a tool of one cell and one of another. Names that differ only in
// version words (the name key) are counted apart, by key.
type cell struct {
	members        []int // tool indexes, ascending
	group          int   // the term group
	verb, resource string
}

// termGroup is a set of tools whose descriptions have the same words with
// the same counts.
type termGroup struct {
	rep   int              // the first tool of the group
	size  int              // how many tools it has
	cells []int            // its cells
	byRes map[string][]int // its cells by resource
}

// lookAlikes finds the look-alike pairs among tools and marks every tool
// in one in involved. Pairs of tools whose names share a key are counted
// by key; pairs whose descriptions look alike are counted by cells, and
// only for the term groups whose descriptions may reach confusableCosine
// (found through an index, see similarGroups) and the cells whose verbs
// and resources do not set them apart; a pair that is both is counted
// once. So a surface of many copies of a few descriptions costs its tools
// and its pairs of cells, not the square of its tools. The answer is the
// one comparing every pair of tools gives (disambiguationPairwise in the
// tests).
func lookAlikes(tools []surfaceTool, involved []bool) lookAlikePairs {
	type cellKey struct {
		group          int
		verb, resource string
	}
	groupOf := map[string]int{}     // by the terms' key
	groupOfDesc := map[string]int{} // by the description: its terms' key is made once
	cellOf := map[cellKey]int{}
	var groups []termGroup
	var cells []cell
	cellOfTool := make([]int, len(tools))
	byKey := map[string][]int{}
	for i, t := range tools {
		g, ok := groupOfDesc[t.desc]
		if !ok {
			sig := termsKey(t.terms)
			if g, ok = groupOf[sig]; !ok {
				g = len(groups)
				groupOf[sig] = g
				groups = append(groups, termGroup{rep: i, byRes: map[string][]int{}})
			}
			groupOfDesc[t.desc] = g
		}
		groups[g].size++
		ck := cellKey{g, t.verb, t.resource}
		c, ok := cellOf[ck]
		if !ok {
			c = len(cells)
			cellOf[ck] = c
			cells = append(cells, cell{group: g, verb: t.verb, resource: t.resource})
			groups[g].cells = append(groups[g].cells, c)
			groups[g].byRes[t.resource] = append(groups[g].byRes[t.resource], c)
		}
		cells[c].members = append(cells[c].members, i)
		cellOfTool[i] = c
		if t.key != "" {
			byKey[t.key] = append(byKey[t.key], i)
		}
	}
	vectors := groupVectors(tools, groups)
	var out lookAlikePairs
	paired := make([]bool, len(tools))
	mark := func(c int) {
		for _, i := range cells[c].members {
			paired[i] = true
		}
	}
	// Pairs by description: cells of similar term groups that nothing in
	// their names sets apart.
	neighbours := make([][]int, len(cells))
	matched := map[[2]int]bool{}
	for _, gp := range similarGroups(tools, groups, vectors) {
		g, h := groups[gp[0]], groups[gp[1]]
		for _, c := range g.cells {
			candidates := h.cells
			if r := cells[c].resource; r != "" {
				candidates = append(slices.Clip(h.byRes[r]), h.byRes[""]...)
			}
			for _, d := range candidates {
				if gp[0] == gp[1] && d < c || apart(cells[c].verb, cells[c].resource, cells[d].verb, cells[d].resource) {
					continue
				}
				if c == d {
					k := len(cells[c].members)
					if k < 2 {
						continue
					}
					out.count += k * (k - 1) / 2
					neighbours[c] = append(neighbours[c], c)
				} else {
					out.count += len(cells[c].members) * len(cells[d].members)
					neighbours[c] = append(neighbours[c], d)
					neighbours[d] = append(neighbours[d], c)
				}
				matched[[2]int{min(c, d), max(c, d)}] = true
				mark(c)
				mark(d)
			}
		}
	}
	// Pairs by name key, less those already counted by description.
	for _, ts := range byKey {
		k := len(ts)
		if k < 2 {
			continue
		}
		out.count += k * (k - 1) / 2
		inCell := map[int]int{}
		for _, i := range ts {
			paired[i] = true
			inCell[cellOfTool[i]]++
		}
		for c, m := range inCell {
			for d, n := range inCell {
				switch {
				case c == d && matched[[2]int{c, c}]:
					out.count -= m * (m - 1) / 2
				case c < d && matched[[2]int{c, d}]:
					out.count -= m * n
				}
			}
		}
	}
	// The first five pairs: for each tool in order, its partners after it.
	var next []int
	for i := 0; i < len(tools) && len(out.first) < 5; i++ {
		if !paired[i] {
			continue
		}
		next = next[:0]
		need := 5 - len(out.first)
		for _, d := range neighbours[cellOfTool[i]] {
			ms := cells[d].members
			at := sort.SearchInts(ms, i+1)
			next = append(next, ms[at:min(len(ms), at+need)]...)
		}
		if k := tools[i].key; k != "" {
			ms := byKey[k]
			at := sort.SearchInts(ms, i+1)
			next = append(next, ms[at:min(len(ms), at+need)]...)
		}
		slices.Sort(next)
		next = slices.Compact(next)
		for _, j := range next[:min(len(next), need)] {
			out.first = append(out.first, [2]int{i, j})
		}
	}
	for i, p := range paired {
		involved[i] = involved[i] || p
	}
	return out
}

// apart says whether two names tell their tools apart whatever their
// descriptions share: different verbs ("add_x", "delete_x"; but not
// "get_x", "list_x", both reads) or different resources ("create_group",
// "create_project").
func apart(verbA, resA, verbB, resB string) bool {
	return verbA != "" && verbB != "" && verbA != verbB && (lex.LifecycleOf[verbA] == "" || lex.LifecycleOf[verbA] != lex.LifecycleOf[verbB]) ||
		resA != "" && resB != "" && resA != resB
}

// groupVectors weighs each term group's description words by how rare
// they are among the tools (tfidfWeight), as unit vectors: the vector
// every tool of the group has, made once a group.
func groupVectors(tools []surfaceTool, groups []termGroup) []map[string]float64 {
	df := map[string]int{}
	for _, g := range groups {
		for w := range tools[g.rep].terms {
			df[w] += g.size
		}
	}
	out := make([]map[string]float64, len(groups))
	for i, g := range groups {
		out[i] = lex.UnitVector(tools[g.rep].terms, df, float64(len(tools)), tfidfWeight)
	}
	return out
}

// termsKey is a text that two term counts share exactly when they are equal.
func termsKey(terms map[string]int) string {
	var b strings.Builder
	for _, w := range lex.SortedKeys(terms) {
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
// confusableCosine (vectors holds each group's), a group with itself
// included. It orders words rarest first and indexes each vector only by
// the words before its remaining weight falls under prefixMass (a prefix
// filter): any two vectors similar enough share a word in both their
// prefixes, so only groups that do are compared.
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
	sorted := make([]lex.Sorted, len(groups))
	for _, g := range eligible {
		sorted[g] = lex.NewSorted(vectors[g])
	}
	postings := map[string][]int{}
	stamp := make([]int, len(groups))
	for i := range stamp {
		stamp[i] = -1
	}
	var out [][2]int
	for _, g := range eligible {
		v := vectors[g]
		if sorted[g].Dot(sorted[g]) >= confusableCosine {
			out = append(out, [2]int{g, g})
		}
		// The words with their counts and weights, read out of the maps
		// once rather than at each comparison of the sort.
		words := make([]weighedWord, 0, len(v))
		for w, x := range v {
			words = append(words, weighedWord{w, df[w], x})
		}
		slices.SortFunc(words, func(a, b weighedWord) int {
			if a.df != b.df {
				return a.df - b.df
			}
			return strings.Compare(a.w, b.w)
		})
		rest := make([]float64, len(words)+1)
		for k := len(words) - 1; k >= 0; k-- {
			rest[k] = rest[k+1] + words[k].x*words[k].x
		}
		var candidates []int
		prefix := make([]string, 0, len(words))
		for k, ww := range words {
			w := ww.w
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
			if sorted[h].Dot(sorted[g]) >= confusableCosine {
				out = append(out, [2]int{h, g})
			}
		}
	}
	return out
}

// weighedWord is a word of a description's vector with how many term
// groups hold it (df) and its weight (x), for similarGroups' order.
type weighedWord struct {
	w  string
	df int
	x  float64
}
