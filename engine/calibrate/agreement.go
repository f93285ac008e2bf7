package calibrate

import (
	"cmp"
	"math"
	"slices"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/splitmix"
)

// Agreement is how well two sets of scores of the same tools agree: ours
// (the median of the runs) against the published ones, or one judge
// against another. Every statistic is null where it is undefined (too
// few tools, or one side constant). Kappa and alpha are computed exactly
// and written rounded to four decimals; the correlations are float64.
type Agreement struct {
	Name  string `json:"name"`
	Tools int    `json:"tools"`
	// Kappa is Cohen's kappa with quadratic weights, which for the
	// ordinal 1-5 scores of a dimension treats 2 against 4 as four times
	// worse than 2 against 3.
	Kappa *float64 `json:"quadratic_weighted_kappa"`
	// Alpha is Krippendorff's alpha with the ordinal metric, the two sides
	// taken as two coders of the same tools.
	Alpha *float64 `json:"krippendorff_alpha"`
	// AlphaRuns is Krippendorff's alpha (ordinal) of the runs of one
	// judge, each run a coder: how reproducible the judge is. Null when
	// there is one run.
	AlphaRuns  *float64  `json:"krippendorff_alpha_runs,omitempty"`
	Pearson    *float64  `json:"pearson"`
	PearsonCI  *Interval `json:"pearson_ci95"`
	Spearman   *float64  `json:"spearman"`
	SpearmanCI *Interval `json:"spearman_ci95"`
	// MeanAbs is the mean absolute difference, and MeanAbsCI its
	// bootstrap interval.
	MeanAbs   float64   `json:"mean_absolute_difference"`
	MeanAbsCI *Interval `json:"mean_absolute_difference_ci95"`
}

// Interval is a bootstrap percentile interval.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Bootstrap says how the confidence intervals were drawn: Resamples
// resamples of the tools with replacement from a generator seeded with
// Seed, so that a record is reproduced exactly by recomputing it.
type Bootstrap struct {
	Resamples int    `json:"resamples"`
	Seed      uint64 `json:"seed"`
	Level     string `json:"level"`
}

// DefaultResamples and DefaultSeed are the bootstrap's defaults.
const (
	DefaultResamples = 2000
	DefaultSeed      = 19
)

// QuadraticKappa is Cohen's kappa with quadratic weights between xs and
// ys, paired by index, exactly. With quadratic weights the expected
// disagreement under independent marginals is the mean squared
// difference over every pair (x_i, y_j), so
//
//	kappa = 1 - mean_i (x_i - y_i)^2 / mean_ij (x_i - y_j)^2
//
// which equals the usual k-by-k table form for integer categories (the
// (k-1)^2 that normalises the weights cancels) and needs no category list
// for a median such as 3.5. False when undefined: fewer than two pairs,
// or no expected disagreement (both sides one and the same constant).
func QuadraticKappa(xs, ys []num.Num) (num.Num, bool) {
	n := len(xs)
	if n < 2 || len(ys) != n {
		return num.Zero, false
	}
	obs, exp := num.Zero, num.Zero
	for i := range n {
		d := xs[i].Sub(ys[i])
		obs = obs.Add(d.Mul(d))
		for j := range n {
			e := xs[i].Sub(ys[j])
			exp = exp.Add(e.Mul(e))
		}
	}
	if exp.Sign() == 0 {
		return num.Zero, false
	}
	// obs/n over exp/n² is n·obs/exp.
	r, _ := num.Int(int64(n)).Mul(obs).Quo(exp)
	return num.Int(1).Sub(r), true
}

// OrdinalAlpha is Krippendorff's alpha with the ordinal metric, exactly.
// Each unit is one tool's values, one per coder (a run, or a judge);
// units with fewer than two values are not pairable and left out. The
// ordinal distance between values c <= k is
//
//	(n_c + ... + n_k - (n_c + n_k)/2)^2
//
// where n_g counts the pairable values equal to g, and
//
//	alpha = 1 - (n - 1) · sum o_ck δ²_ck / sum n_c n_k δ²_ck
//
// with o_ck the coincidences (each unit's ordered pairs of values from
// different coders, weighted 1/(m_u - 1)). False when undefined: no
// pairable values, or a single value throughout.
func OrdinalAlpha(units [][]num.Num) (num.Num, bool) {
	var vals []num.Num
	for _, u := range units {
		if len(u) >= 2 {
			vals = append(vals, u...)
		}
	}
	slices.SortFunc(vals, num.Num.Cmp)
	cats := slices.CompactFunc(slices.Clone(vals), func(a, b num.Num) bool { return a.Cmp(b) == 0 })
	if len(cats) < 2 {
		return num.Zero, false
	}
	at := func(v num.Num) int {
		i, _ := slices.BinarySearchFunc(cats, v, num.Num.Cmp)
		return i
	}
	k := len(cats)
	counts := make([]num.Num, k)
	for i := range counts {
		counts[i] = num.Zero
	}
	for _, v := range vals {
		counts[at(v)] = counts[at(v)].Add(num.Int(1))
	}
	// Coincidences.
	o := make([][]num.Num, k)
	for i := range o {
		o[i] = make([]num.Num, k)
		for j := range o[i] {
			o[i][j] = num.Zero
		}
	}
	for _, u := range units {
		m := len(u)
		if m < 2 {
			continue
		}
		w := num.Frac(1, int64(m-1))
		for a := range m {
			for b := range m {
				if a != b {
					c, d := at(u[a]), at(u[b])
					o[c][d] = o[c][d].Add(w)
				}
			}
		}
	}
	// Ordinal distances from the cumulative counts.
	delta := func(c, d int) num.Num {
		if c > d {
			c, d = d, c
		}
		s := num.Zero
		for g := c; g <= d; g++ {
			s = s.Add(counts[g])
		}
		half, _ := counts[c].Add(counts[d]).Quo(num.Int(2))
		s = s.Sub(half)
		return s.Mul(s)
	}
	obs, exp := num.Zero, num.Zero
	for c := range k {
		for d := range k {
			if c == d {
				continue
			}
			dd := delta(c, d)
			obs = obs.Add(o[c][d].Mul(dd))
			exp = exp.Add(counts[c].Mul(counts[d]).Mul(dd))
		}
	}
	if exp.Sign() == 0 {
		return num.Zero, false
	}
	n := num.Int(int64(len(vals)))
	r, _ := n.Sub(num.Int(1)).Mul(obs).Quo(exp)
	return num.Int(1).Sub(r), true
}

// ranks are the ranks of xs from 1, ties given the mean of the ranks
// they span (exactly: a mean of integer ranks is a multiple of 1/2).
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
	out := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		// Ranks i+1 .. j+1 share their mean, (i+j+2)/2.
		r := float64(i+j+2) / 2
		for t := i; t <= j; t++ {
			out[idx[t]] = r
		}
		i = j + 1
	}
	return out
}

// Spearman is the rank correlation of xs and ys (the Pearson correlation
// of their ranks, ties ranked by their mean rank), false when undefined.
func Spearman(xs, ys []num.Num) (float64, bool) {
	if len(ys) != len(xs) {
		return 0, false
	}
	return spearman(floats(xs), floats(ys))
}

func spearman(xs, ys []float64) (float64, bool) {
	if len(xs) < 2 {
		return 0, false
	}
	return pearson(ranks(xs), ranks(ys))
}

// meanAbsDiff is the mean of |x_i - y_i| in float64.
func meanAbsDiff(xs, ys []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for i := range xs {
		s += math.Abs(xs[i] - ys[i])
	}
	return s / float64(len(xs))
}

// percentile95 is the 2.5th and 97.5th percentiles of vals by the
// nearest-rank rule (the ceil(p·m)-th smallest of m values); nil for none.
func percentile95(vals []float64) *Interval {
	m := len(vals)
	if m == 0 {
		return nil
	}
	s := slices.Clone(vals)
	slices.Sort(s)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p*float64(m))) - 1
		return s[max(0, min(m-1, i))]
	}
	return &Interval{Low: round4(rank(0.025)), High: round4(rank(0.975))}
}

// bootstrapCI draws resamples of the pairs with replacement and returns
// the 95% percentile intervals of Pearson, Spearman and the mean absolute
// difference. Resamples on which a correlation is undefined (all the
// drawn tools alike on one side) are left out of that correlation's
// interval.
func bootstrapCI(xs, ys []num.Num, b Bootstrap) (pearsonCI, spearmanCI, meanAbsCI *Interval) {
	n := len(xs)
	if n < 2 || b.Resamples <= 0 {
		return nil, nil, nil
	}
	fx, fy := floats(xs), floats(ys)
	rng := splitmix.New(b.Seed)
	var ps, ss, ms []float64
	rx, ry := make([]float64, n), make([]float64, n)
	for range b.Resamples {
		for i := range n {
			j := rng.IntN(n)
			rx[i], ry[i] = fx[j], fy[j]
		}
		if r, ok := pearson(rx, ry); ok {
			ps = append(ps, r)
		}
		if r, ok := spearman(rx, ry); ok {
			ss = append(ss, r)
		}
		ms = append(ms, meanAbsDiff(rx, ry))
	}
	return percentile95(ps), percentile95(ss), percentile95(ms)
}

// round4 rounds to four decimals, so that a record's figures do not hang
// on the last bits of a float64.
func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// exact4 is an exact statistic as a rounded float64.
func exact4(n num.Num, ok bool) *float64 {
	if !ok {
		return nil
	}
	f := round4(n.Float64())
	return &f
}

// float4 is a float statistic rounded, or nil.
func float4(f float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	f = round4(f)
	return &f
}

// agree computes the agreement of xs and ys (paired by tool). runs, when
// not nil, holds each tool's values in every run of one judge, for
// AlphaRuns.
func agree(name string, xs, ys []num.Num, runs [][]num.Num, b Bootstrap) Agreement {
	a := Agreement{Name: name, Tools: len(xs)}
	a.Kappa = exact4(QuadraticKappa(xs, ys))
	units := make([][]num.Num, len(xs))
	for i := range xs {
		units[i] = []num.Num{xs[i], ys[i]}
	}
	a.Alpha = exact4(OrdinalAlpha(units))
	if runs != nil {
		a.AlphaRuns = exact4(OrdinalAlpha(runs))
	}
	a.Pearson = float4(Pearson(xs, ys))
	a.Spearman = float4(Spearman(xs, ys))
	a.MeanAbs = round4(meanAbsDiff(floats(xs), floats(ys)))
	a.PearsonCI, a.SpearmanCI, a.MeanAbsCI = bootstrapCI(xs, ys, b)
	return a
}
