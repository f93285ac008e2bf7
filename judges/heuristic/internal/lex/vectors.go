package lex

import (
	"math"
	"slices"
	"sort"
	"strings"
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
	keys := SortedKeys(d)
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

// Sorted is a vector as its terms in order and their weights: Dot sums
// two of them in one merge of their terms, where Cosine collects and
// sorts the shared terms on every call.
type Sorted struct {
	Terms   []string
	Weights []float64
}

// NewSorted returns v as a Sorted.
func NewSorted(v map[string]float64) Sorted {
	s := Sorted{Terms: SortedKeys(v)}
	s.Weights = make([]float64, len(s.Terms))
	for i, w := range s.Terms {
		s.Weights[i] = v[w]
	}
	return s
}

// Dot is Cosine of the two vectors, to the bit: the products of the
// shared terms summed in the terms' order.
func (a Sorted) Dot(b Sorted) float64 {
	dot := 0.0
	for i, j := 0, 0; i < len(a.Terms) && j < len(b.Terms); {
		switch c := strings.Compare(a.Terms[i], b.Terms[j]); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			dot += a.Weights[i] * b.Weights[j]
			i++
			j++
		}
	}
	return dot
}

// SortedKeys is slices.Sorted(maps.Keys(m)), nil for an empty map, made
// at its length at once: collecting from the iterator grew the slice from
// nothing, a copy at each doubling, for each tool's terms and vector in
// every coherence question.
func SortedKeys[M ~map[string]V, V any](m M) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
