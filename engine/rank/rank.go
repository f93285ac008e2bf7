// Package rank compares two rankings of the same servers: the rank of
// each under an old and a new rubric, and Kendall's tau between them, so
// that a rubric author sees what a change of weights does to an order.
package rank

import (
	"math"
	"sort"

	"github.com/rubricmcp/rubric/engine/num"
)

// Ranks returns the rank of each score, highest first, 1-based; equal
// scores share the best rank of their group (1, 2, 2, 4). A nil score
// (no overall score) gets rank 0: it is not ranked.
func Ranks(scores []*num.Num) []int {
	idx := make([]int, 0, len(scores))
	for i, s := range scores {
		if s != nil {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]].Cmp(*scores[idx[b]]) > 0 })
	out := make([]int, len(scores))
	for pos, i := range idx {
		if pos > 0 && scores[idx[pos-1]].Cmp(*scores[i]) == 0 {
			out[i] = out[idx[pos-1]]
		} else {
			out[i] = pos + 1
		}
	}
	return out
}

// Tau is Kendall's tau-b between two scorings of the same items: 1 when
// they order every pair alike, -1 when they order every pair oppositely;
// ties in either count as neither (tau-b's correction). Items with a nil
// score on either side are left out. ok is false when fewer than two
// items remain, or one side ties them all.
func Tau(old, new []*num.Num) (tau float64, ok bool) {
	var nc, nd, tx, ty, n0 int
	for i := range old {
		for j := i + 1; j < len(old); j++ {
			if old[i] == nil || old[j] == nil || new[i] == nil || new[j] == nil {
				continue
			}
			n0++
			a, b := old[i].Cmp(*old[j]), new[i].Cmp(*new[j])
			switch {
			case a == 0 && b == 0:
				tx++
				ty++
			case a == 0:
				tx++
			case b == 0:
				ty++
			case a == b:
				nc++
			default:
				nd++
			}
		}
	}
	den := float64(n0-tx) * float64(n0-ty)
	if n0 == 0 || den == 0 {
		return 0, false
	}
	return float64(nc-nd) / math.Sqrt(den), true
}
