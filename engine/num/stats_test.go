package num

import (
	"slices"
	"testing"
)

func TestMedianAndMean(t *testing.T) {
	for _, tc := range []struct {
		xs           []string
		median, mean string
	}{
		{[]string{"3.2"}, "3.2", "3.2"},
		{[]string{"1.7", "2.1", "1.8"}, "1.8", "28/15"},
		{[]string{"4", "2", "3", "1"}, "2.5", "2.5"},
		{[]string{"0.1", "0.2"}, "0.15", "0.15"},
		{[]string{"1/3", "-1/3", "1/6"}, "1/6", "1/18"},
	} {
		xs := make([]Num, len(tc.xs))
		for i, s := range tc.xs {
			xs[i] = MustParse(s)
		}
		before := slices.Clone(xs)
		if got, ok := Median(xs); !ok || got.Cmp(MustParse(tc.median)) != 0 {
			t.Errorf("Median(%v) = %s %v, want %s", tc.xs, got.Exact(), ok, tc.median)
		}
		if !slices.EqualFunc(xs, before, func(a, b Num) bool { return a.Cmp(b) == 0 }) {
			t.Errorf("Median reordered its input %v", tc.xs)
		}
		if got, ok := Mean(xs); !ok || got.Cmp(MustParse(tc.mean)) != 0 {
			t.Errorf("Mean(%v) = %s %v, want %s", tc.xs, got.Exact(), ok, tc.mean)
		}
	}
	if _, ok := Median(nil); ok {
		t.Error("the median of nothing is defined")
	}
	if _, ok := Mean(nil); ok {
		t.Error("the mean of nothing is defined")
	}
	if got := MustParse("-0.3").Abs(); got.Cmp(MustParse("0.3")) != 0 {
		t.Errorf("|-0.3| = %s", got)
	}
}
