package calibrate

import (
	"math"
	"slices"
	"sort"

	"github.com/rubricmcp/rubric/engine/num"
)

// Stats are the statistics of a calibration. Differences are always ours
// (the median of the runs) minus the published value.
type Stats struct {
	// Measure is the tool's score by its published name.
	Measure   string `json:"measure"`
	Tolerance Val    `json:"tolerance"`
	// Set compares the values of the whole set, one row per matched
	// server member.
	Set []SetRow `json:"set"`
	// Lowest is the lowest tool score: published, in each run, and the
	// median of the runs' lowest, with the tools that have it.
	Lowest *Lowest `json:"lowest"`
	// Measures holds, for the tool's score and each dimension, how far
	// ours lie from the published values.
	Measures []MeasureStats `json:"measures"`
	// Labels holds, for each label (a tier), how many tools agree.
	Labels []LabelStats `json:"labels"`
	// Pearson is the correlation of the tools' published scores with our
	// medians, computed in float64; null when it is undefined (fewer than
	// two tools, or one side constant).
	Pearson *float64 `json:"pearson"`
	// Offset is the mean signed difference of the tool's score; Within
	// counts the tools whose difference lies within Tolerance of it, out
	// of Compared.
	Offset   Mean `json:"offset"`
	Within   int  `json:"within_tolerance"`
	Compared int  `json:"compared"`
	// Largest are the largest differences of the tool's score, largest
	// first (ties by name), leaving out tools that do not differ.
	Largest []Largest `json:"largest"`
	// Tools is every tool: published, median, difference, each run, and
	// how much the runs varied.
	Tools []ToolRow `json:"tools"`
	// Variation sums up how much the tool's score varied from run to run.
	Variation Variation `json:"variation"`
	// Bootstrap says how the confidence intervals of Agreement were drawn.
	Bootstrap Bootstrap `json:"bootstrap"`
	// Agreement holds, for the tool's score and each dimension, the
	// agreement statistics of our medians with the published values, and
	// of the runs with each other.
	Agreement []Agreement `json:"agreement"`
}

// SetRow is one value of the whole set. For a label, Median is the label
// most runs gave (the earliest such on a tie).
type SetRow struct {
	Name      string `json:"name"`
	Published *Val   `json:"published"`
	Runs      []*Val `json:"runs"`
	Median    *Val   `json:"median"`
}

// Lowest is the lowest tool score and the tools that have it.
type Lowest struct {
	Published      Val        `json:"published"`
	PublishedTools []string   `json:"published_tools"`
	Runs           []Val      `json:"runs"`
	RunTools       [][]string `json:"run_tools"`
	Median         Val        `json:"median"`
}

// MeasureStats compares one measure over the tools that have it on both
// sides.
type MeasureStats struct {
	Name       string `json:"name"`
	Tools      int    `json:"tools"`
	MeanAbs    Mean   `json:"mean_absolute_difference"`
	MeanSigned Mean   `json:"mean_signed_difference"`
	Higher     int    `json:"higher"`
	Lower      int    `json:"lower"`
	Equal      int    `json:"equal"`
}

// LabelStats counts the tools whose label (the one most runs gave)
// equals the published one.
type LabelStats struct {
	Name  string `json:"name"`
	Tools int    `json:"tools"`
	Equal int    `json:"equal"`
}

// Largest is one of the largest differences, with the dimensions that
// differ and by how much (ours minus published).
type Largest struct {
	Tool       string  `json:"tool"`
	Published  Val     `json:"published"`
	Median     Val     `json:"median"`
	Difference Val     `json:"difference"`
	Dimensions []Named `json:"dimensions"`
}

// ToolRow is one tool's score and dimensions, published and ours.
// Published and Difference are null for a tool the registry gave no such
// value.
type ToolRow struct {
	Name       string `json:"name"`
	Published  *Val   `json:"published"`
	Median     Val    `json:"median"`
	Difference *Val   `json:"difference"`
	Runs       []Val  `json:"runs"`
	// Range is the largest run minus the smallest; MeanAbsDeviation the
	// mean distance of the runs from their mean.
	Range            Val        `json:"range"`
	MeanAbsDeviation Mean       `json:"mean_absolute_deviation"`
	Dimensions       []ValueRow `json:"dimensions"`
	Labels           []LabelRow `json:"labels,omitempty"`
}

// ValueRow is one dimension of one tool.
type ValueRow struct {
	Name       string `json:"name"`
	Published  *Val   `json:"published"`
	Median     Val    `json:"median"`
	Difference *Val   `json:"difference"`
	Runs       []Val  `json:"runs"`
}

// LabelRow is one label of one tool: published, each run's, and the one
// most runs gave.
type LabelRow struct {
	Name      string   `json:"name"`
	Published *Val     `json:"published"`
	Runs      []string `json:"runs"`
	Most      string   `json:"most"`
}

// Variation sums up run-to-run variation of the tool's score over the
// tools: the mean and largest range, and the mean of the mean absolute
// deviations.
type Variation struct {
	MeanRange     Mean     `json:"mean_range"`
	MaxRange      Val      `json:"max_range"`
	MaxRangeTools []string `json:"max_range_tools"`
	MeanDeviation Mean     `json:"mean_absolute_deviation"`
}

// median is the median of values known to be there.
func median(xs []num.Num) num.Num {
	m, _ := num.Median(xs)
	return m
}

// mean is the exact mean of xs; zero for none.
func mean(xs []num.Num) num.Num {
	m, _ := num.Mean(xs)
	return m
}

// Pearson returns the correlation of xs and ys in float64, and false when
// it is undefined.
func Pearson(xs, ys []num.Num) (float64, bool) {
	if len(ys) != len(xs) {
		return 0, false
	}
	return pearson(floats(xs), floats(ys))
}

// floats converts xs once, for statistics computed in float64.
func floats(xs []num.Num) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x.Float64()
	}
	return out
}

// pearson is Pearson's correlation of float64s, false when undefined.
func pearson(xs, ys []float64) (float64, bool) {
	n := len(xs)
	if n < 2 || len(ys) != n {
		return 0, false
	}
	var mx, my float64
	for i := range n {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(n)
	my /= float64(n)
	var sxy, sxx, syy float64
	for i := range n {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, false
	}
	return sxy / math.Sqrt(sxx*syy), true
}

// mostCommon is the label most of labels are, the earliest on a tie; ""
// for none.
func mostCommon(labels []string) string {
	best, bestN := "", 0
	for _, l := range labels {
		if l == "" {
			continue
		}
		n := 0
		for _, m := range labels {
			if m == l {
				n++
			}
		}
		if n > bestN {
			best, bestN = l, n
		}
	}
	return best
}

// indexed is one run's values by name, looked up many times.
type indexed struct {
	server map[string]Val
	tools  map[string]map[string]Val
}

// index indexes each run once.
func index(runs []Run) []indexed {
	out := make([]indexed, len(runs))
	for i, r := range runs {
		out[i] = indexed{server: byName(r.Server), tools: make(map[string]map[string]Val, len(r.Tools))}
		for _, t := range r.Tools {
			out[i].tools[t.Name] = byName(t.Values)
		}
	}
	return out
}

// series is one name's values across runs (of a tool, or of the whole set
// when tool is ""): numbers when every run has a number, labels otherwise.
func series(runs []indexed, tool, name string) (nums []num.Num, labels []string, ok bool) {
	ok = true
	for _, r := range runs {
		vals := r.server
		if tool != "" {
			vals = r.tools[tool]
		}
		v, has := vals[name]
		switch {
		case !has:
			ok = false
			labels = append(labels, "")
		case v.IsText:
			ok = false
			labels = append(labels, v.Text)
		default:
			nums = append(nums, v.Num)
			labels = append(labels, v.Num.String())
		}
	}
	return nums, labels, ok && len(nums) == len(runs)
}

func ptr(v Val) *Val { return &v }

func compute(rec *Record, opt Options) Stats {
	tol := opt.Tolerance
	if tol.Sign() == 0 {
		tol = DefaultTolerance
	}
	largest := opt.Largest
	if largest <= 0 {
		largest = 10
	}
	m := rec.Measures
	st := Stats{Measure: m.Tool, Tolerance: NumVal(tol), Set: []SetRow{}, Measures: []MeasureStats{}, Labels: []LabelStats{}, Largest: []Largest{}, Agreement: []Agreement{}}
	st.Bootstrap = Bootstrap{Resamples: opt.Resamples, Seed: opt.Seed, Level: "95% percentile interval (nearest rank)"}
	if st.Bootstrap.Resamples <= 0 {
		st.Bootstrap.Resamples = DefaultResamples
	}
	if st.Bootstrap.Seed == 0 {
		st.Bootstrap.Seed = DefaultSeed
	}
	runs := index(rec.Results)

	// The whole set.
	pubServer := byName(rec.Published.Server)
	for _, name := range m.Server {
		row := SetRow{Name: name}
		if v, ok := pubServer[name]; ok {
			row.Published = ptr(v)
		}
		for _, r := range runs {
			if v, ok := r.server[name]; ok {
				row.Runs = append(row.Runs, ptr(v))
			} else {
				row.Runs = append(row.Runs, nil)
			}
		}
		if nums, labels, ok := series(runs, "", name); ok {
			row.Median = ptr(NumVal(median(nums)))
		} else if l := mostCommon(labels); l != "" {
			row.Median = &Val{Text: l, IsText: true}
		}
		st.Set = append(st.Set, row)
	}

	// Each tool, and the numbers the measures need.
	pubTools := map[string]map[string]Val{}
	for _, t := range rec.Published.Tools {
		pubTools[t.Name] = byName(t.Values)
	}
	type pair struct{ pub, ours num.Num }
	perMeasure := map[string][]pair{}
	runsOf := map[string][][]num.Num{}
	var pubScores, ourScores []num.Num
	var diffs []num.Num
	labelAgree := map[string][2]int{}
	var ranges, deviations []num.Num
	for _, t := range rec.Published.Tools {
		nums, _, ok := series(runs, t.Name, m.Tool)
		if !ok {
			continue
		}
		pub := pubTools[t.Name]
		row := ToolRow{Name: t.Name, Median: NumVal(median(nums)), Dimensions: []ValueRow{}}
		for _, n := range nums {
			row.Runs = append(row.Runs, NumVal(n))
		}
		lo, hi := slices.MinFunc(nums, num.Num.Cmp), slices.MaxFunc(nums, num.Num.Cmp)
		row.Range = NumVal(hi.Sub(lo))
		avg := mean(nums)
		var devs []num.Num
		for _, n := range nums {
			devs = append(devs, n.Sub(avg).Abs())
		}
		row.MeanAbsDeviation = Mean{mean(devs)}
		runsOf[m.Tool] = append(runsOf[m.Tool], nums)
		ranges = append(ranges, hi.Sub(lo))
		deviations = append(deviations, row.MeanAbsDeviation.Num)
		if p, ok := pub[m.Tool]; ok && !p.IsText {
			d := row.Median.Num.Sub(p.Num)
			row.Published, row.Difference = ptr(p), ptr(NumVal(d))
			perMeasure[m.Tool] = append(perMeasure[m.Tool], pair{p.Num, row.Median.Num})
			pubScores, ourScores = append(pubScores, p.Num), append(ourScores, row.Median.Num)
			diffs = append(diffs, d)
		}
		for _, dim := range m.Dimensions {
			dn, _, ok := series(runs, t.Name, dim)
			if !ok {
				continue
			}
			runsOf[dim] = append(runsOf[dim], dn)
			vr := ValueRow{Name: dim, Median: NumVal(median(dn))}
			for _, n := range dn {
				vr.Runs = append(vr.Runs, NumVal(n))
			}
			if p, ok := pub[dim]; ok && !p.IsText {
				vr.Published, vr.Difference = ptr(p), ptr(NumVal(vr.Median.Num.Sub(p.Num)))
				perMeasure[dim] = append(perMeasure[dim], pair{p.Num, vr.Median.Num})
			}
			row.Dimensions = append(row.Dimensions, vr)
		}
		for _, l := range m.Labels {
			_, labels, _ := series(runs, t.Name, l)
			lr := LabelRow{Name: l, Runs: labels, Most: mostCommon(labels)}
			if p, ok := pub[l]; ok && p.IsText {
				lr.Published = ptr(p)
				c := labelAgree[l]
				c[0]++
				if lr.Most == p.Text {
					c[1]++
				}
				labelAgree[l] = c
			}
			row.Labels = append(row.Labels, lr)
		}
		st.Tools = append(st.Tools, row)
	}

	// Per measure.
	for _, name := range append([]string{m.Tool}, m.Dimensions...) {
		ps := perMeasure[name]
		ms := MeasureStats{Name: name, Tools: len(ps)}
		var absd, signed []num.Num
		for _, p := range ps {
			d := p.ours.Sub(p.pub)
			absd, signed = append(absd, d.Abs()), append(signed, d)
			switch d.Sign() {
			case 1:
				ms.Higher++
			case -1:
				ms.Lower++
			default:
				ms.Equal++
			}
		}
		ms.MeanAbs, ms.MeanSigned = Mean{mean(absd)}, Mean{mean(signed)}
		st.Measures = append(st.Measures, ms)
		var pubs, ours []num.Num
		for _, p := range ps {
			pubs, ours = append(pubs, p.pub), append(ours, p.ours)
		}
		var runUnits [][]num.Num
		if len(rec.Results) > 1 {
			runUnits = runsOf[name]
		}
		st.Agreement = append(st.Agreement, agree(name, ours, pubs, runUnits, st.Bootstrap))
	}
	for _, l := range m.Labels {
		c := labelAgree[l]
		st.Labels = append(st.Labels, LabelStats{Name: l, Tools: c[0], Equal: c[1]})
	}

	// Agreement of the tool's score.
	if r, ok := Pearson(pubScores, ourScores); ok {
		st.Pearson = &r
	}
	st.Offset = Mean{mean(diffs)}
	st.Compared = len(diffs)
	for _, d := range diffs {
		if d.Sub(st.Offset.Num).Abs().Cmp(tol) <= 0 {
			st.Within++
		}
	}

	// The largest differences.
	var order []int
	for i, row := range st.Tools {
		if row.Difference != nil && row.Difference.Num.Sign() != 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		da, db := st.Tools[order[a]].Difference.Num.Abs(), st.Tools[order[b]].Difference.Num.Abs()
		if c := da.Cmp(db); c != 0 {
			return c > 0
		}
		return st.Tools[order[a]].Name < st.Tools[order[b]].Name
	})
	for _, i := range order[:min(largest, len(order))] {
		row := st.Tools[i]
		l := Largest{Tool: row.Name, Published: *row.Published, Median: row.Median, Difference: *row.Difference, Dimensions: []Named{}}
		for _, d := range row.Dimensions {
			if d.Difference != nil && d.Difference.Num.Sign() != 0 {
				l.Dimensions = append(l.Dimensions, Named{Name: d.Name, Value: *d.Difference})
			}
		}
		st.Largest = append(st.Largest, l)
	}

	// The lowest tool score.
	st.Lowest = lowest(rec, m.Tool)

	// Run-to-run variation.
	if len(ranges) > 0 {
		maxRange := slices.MaxFunc(ranges, num.Num.Cmp)
		st.Variation = Variation{MeanRange: Mean{mean(ranges)}, MaxRange: NumVal(maxRange), MaxRangeTools: []string{}, MeanDeviation: Mean{mean(deviations)}}
		for _, row := range st.Tools {
			if row.Range.Num.Cmp(maxRange) == 0 {
				st.Variation.MaxRangeTools = append(st.Variation.MaxRangeTools, row.Name)
			}
		}
	}
	return st
}

// lowest finds the lowest tool score published and in each run.
func lowest(rec *Record, name string) *Lowest {
	low := func(tools []PublishedTool) (Val, []string, bool) {
		var best num.Num
		var who []string
		found := false
		for _, t := range tools {
			v, ok := byName(t.Values)[name]
			if !ok || v.IsText {
				continue
			}
			switch c := v.Num.Cmp(best); {
			case !found || c < 0:
				best, who, found = v.Num, []string{t.Name}, true
			case c == 0:
				who = append(who, t.Name)
			}
		}
		return NumVal(best), who, found
	}
	pv, pt, ok := low(rec.Published.Tools)
	if !ok {
		return nil
	}
	l := &Lowest{Published: pv, PublishedTools: pt}
	var lows []num.Num
	for _, r := range rec.Results {
		v, who, ok := low(r.Tools)
		if !ok {
			return nil
		}
		l.Runs, l.RunTools = append(l.Runs, v), append(l.RunTools, who)
		lows = append(lows, v.Num)
	}
	l.Median = NumVal(median(lows))
	return l
}
