// Package nearest finds, for a misspelt key, the valid key it was
// probably meant to be, so that an error can say "did you mean".
package nearest

import (
	"slices"
	"strings"
)

// Key returns the key of known nearest to k when it is near enough to
// be a slip for it, else "": a key that differs from k in case or in the
// separators "_" and "-" only, that starts with k or that k starts with
// (at least three characters), or within an edit distance of a third of
// its length (at least one). Of several, the closest wins, then the first
// in sorted order.
func Key(k string, known []string) string {
	norm := func(s string) string {
		return strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(s))
	}
	nk := norm(k)
	best, bestD := "", -1
	for _, c := range slices.Sorted(slices.Values(known)) {
		nc := norm(c)
		var d int
		switch {
		case nk == nc:
			d = 0
		case len(nk) >= 3 && len(nc) >= 3 && (strings.HasPrefix(nc, nk) || strings.HasPrefix(nk, nc)):
			d = 1
		default:
			d = distance(nk, nc)
			if d > max(1, len(nc)/3) {
				continue
			}
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the edit distance of a and b (insertions, deletions,
// substitutions and swaps of neighbours, each 1), over bytes.
func distance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
