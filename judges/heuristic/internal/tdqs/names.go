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
// (lex.IdentifierIn), sibling by sibling.
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
	// odd are the lower-case names that begin or end with a byte that is
	// not an identifier byte: they are looked up one by one.
	odd []string
	// count is how many non-empty names there are.
	count int
}

// NewNames indexes a server's tool names.
func NewNames(names []string) *Names {
	n := &Names{byLower: map[string][]string{}, prefixes: map[string]bool{}}
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	for _, s := range sorted {
		if s == "" {
			continue
		}
		n.count++
		low := strings.ToLower(s)
		if _, ok := n.byLower[low]; !ok {
			if !identByte(low[0]) || !identByte(low[len(low)-1]) {
				n.odd = append(n.odd, low)
			} else {
				runs := identRuns(low)
				n.maxRuns = max(n.maxRuns, len(runs))
				for _, r := range runs {
					n.prefixes[low[:r[1]]] = true
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
// few tools, and a set was a map a question), and the runs of a short
// description are kept on the stack.
func (n *Names) mentioned(ls, own string) []string {
	var runBuf [64][2]int
	runs := appendIdentRuns(runBuf[:0], ls)
	var hitBuf [16]string
	hit := hitBuf[:0]
	for i := range runs {
		for j := i; j < len(runs) && j-i < n.maxRuns; j++ {
			sub := ls[runs[i][0]:runs[j][1]]
			if !n.prefixes[sub] {
				break
			}
			if n.byLower[sub] != nil {
				hit = append(hit, sub)
			}
		}
	}
	for _, low := range n.odd {
		if lex.IdentifierIn(ls, low) {
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
func identRuns(s string) [][2]int { return appendIdentRuns(nil, s) }

// appendIdentRuns appends identRuns(s) to runs.
func appendIdentRuns(runs [][2]int, s string) [][2]int {
	for i := 0; i < len(s); {
		if !identByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && identByte(s[j]) {
			j++
		}
		runs = append(runs, [2]int{i, j})
		i = j
	}
	return runs
}

// identByte is lex.IdentifierIn's identifier byte, for lower-case text.
func identByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 0x80
}
