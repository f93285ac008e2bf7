package lex

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSortedDotIsCosine: Dot of two Sorted vectors is Cosine of the maps
// they came from, to the bit, for unit vectors over overlapping and
// disjoint vocabularies, empty ones, and a vector with itself.
func TestSortedDotIsCosine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	docs := []map[string]int{{}, {"only": 1}}
	for range 200 {
		d := map[string]int{}
		for range rng.IntN(40) {
			d[fmt.Sprintf("w%d", rng.IntN(60))] += 1 + rng.IntN(3)
		}
		docs = append(docs, d)
	}
	vs := UnitVectors(docs, func(tf, df int, n float64) float64 {
		return float64(tf) * (math.Log((n+1)/float64(df+1)) + 1)
	})
	sorted := make([]Sorted, len(vs))
	for i, v := range vs {
		sorted[i] = NewSorted(v)
	}
	nonzero := 0
	for i := range vs {
		for j := range vs {
			got, want := sorted[i].Dot(sorted[j]), Cosine(vs[i], vs[j])
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("docs %d and %d: Dot %v, Cosine %v", i, j, got, want)
			}
			if got != 0 {
				nonzero++
			}
		}
	}
	if nonzero < len(vs) {
		t.Errorf("only %d of %d pairs share a term", nonzero, len(vs)*len(vs))
	}
}
