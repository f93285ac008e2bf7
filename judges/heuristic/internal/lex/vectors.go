package lex

import (
	"maps"
	"math"
	"slices"
	"sort"
)

// UnitVectors weighs each document's term counts by weight(tf, df, n),
// where df is how many of the n documents hold the term, and scales each
// vector to length 1 (a vector of zeros stays zero). Sums run in a fixed
// order, so the same input gives the same bits.
func UnitVectors(docs []map[string]int, weight func(tf, df int, n float64) float64) []map[string]float64 {
	df := map[string]int{}
	for _, d := range docs {
		for w := range d {
			df[w]++
		}
	}
	n := float64(len(docs))
	out := make([]map[string]float64, len(docs))
	for i, d := range docs {
		out[i] = UnitVector(d, df, n, weight)
	}
	return out
}

// UnitVector is one document's vector as UnitVectors makes it, given the
// document frequencies df of its terms among n documents: documents with
// equal counts get equal vectors, so a caller with many copies of one
// document can weigh it once.
func UnitVector(d, df map[string]int, n float64, weight func(tf, df int, n float64) float64) map[string]float64 {
	keys := slices.Sorted(maps.Keys(d))
	v := make(map[string]float64, len(keys))
	norm := 0.0
	for _, w := range keys {
		x := weight(d[w], df[w], n)
		v[w] = x
		norm += x * x
	}
	if norm > 0 {
		norm = math.Sqrt(norm)
		for _, w := range keys {
			v[w] /= norm
		}
	}
	return v
}

// Cosine is the dot product of two unit vectors, summed in a fixed order
// so that the same inputs give the same bits.
func Cosine(a, b map[string]float64) float64 {
	if len(b) < len(a) {
		a, b = b, a
	}
	keys := make([]string, 0, len(a))
	for w := range a {
		if _, ok := b[w]; ok {
			keys = append(keys, w)
		}
	}
	sort.Strings(keys)
	dot := 0.0
	for _, w := range keys {
		dot += a[w] * b[w]
	}
	return dot
}
