package tdqs

import (
	"slices"
	"sort"
	"strings"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// Names are a server's tool names, read once a run from what its
// questions share, and indexed so that finding the names a description
// mentions costs the description's length, not the number of tools: the
// answers are those of looking each name up in the description
// (lex.ToolNameIn), sibling by sibling.
type Names struct {
	// byLower holds the names by their lower case, sorted, repeats kept.
	byLower map[string][]string
	// maxRuns is the most runs of identifier bytes any indexed name has.
	maxRuns int
	// prefixes are the lower-case names indexed by runs, each cut after
	// each of its runs ("api", "api-get", "api-get-users" for
	// API-get-users): a span of a description that is none of them
	// starts no longer span that is a name.
	prefixes map[string]bool
	// maybe has the bit of each prefix's filterHash set: a span whose
	// bit is clear is no prefix, found without looking it up in the
	// large map (nearly every word of a description is none).
	maybe *[filterBits / 64]uint64
	// odd are the lower-case names that begin or end with a byte that is
	// not an identifier byte: they are looked up one by one.
	odd []string
	// count is how many non-empty names there are.
	count int
}

// NewNames indexes a server's tool names.
func NewNames(names []string) *Names {
	n := &Names{byLower: map[string][]string{}, prefixes: map[string]bool{}, maybe: new([filterBits / 64]uint64)}
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	for _, s := range sorted {
		if s == "" {
			continue
		}
		n.count++
		low := strings.ToLower(s)
		if _, ok := n.byLower[low]; !ok {
			if !lex.IdentByte(low[0]) || !lex.IdentByte(low[len(low)-1]) {
				n.odd = append(n.odd, low)
			} else {
				runs := identRuns(low)
				n.maxRuns = max(n.maxRuns, len(runs))
				for _, r := range runs {
					n.prefixes[low[:r[1]]] = true
					h := filterHash(low[:r[1]])
					n.maybe[h/64] |= 1 << (h % 64)
				}
			}
		}
		n.byLower[low] = append(n.byLower[low], s)
	}
	return n
}

// others reports whether a tool of the given name has siblings: names
// other than its own.
func (n *Names) others(own string) bool {
	return n.count > countOf(n.byLower[strings.ToLower(own)], own)
}

func countOf(xs []string, s string) int {
	k := 0
	for _, x := range xs {
		if x == s {
			k++
		}
	}
	return k
}

// mentioned returns the names other than own that ls (a description in
// lower case) mentions as identifiers, sorted. The spans that are names
// are gathered in a slice, sorted and made unique (a description names a
// few tools, and a set was a map a question), and the runs are found as
// the spans grow, not gathered first.
func (n *Names) mentioned(ls, own string) []string {
	var hitBuf [16]string
	hit := hitBuf[:0]
	for start, end := runAt(ls, 0); start >= 0; start, end = runAt(ls, end) {
		// The spans of this run and the next ones, up to maxRuns runs.
		for k, to := 0, end; k < n.maxRuns; k++ {
			sub := ls[start:to]
			if h := filterHash(sub); n.maybe[h/64]&(1<<(h%64)) == 0 || !n.prefixes[sub] {
				break
			}
			if n.byLower[sub] != nil && (!lex.PlainWord(sub) || lex.WrittenAsName(ls, start, to)) {
				hit = append(hit, sub)
			}
			if _, to = runAt(ls, to); to < 0 {
				break
			}
		}
	}
	for _, low := range n.odd {
		if lex.ToolNameIn(ls, low) {
			hit = append(hit, low)
		}
	}
	if len(hit) == 0 {
		return nil
	}
	slices.Sort(hit)
	hit = slices.Compact(hit)
	var out []string
	for _, low := range hit {
		for _, s := range n.byLower[low] {
			if s != own {
				out = append(out, s)
			}
		}
	}
	sort.Strings(out)
	return out
}

// identRuns returns the start and end of each longest run of identifier
// bytes of s.
func identRuns(s string) [][2]int {
	var runs [][2]int
	for start, end := runAt(s, 0); start >= 0; start, end = runAt(s, end) {
		runs = append(runs, [2]int{start, end})
	}
	return runs
}

// runAt returns the start and end of the first longest run of identifier
// bytes of s at or after from; -1, -1 when there is none.
func runAt(s string, from int) (start, end int) {
	i := from
	for i < len(s) && !lex.IdentByte(s[i]) {
		i++
	}
	if i == len(s) {
		return -1, -1
	}
	j := i + 1
	for j < len(s) && lex.IdentByte(s[j]) {
		j++
	}
	return i, j
}

// filterBits is the size of Names.maybe, in bits: a few bits a prefix
// of 5,000 names keeps most words of a description out of the map.
const filterBits = 1 << 16

// filterHash is the bit of Names.maybe that stands for s (FNV-1a).
func filterHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h % filterBits
}
