package calibrate

import (
	"math"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
)

func ints(xs ...int64) []num.Num {
	out := make([]num.Num, len(xs))
	for i, x := range xs {
		out[i] = num.Int(x)
	}
	return out
}

func TestQuadraticKappa(t *testing.T) {
	cases := []struct {
		name   string
		xs, ys []num.Num
		want   num.Num
		ok     bool
	}{
		// x = (1,2,3), y = (1,3,3). Observed: squared differences 0,1,0,
		// mean 1/3. Expected: every (x_i, y_j): x=1 gives 0+4+4, x=2 gives
		// 1+1+1, x=3 gives 4+0+0; 15 over 9 pairs = 5/3. Kappa = 1 -
		// (1/3)/(5/3) = 4/5. The 3x3 table form, with weights
		// (i-j)²/(3-1)², gives the same: observed 1/3·1/4, expected
		// 5/3·1/4.
		{"hand 3 tools", ints(1, 2, 3), ints(1, 3, 3), num.Frac(4, 5), true},
		// Perfect agreement: observed 0, so kappa 1.
		{"equal", ints(1, 4, 5, 2), ints(1, 4, 5, 2), num.Int(1), true},
		// x = (1,5), y = (5,1): observed (16+16)/2 = 16; expected
		// (0+16+16+0)/4 = 8; kappa = 1 - 16/8 = -1.
		{"reversed", ints(1, 5), ints(5, 1), num.Int(-1), true},
		// A median of 3.5 needs no category list: x = (3.5, 2), y = (4, 2):
		// observed (1/4+0)/2 = 1/8; expected (1/4 + 9/4 + 4 + 0)/4 = 13/8;
		// kappa = 1 - 1/13 = 12/13.
		{"half", []num.Num{num.Frac(7, 2), num.Int(2)}, ints(4, 2), num.Frac(12, 13), true},
		{"one tool", ints(3), ints(3), num.Zero, false},
		{"both the same constant", ints(3, 3), ints(3, 3), num.Zero, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := QuadraticKappa(c.xs, c.ys)
			if ok != c.ok || (ok && got.Cmp(c.want) != 0) {
				t.Errorf("kappa %s, %v; want %s, %v", got.Exact(), ok, c.want.Exact(), c.ok)
			}
		})
	}
}

func TestOrdinalAlpha(t *testing.T) {
	cases := []struct {
		name  string
		units [][]num.Num
		want  num.Num
		ok    bool
	}{
		// Units (1,1), (2,3), (3,3): pairable values 1×2, 2×1, 3×3, n = 6.
		// Coincidences (m_u - 1 = 1): o11 = 2, o23 = o32 = 1, o33 = 2.
		// Ordinal δ²: (1,2): (2+1 - 3/2)² = 9/4; (2,3): (1+3 - 2)² = 4;
		// (1,3): (2+1+3 - 5/2)² = 49/4. Observed Σ o δ² = 4 + 4 = 8.
		// Expected Σ n_c n_k δ² over c ≠ k = 2·(2·1·9/4 + 2·3·49/4 +
		// 1·3·4) = 2·90 = 180. Alpha = 1 - 5·8/180 = 7/9.
		{"hand 3 units", [][]num.Num{ints(1, 1), ints(2, 3), ints(3, 3)}, num.Frac(7, 9), true},
		// Three coders, weight 1/(3-1): units (1,1,2), (2,2,2).
		// Values 1×2, 2×4, n = 6. Unit 1's ordered pairs of different
		// coders: (1,1)×2, (1,2)×2, (2,1)×2, each 1/2: o12 = o21 = 1.
		// δ²(1,2) = (2+4 - 3)² = 9. Observed 2·9 = 18; expected
		// 2·(2·4·9) = 144. Alpha = 1 - 5·18/144 = 3/8.
		{"three coders", [][]num.Num{ints(1, 1, 2), ints(2, 2, 2)}, num.Frac(3, 8), true},
		// Perfect agreement with two values: observed 0, alpha 1.
		{"agree", [][]num.Num{ints(1, 1), ints(4, 4)}, num.Int(1), true},
		// A unit with one value is not pairable and changes nothing.
		{"unpairable left out", [][]num.Num{ints(1, 1), ints(2, 3), ints(3, 3), ints(5)}, num.Frac(7, 9), true},
		{"one value throughout", [][]num.Num{ints(3, 3), ints(3, 3)}, num.Zero, false},
		{"one coder", [][]num.Num{ints(3), ints(4)}, num.Zero, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := OrdinalAlpha(c.units)
			if ok != c.ok || (ok && got.Cmp(c.want) != 0) {
				t.Errorf("alpha %s, %v; want %s, %v", got.Exact(), ok, c.want.Exact(), c.ok)
			}
		})
	}
}

func TestSpearman(t *testing.T) {
	cases := []struct {
		name   string
		xs, ys []num.Num
		want   float64
		ok     bool
	}{
		// No ties: rank differences 0,1,1,0; 1 - 6·2/(4·15) = 0.8.
		{"no ties", ints(1, 2, 3, 4), ints(10, 30, 20, 40), 0.8, true},
		// Ties share their mean rank: x ranks (1, 2.5, 2.5, 4), y ranks
		// (1,2,3,4). Deviations from 2.5: (-1.5,0,0,1.5) and
		// (-1.5,-.5,.5,1.5); sxy = 4.5, sxx = 4.5, syy = 5;
		// r = 4.5/√22.5 = 0.948683...
		{"ties", ints(1, 2, 2, 3), ints(1, 2, 3, 4), 4.5 / math.Sqrt(22.5), true},
		{"constant", ints(2, 2, 2), ints(1, 2, 3), 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := Spearman(c.xs, c.ys)
			if ok != c.ok || math.Abs(got-c.want) > 1e-12 {
				t.Errorf("spearman %v, %v; want %v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestPercentile95(t *testing.T) {
	// 40 values 1..40: the 2.5th percentile is the ceil(1)-th smallest
	// (1), the 97.5th the ceil(39)-th (39).
	var vals []float64
	for i := 40; i >= 1; i-- {
		vals = append(vals, float64(i))
	}
	if got := percentile95(vals); got == nil || got.Low != 1 || got.High != 39 {
		t.Errorf("percentile95 = %+v, want [1, 39]", got)
	}
	if percentile95(nil) != nil {
		t.Error("percentile95 of nothing is not nil")
	}
}

func TestBootstrapCI(t *testing.T) {
	b := Bootstrap{Resamples: DefaultResamples, Seed: DefaultSeed}
	// Two tools differing by 0 and 1: a resample's mean absolute
	// difference is 0 (both draws the first, probability 1/4), 1/2 (1/2)
	// or 1 (1/4). With 1/4 > 2.5% at either end, the interval is [0, 1].
	// Every resample with both tools has Pearson 1 (the pairs (1,1),
	// (2,3) lie on a rising line); one with a single tool drawn twice is
	// undefined and left out; so the correlation intervals are [1, 1].
	xs, ys := ints(1, 2), ints(1, 3)
	p, s, m := bootstrapCI(xs, ys, b)
	if m == nil || m.Low != 0 || m.High != 1 {
		t.Errorf("mean absolute difference interval %+v, want [0, 1]", m)
	}
	for name, iv := range map[string]*Interval{"pearson": p, "spearman": s} {
		if iv == nil || iv.Low != 1 || iv.High != 1 {
			t.Errorf("%s interval %+v, want [1, 1]", name, iv)
		}
	}

	// The same seed draws the same resamples; another seed may not, and
	// the intervals lie around the statistic.
	xs, ys = ints(1, 2, 3, 4, 5, 3, 2, 4), ints(2, 2, 3, 5, 4, 3, 1, 5)
	p1, s1, m1 := bootstrapCI(xs, ys, b)
	p2, s2, m2 := bootstrapCI(xs, ys, b)
	if *p1 != *p2 || *s1 != *s2 || *m1 != *m2 {
		t.Error("one seed gave two different intervals")
	}
	r, _ := Pearson(xs, ys)
	if p1.Low > r || p1.High < r || p1.High > 1 {
		t.Errorf("pearson %v outside its interval %+v", r, p1)
	}
	mad := meanAbsDiff(floats(xs), floats(ys)) // (1+0+0+1+1+0+1+1)/8 = 0.625
	if mad != 0.625 || m1.Low > mad || m1.High < mad {
		t.Errorf("mean absolute difference %v, interval %+v", mad, m1)
	}
	if p, s, m := bootstrapCI(ints(1), ints(1), b); p != nil || s != nil || m != nil {
		t.Error("one tool has intervals")
	}
}
