package heuristic_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/internal/splitmix"
	"github.com/rubricmcp/rubric/judges/heuristic"
)

// agreementGolden is the agreement table a person reviews: per dimension
// and per tool, on the part of the development set the cues were tuned
// on and on the part held out of tuning.
var agreementGolden = filepath.Join("testdata", "agreement.golden")

// pair is one published score set against the heuristic's.
type pair struct{ pub, heur []float64 }

func (p *pair) add(pub, heur float64) {
	p.pub = append(p.pub, pub)
	p.heur = append(p.heur, heur)
}

func (p pair) mad() float64 {
	s := 0.0
	for i := range p.pub {
		s += math.Abs(p.pub[i] - p.heur[i])
	}
	return s / float64(max(len(p.pub), 1))
}

func nums(v []float64) []num.Num {
	out := make([]num.Num, len(v))
	for i, f := range v {
		out[i] = num.Frac(int64(math.Round(f*100)), 100)
	}
	return out
}

// cell prints a statistic, or "-" where it is undefined (a constant side).
func cell(f float64, ok bool) string {
	if !ok || math.IsNaN(f) {
		return "    -"
	}
	return fmt.Sprintf("%5.2f", f)
}

func (p pair) pearson() (float64, bool) { return calibrate.Pearson(nums(p.pub), nums(p.heur)) }

func (p pair) kappa() (float64, bool) {
	k, ok := calibrate.QuadraticKappa(nums(p.pub), nums(p.heur))
	return k.Float64(), ok
}

// table is the agreement of the heuristic with one part of the set.
type table struct {
	name  string
	dims  map[string]*pair
	tools pair // per tool: published TDQS, or the mean of the published dimensions, against the heuristic's on the same footing
	rows  []string
}

// tabulate asks the judge about every record. Where a record shows the
// composite, the heuristic's composite is set against it; where it shows
// only some dimensions, the mean of those dimensions on each side, so
// that a truncated capture is compared like for like.
func tabulate(t *testing.T, name string, recs []record) table {
	tb := table{name: name, dims: map[string]*pair{}}
	for _, d := range toolDims {
		tb.dims[d.key] = &pair{}
	}
	for _, r := range recs {
		_, a := ask(t, heuristic.KindTool, r.input)
		var pubSum, heurSum, n int
		var pub, heur []string
		for _, d := range toolDims {
			h := a.score(d.key)
			heur = append(heur, fmt.Sprint(h))
			p := r.published[d.key]
			if p == nil {
				pub = append(pub, "-")
				continue
			}
			pub = append(pub, fmt.Sprint(*p))
			tb.dims[d.key].add(float64(*p), float64(h))
			pubSum += *p
			heurSum += h
			n++
		}
		var pubT, heurT float64
		switch {
		case r.tdqs != nil:
			pubT, heurT = *r.tdqs, float64(tdqsTenths(a))/10
		case n > 0:
			pubT, heurT = float64(pubSum)/float64(n), float64(heurSum)/float64(n)
		default:
			continue
		}
		tb.tools.add(pubT, heurT)
		tb.rows = append(tb.rows, fmt.Sprintf("%-52s  %-11s  %-11s  %4.2f  %4.2f", quoteLabel(r.label), strings.Join(pub, " "), strings.Join(heur, " "), pubT, heurT))
	}
	return tb
}

// parts are the tuning and held-out parts of the development set. Each
// file's part was fixed before the version that added it was tuned:
// tuning is the Glama observations and the specification's examples the
// cues were first designed against, glama_tdqs_heldout.json (which
// earlier fixes were made against) and glama_tdqs_tuning_1_3.json; held
// out is glama_tdqs_extra.json (transcribed for 1.2.0) and
// glama_tdqs_heldout_1_3.json (transcribed for 1.3.0, split from the
// tuning file by server, see calibration/dev/README.md and
// TestSplitRule), never tuned on.
func parts(t *testing.T) (tuning, heldOut []record) {
	glama, _ := observedRecords(t, "glama_tdqs_observed.json", "glama")
	earlier, _ := observedRecords(t, "glama_tdqs_heldout.json", "glama")
	later, _ := observedRecords(t, "glama_tdqs_tuning_1_3.json", "glama")
	tuning = append(append(append(glama, specRecords(t)...), earlier...), later...)
	extra, _ := observedRecords(t, "glama_tdqs_extra.json", "held-out")
	more, _ := observedRecords(t, "glama_tdqs_heldout_1_3.json", "held-out")
	heldOut = append(extra, more...)
	return tuning, heldOut
}

// freshSet is the set of the fresh held-out part's records.
const freshSet = "fresh"

// parts15 are the records added for 1.5: tuning additions, and the fresh
// held-out part, whose servers are in no earlier file and which nothing
// has been tuned on. parts keeps the 1.3.0 parts as they were, so that
// their rows of the agreement table stay comparable across versions.
func parts15(t testing.TB) (tuningAdded, fresh []record) {
	tuningAdded, _ = observedRecords(t, tuningFile15, "glama")
	fresh, _ = observedRecords(t, freshFile15, freshSet)
	return tuningAdded, fresh
}

// laterPart is a part added since 1.6, each transcribed while a
// candidate was fitted without it and read once by 1.5.0 (and the
// candidate, where one was frozen): its tuning side's additions, its
// fresh side, and the floor the fresh side is held to, a little below
// what 1.5.0 measured when it was read (per-tool Pearson, and the worst
// dimension MAD with five scores or more, see misses).
type laterPart struct {
	version       string // "1.6": the heading's version
	tuning, fresh string // the two files under calibration/dev
	floor         floor
}

// laterParts are the parts added since 1.6, in the agreement table's
// order; calibration/dev/README.md says what each was read by.
var laterParts = []laterPart{
	// read by 1.4.0 and the second 1.5.0 candidate, adopted on it;
	// 1.5.0: 0.72, 0.59.
	{"1.6", tuningFile16, freshFile16, floor{toolPearson: 0.70, dimMAD: 0.62}},
	// read by 1.5.0 and a 1.6.0 candidate; 1.5.0: 0.70, 0.78.
	{"1.7", tuningFile17, freshFile17, floor{toolPearson: 0.68, dimMAD: 0.80}},
	// read by 1.5.0 and a second 1.6.0 candidate; 1.5.0: 0.73, 0.51.
	{"1.8", tuningFile18, freshFile18, floor{toolPearson: 0.71, dimMAD: 0.54}},
	// read by 1.5.0 and a third 1.6.0 candidate; 1.5.0: 0.74, 0.56.
	{"1.9", tuningFile19, freshFile19, floor{toolPearson: 0.72, dimMAD: 0.59}},
	// read by 1.5.0 and the fifth 1.6.0 candidate; 1.5.0: 0.67, 0.64.
	{"1.10", tuningFile110, freshFile110, floor{toolPearson: 0.65, dimMAD: 0.67}},
	// read by 1.5.0 and the fifth candidate's completeness rule alone;
	// 1.5.0: 0.70, 0.56.
	{"1.11", tuningFile111, freshFile111, floor{toolPearson: 0.68, dimMAD: 0.59}},
	// read by 1.5.9 before any cue was chosen after it was transcribed;
	// 1.5.9: 0.79, 0.52.
	{"1.12", tuningFile112, freshFile112, floor{toolPearson: 0.77, dimMAD: 0.55}},
}

// tables reads the part's two sides and tabulates them.
func (p laterPart) tables(t *testing.T) (tuningAdded, fresh table) {
	added, _ := observedRecords(t, p.tuning, "glama")
	held, _ := observedRecords(t, p.fresh, freshSet)
	return tabulate(t, "tuning part, "+p.version+" additions", added), tabulate(t, "fresh held-out part, "+p.version, held)
}

func (tb table) write(b *strings.Builder) {
	tb.writeStats(b)
	fmt.Fprintf(b, "%-52s  %-11s  %-11s  %4s  %4s\n", "tool", "published", "heuristic", "pub", "heur")
	for _, row := range tb.rows {
		b.WriteString(row + "\n")
	}
	b.WriteString("\n")
}

// writeStats writes the part's heading and its figures per dimension and
// per tool, without a row per tool: for a part whose tools are listed
// under other parts.
func (tb table) writeStats(b *strings.Builder) {
	fmt.Fprintf(b, "## %s (%d tools)\n\n", tb.name, len(tb.rows))
	fmt.Fprintf(b, "%-24s  %3s  %5s  %7s  %5s\n", "dimension", "n", "MAD", "Pearson", "kappa")
	for _, d := range toolDims {
		p := tb.dims[d.key]
		r, rok := p.pearson()
		k, kok := p.kappa()
		fmt.Fprintf(b, "%-24s  %3d  %5.2f  %7s  %5s\n", d.key, len(p.pub), p.mad(), cell(r, rok), cell(k, kok))
	}
	r, rok := tb.tools.pearson()
	fmt.Fprintf(b, "%-24s  %3d  %5.2f  %7s\n\n", "per tool", len(tb.tools.pub), tb.tools.mad(), cell(r, rok))
}

// rescoredSet is the set of glama_tdqs_rescored.json's records: the
// registry scoring one definition more than once, read only here, never
// by parts, so that nothing is tuned or held out on it.
const rescoredSet = "rescored"

// rescoredRecords is glama_tdqs_rescored.json.
func rescoredRecords(t testing.TB) []record {
	recs, skipped := observedRecords(t, "glama_tdqs_rescored.json", rescoredSet)
	if len(skipped) > 0 {
		t.Fatalf("glama_tdqs_rescored.json: records without a definition: %v", skipped)
	}
	return recs
}

// Where a pair of registry scorings of one definition comes from.
const (
	fromEarlierCaptures  = "captures of one page, earlier files"
	fromRescoredCaptures = "captures of one page, glama_tdqs_rescored.json"
	fromServers          = "one definition on different servers, glama_tdqs_rescored.json"
)

// selfSources are the sources the table reports separately, in order.
var selfSources = []string{fromEarlierCaptures, fromRescoredCaptures, fromServers}

// selfPair is two scorings of one definition by the registry: each
// dimension both show, and per tool the composite when both show it,
// else the mean of the dimensions both show.
type selfPair struct {
	source string
	dims   map[string][2]float64
	tool   [2]float64
}

// selfGroup is every pair of one definition: the captures of one page,
// or one definition's pages on different servers. Its pairs share
// scorings, so they are not independent of each other; the bootstrap
// draws groups, never pairs.
type selfGroup struct {
	key   string
	pairs []selfPair
}

// registrySelf is how far the registry agrees with itself: the same
// definition scored more than once. spread, when set, is the variance of
// the published per-tool scores of the part a judge is measured on (the
// held-out part), for the reliability the registry's noise leaves on
// that part.
type registrySelf struct {
	groups []selfGroup
	spread float64
}

// selfAgreement sets each scoring of a definition against every other
// scoring of it whose definition, as the judge reads it, is the same:
// the captures of one page (records with a capture), and the records of
// one group of glama_tdqs_rescored.json. What is left between them is the
// registry's own variance, which no judge can agree with more than the
// registry agrees with itself.
func selfAgreement(recs []record) registrySelf {
	byKey := map[string][]record{}
	var order []string
	for _, r := range recs {
		key := r.set + " " + r.group
		if r.group == "" {
			before, _, captured := strings.Cut(r.label, " [")
			if !captured {
				continue
			}
			_, source, _ := strings.Cut(r.label, "] (")
			key = r.set + " " + before + " (" + source
		}
		if byKey[key] == nil {
			order = append(order, key)
		}
		byKey[key] = append(byKey[key], r)
	}
	var rs registrySelf
	for _, key := range order {
		g := selfGroup{key: key}
		members := byKey[key]
		for i := range members {
			for j := i + 1; j < len(members); j++ {
				if sp, ok := pairOf(members[i], members[j]); ok {
					g.pairs = append(g.pairs, sp)
				}
			}
		}
		if len(g.pairs) > 0 {
			rs.groups = append(rs.groups, g)
		}
	}
	return rs
}

// sameDefinition says whether the judge is asked the same question of a
// and b.
func sameDefinition(a, b record) bool {
	ja, _ := json.Marshal(a.input)
	jb, _ := json.Marshal(b.input)
	return string(ja) == string(jb)
}

// pairOf is a against b, false when their definitions differ or they
// share no score.
func pairOf(a, b record) (selfPair, bool) {
	if !sameDefinition(a, b) {
		return selfPair{}, false
	}
	sp := selfPair{source: pairSource(a, b), dims: map[string][2]float64{}}
	var sa, sb, n int
	for _, d := range toolDims {
		pa, pb := a.published[d.key], b.published[d.key]
		if pa == nil || pb == nil {
			continue
		}
		sp.dims[d.key] = [2]float64{float64(*pa), float64(*pb)}
		sa, sb, n = sa+*pa, sb+*pb, n+1
	}
	switch {
	case a.tdqs != nil && b.tdqs != nil:
		sp.tool = [2]float64{*a.tdqs, *b.tdqs}
	case n > 0:
		sp.tool = [2]float64{float64(sa) / float64(n), float64(sb) / float64(n)}
	default:
		return selfPair{}, false
	}
	return sp, true
}

// pairSource is where the pair a, b comes from.
func pairSource(a, b record) string {
	switch {
	case a.set != rescoredSet:
		return fromEarlierCaptures
	case pageOf(a) == pageOf(b):
		return fromRescoredCaptures
	default:
		return fromServers
	}
}

// pageOf is a record's tool page: its label without the capture.
func pageOf(r record) string {
	name, _, _ := strings.Cut(r.label, " ")
	return name + " " + r.label[strings.LastIndex(r.label, "("):]
}

// only is the pairs from one source, in the groups left with any.
func (rs registrySelf) only(source string) registrySelf {
	out := registrySelf{spread: rs.spread}
	for _, g := range rs.groups {
		kept := selfGroup{key: g.key}
		for _, sp := range g.pairs {
			if sp.source == source {
				kept.pairs = append(kept.pairs, sp)
			}
		}
		if len(kept.pairs) > 0 {
			out.groups = append(out.groups, kept)
		}
	}
	return out
}

// pooled is every pair of a set of groups, per dimension and per tool.
type pooled struct {
	dims   map[string]*pair
	tools  pair
	spread float64
}

func (rs registrySelf) pool() pooled {
	p := pooled{dims: map[string]*pair{}, spread: rs.spread}
	for _, d := range toolDims {
		p.dims[d.key] = &pair{}
	}
	for _, g := range rs.groups {
		for _, sp := range g.pairs {
			for k, v := range sp.dims {
				p.dims[k].add(v[0], v[1])
			}
			p.tools.add(sp.tool[0], sp.tool[1])
		}
	}
	return p
}

// symmetricPearson is Pearson's correlation with every pair entered both
// ways, so that it does not hang on which scoring of a pair is listed
// first: the registry against itself has no first side.
func (p pair) symmetricPearson() (float64, bool) {
	return pair{pub: slices.Concat(p.pub, p.heur), heur: slices.Concat(p.heur, p.pub)}.pearson()
}

// Keys of the statistics a set of pairs is reported by.
const (
	statToolMAD     = "per tool/MAD"
	statToolPearson = "per tool/Pearson"
	statBound       = "bound"
	// statErrorVar is the variance of one scoring's noise per tool, half
	// the mean squared difference of two scorings.
	statErrorVar = "error variance"
	// statSpreadBound is the bound on a part of the given spread: the
	// square root of 1 - error variance / spread.
	statSpreadBound = "bound at spread"
)

func statMAD(dim string) string     { return dim + "/MAD" }
func statPearson(dim string) string { return dim + "/Pearson" }

// stats are the statistics of the pooled pairs, NaN where undefined (no
// pair, or one side constant). The bound is the square root of the
// per-tool Pearson, 0 where that is negative: by the classical
// attenuation formula, the most a judge that gave the registry's expected
// score could correlate with one scoring.
func (p pooled) stats() map[string]float64 {
	out := map[string]float64{}
	mad := func(q pair) float64 {
		if len(q.pub) == 0 {
			return math.NaN()
		}
		return q.mad()
	}
	r := func(q pair) float64 {
		v, ok := q.symmetricPearson()
		if !ok {
			return math.NaN()
		}
		return v
	}
	for _, d := range toolDims {
		out[statMAD(d.key)] = mad(*p.dims[d.key])
		out[statPearson(d.key)] = r(*p.dims[d.key])
	}
	out[statToolMAD] = mad(p.tools)
	out[statToolPearson] = r(p.tools)
	out[statBound] = math.Sqrt(max(out[statToolPearson], 0)) // NaN stays NaN
	out[statErrorVar], out[statSpreadBound] = math.NaN(), math.NaN()
	if n := len(p.tools.pub); n > 0 {
		var ss float64
		for i := range n {
			d := p.tools.pub[i] - p.tools.heur[i]
			ss += d * d
		}
		out[statErrorVar] = ss / float64(n) / 2
		if p.spread > 0 {
			out[statSpreadBound] = math.Sqrt(max(1-out[statErrorVar]/p.spread, 0))
		}
	}
	return out
}

// The bootstrap's draws: fixed, so that the golden is stable.
const (
	selfResamples = 2000
	selfSeed      = 19
)

// interval is a 95% bootstrap percentile interval.
type interval struct{ low, high float64 }

// bootstrap draws resamples of rs's groups with replacement (as many as
// rs has, each time) and returns each statistic's 95% percentile
// interval over the resamples on which it is defined; a statistic never
// defined has none.
func (rs registrySelf) bootstrap(resamples int, seed uint64) map[string]interval {
	n := len(rs.groups)
	if n == 0 {
		return nil
	}
	rng := splitmix.New(seed)
	draws := map[string][]float64{}
	draw := registrySelf{groups: make([]selfGroup, n), spread: rs.spread}
	for range resamples {
		for i := range n {
			draw.groups[i] = rs.groups[rng.IntN(n)]
		}
		for k, v := range draw.pool().stats() {
			if !math.IsNaN(v) {
				draws[k] = append(draws[k], v)
			}
		}
	}
	out := map[string]interval{}
	for k, v := range draws {
		out[k] = percentile95(v)
	}
	return out
}

// percentile95 is the 2.5th and 97.5th percentiles of vals by the
// nearest-rank rule (the ceil(p·m)-th smallest of m values).
func percentile95(vals []float64) interval {
	s := slices.Clone(vals)
	slices.Sort(s)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return s[max(0, min(len(s)-1, i))]
	}
	return interval{low: rank(0.025), high: rank(0.975)}
}

// variance is the population variance of v.
func variance(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	var m, ss float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	return ss / float64(len(v))
}

// pairCount is how many pairs rs holds.
func (rs registrySelf) pairCount() int {
	n := 0
	for _, g := range rs.groups {
		n += len(g.pairs)
	}
	return n
}

// withCI prints a statistic right-aligned in width and its interval,
// or "-" where the statistic is undefined.
func withCI(v float64, ci interval, has bool, width int) string {
	val, span := "-", ""
	if !math.IsNaN(v) {
		val = fmt.Sprintf("%.2f", v)
		if has {
			span = fmt.Sprintf("[%.2f, %.2f]", ci.low, ci.high)
		}
	}
	return fmt.Sprintf("%*s  %-12s", width, val, span)
}

func (rs registrySelf) write(b *strings.Builder, name string) {
	p := rs.pool()
	st := p.stats()
	ci := rs.bootstrap(selfResamples, selfSeed)
	fmt.Fprintf(b, "### %s (%d groups, %d pairs)\n\n", name, len(rs.groups), rs.pairCount())
	fmt.Fprintf(b, "%-24s  %3s  %5s  %-12s  %7s  %s\n", "dimension", "n", "MAD", "95% CI", "Pearson", "95% CI")
	row := func(label string, n int, madKey, rKey string) {
		m, mok := ci[madKey]
		r, rok := ci[rKey]
		line := fmt.Sprintf("%-24s  %3d  %s  %s", label, n, withCI(st[madKey], m, mok, 5), withCI(st[rKey], r, rok, 7))
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	for _, d := range toolDims {
		row(d.key, len(p.dims[d.key].pub), statMAD(d.key), statPearson(d.key))
	}
	row("per tool", len(p.tools.pub), statToolMAD, statToolPearson)
	bound, bci := st[statBound], ci[statBound]
	switch {
	case math.IsNaN(bound):
		b.WriteString("\nattenuation bound √(per-tool Pearson): -\n")
	default:
		where := "inside"
		switch {
		case target.toolPearson > bci.high:
			where = "above"
		case target.toolPearson < bci.low:
			where = "below"
		}
		fmt.Fprintf(b, "\nattenuation bound √(per-tool Pearson): %.2f [%.2f, %.2f]; the issue's target %.2f lies %s that interval\n", bound, bci.low, bci.high, target.toolPearson, where)
	}
	if sb, ok := ci[statSpreadBound]; ok && !math.IsNaN(st[statSpreadBound]) {
		ev := ci[statErrorVar]
		fmt.Fprintf(b, "on the held-out part's spread (per-tool variance %.2f): error variance of one scoring %.3f [%.3f, %.3f], bound √(1 - error/spread) %.2f [%.2f, %.2f]\n",
			rs.spread, st[statErrorVar], ev.low, ev.high, st[statSpreadBound], sb.low, sb.high)
	}
	b.WriteString("\n")
}

// writeSelf writes the registry's agreement with itself: over every pair,
// then each source alone.
func writeSelf(b *strings.Builder, rs registrySelf, heldOut table) {
	rs.spread = variance(heldOut.tools.pub)
	b.WriteString("## the registry against itself\n\n")
	b.WriteString("Every pair of registry scorings of one definition (as the judge reads it): captures of one page, and the records of one group of glama_tdqs_rescored.json.\n")
	fmt.Fprintf(b, "Pearson enters each pair both ways. Intervals: 95%% bootstrap percentile, %d resamples of the groups (seed %d), never of single pairs, since the pairs of one group share scorings.\n", selfResamples, selfSeed)
	b.WriteString("The attenuation bound √r is the most a judge that gave the registry's expected score could correlate with one scoring, on definitions as spread as these pairs'. A correlation hangs on that spread, so the last line states the same noise on the held-out part's: √(1 - error variance / the part's per-tool variance).\n\n")
	rs.write(b, "all pairs")
	for _, s := range selfSources {
		rs.only(s).write(b, s)
	}
}

// floor is the least agreement a part must keep, a little below what
// version 1.4.0 measured (tuning: per-tool Pearson 0.861, the worst
// dimension MAD 0.53; held out: 0.606 and 0.70; the 1.5 parts below), so
// that a change to the cues that agrees less fails even if its golden is
// rewritten. The targets for the held-out parts (per-tool Pearson
// 0.85, every
// dimension MAD at most 0.45) are not met; the test logs how far off
// they are.
type floor struct {
	toolPearson float64 // least per-tool Pearson
	dimMAD      float64 // ceiling on each dimension's MAD with enough scores
}

var (
	tuningFloor  = floor{toolPearson: 0.84, dimMAD: 0.55}
	heldOutFloor = floor{toolPearson: 0.58, dimMAD: 0.72}
	// The 1.5 parts' floors, a little below what 1.4.0 measured on them
	// when they were first tabulated (enlarged tuning part: per-tool
	// Pearson 0.85, the worst dimension MAD 0.49; fresh held-out part:
	// 0.66 and 0.73).
	enlargedTuningFloor = floor{toolPearson: 0.83, dimMAD: 0.51}
	freshFloor          = floor{toolPearson: 0.64, dimMAD: 0.75}
	target              = floor{toolPearson: 0.85, dimMAD: 0.45}
)

// minScoresPerDim is the fewest published scores a dimension needs before
// its MAD is held to a floor.
const minScoresPerDim = 5

// misses lists where tb falls short of f.
func (f floor) misses(tb table) []string {
	var out []string
	if r, ok := tb.tools.pearson(); !ok || r < f.toolPearson {
		out = append(out, fmt.Sprintf("%s: per-tool Pearson %.3f, below %.2f", tb.name, r, f.toolPearson))
	}
	for _, d := range toolDims {
		if p := tb.dims[d.key]; len(p.pub) >= minScoresPerDim && p.mad() > f.dimMAD {
			out = append(out, fmt.Sprintf("%s: %s mean absolute difference %.2f, above %.2f", tb.name, d.key, p.mad(), f.dimMAD))
		}
	}
	return out
}

// TestAgreementTable writes the agreement table to
// testdata/agreement.golden and fails when it changes (rewrite it with
// -update after reading the difference) or when the held-out part misses
// the targets.
func TestAgreementTable(t *testing.T) {
	heavytest.Later(t)
	tuning, heldOut := parts(t)
	added, fresh := parts15(t)
	tabs := []table{tabulate(t, "tuning part", tuning), tabulate(t, "held-out part", heldOut)}
	addedTab := tabulate(t, "tuning part, 1.5 additions", added)
	enlarged := tabulate(t, "enlarged tuning part: the tuning part and its 1.5 additions", slices.Concat(tuning, added))
	freshTab := tabulate(t, "fresh held-out part, 1.5", fresh)
	later := make([][2]table, len(laterParts))
	for i, p := range laterParts {
		later[i][0], later[i][1] = p.tables(t)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# heuristic %s against published TDQS scores\n\n", heuristic.Version)
	b.WriteString("Dimension columns in order: purpose, usage, behaviour, parameters, conciseness, completeness; - is not published.\n")
	b.WriteString("Per tool: the published composite where shown, else the mean of the published dimensions, each against the heuristic's on the same footing.\n\n")
	for _, tb := range tabs {
		tb.write(&b)
	}
	addedTab.write(&b)
	enlarged.writeStats(&b)
	freshTab.write(&b)
	for _, tabs := range later {
		tabs[0].write(&b)
		tabs[1].write(&b)
	}
	writeSelf(&b, selfAgreement(slices.Concat(tuning, heldOut, rescoredRecords(t))), tabs[1])
	got := b.String()
	if *update {
		if err := os.WriteFile(agreementGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(agreementGolden)
	if err != nil {
		t.Fatalf("%v (run go test ./judges/heuristic -run TestAgreementTable -update to write it)", err)
	}
	if string(want) != got {
		t.Errorf("the agreement table moved; read the difference and rewrite %s with -update if it is right:\n%s", agreementGolden, got)
	}
	type check struct {
		f  floor
		tb table
	}
	checks := []check{{tuningFloor, tabs[0]}, {heldOutFloor, tabs[1]}, {enlargedTuningFloor, enlarged}, {freshFloor, freshTab}}
	held := []table{tabs[1], freshTab}
	for i, p := range laterParts {
		checks = append(checks, check{p.floor, later[i][1]})
		held = append(held, later[i][1])
	}
	for _, c := range checks {
		for _, m := range c.f.misses(c.tb) {
			t.Error(m)
		}
	}
	for _, tb := range held {
		for _, m := range target.misses(tb) {
			t.Logf("target not met: %s", m)
		}
	}
}

// TestSelfAgreement checks the registry's agreement with itself on cases
// worked by hand: only scorings of one definition are paired (captures of
// one page, or one group of the rescored file), dimension by dimension
// where both show one, each pair from its source; and the bootstrap
// interval, which draws groups, on cases whose every resample is known.
func TestSelfAgreement(t *testing.T) {
	score := func(v int) *int { return &v }
	in := func(desc string) map[string]any {
		return map[string]any{"tool": map[string]any{"name": "t", "description": desc}}
	}
	recs := []record{
		{set: "glama", label: "t [A] (o/x)", input: in("Reads."), published: map[string]*int{"behavioral_transparency": score(3), "conciseness_structure": score(5)}},
		{set: "glama", label: "t [B] (o/x)", input: in("Reads."), published: map[string]*int{"behavioral_transparency": score(4), "conciseness_structure": score(5), "contextual_completeness": score(2)}},
		// Another definition on the same page: not the same tool any more.
		{set: "glama", label: "t [C] (o/x)", input: in("Reads." + " Writes."), published: map[string]*int{"behavioral_transparency": score(1)}},
		// Another page, and a page captured once.
		{set: "glama", label: "t [A] (o/y)", input: in("Reads."), published: map[string]*int{"behavioral_transparency": score(5)}},
		{set: "glama", label: "u (o/x)", input: in("Reads."), published: map[string]*int{"behavioral_transparency": score(1)}},
		// One definition of the rescored file on two servers, one of them
		// captured twice: three pairs, two across servers, one of captures.
		{set: rescoredSet, group: "g", label: "t (p/a)", input: in("Lists."), published: map[string]*int{"behavioral_transparency": score(2)}},
		{set: rescoredSet, group: "g", label: "t [A] (p/b)", input: in("Lists."), published: map[string]*int{"behavioral_transparency": score(3)}},
		{set: rescoredSet, group: "g", label: "t [B] (p/b)", input: in("Lists."), published: map[string]*int{"behavioral_transparency": score(3)}},
	}
	rs := selfAgreement(recs)
	if len(rs.groups) != 2 {
		t.Fatalf("groups = %d, want 2 (o/x's A and B; rescored group g)", len(rs.groups))
	}
	early := rs.only(fromEarlierCaptures).pool()
	bt := early.dims["behavioral_transparency"]
	if len(bt.pub) != 1 || bt.mad() != 1 {
		t.Errorf("transparency pairs %v against %v, MAD %.2f; want one pair, 3 against 4, MAD 1", bt.pub, bt.heur, bt.mad())
	}
	if cs := early.dims["conciseness_structure"]; len(cs.pub) != 1 || cs.mad() != 0 {
		t.Errorf("conciseness pairs %v against %v; want 5 against 5", cs.pub, cs.heur)
	}
	if cc := early.dims["contextual_completeness"]; len(cc.pub) != 0 {
		t.Errorf("completeness paired %v although only capture B shows it", cc.pub)
	}
	if len(early.tools.pub) != 1 || early.tools.pub[0] != 4 || early.tools.heur[0] != 4.5 {
		t.Errorf("per tool %v against %v; want the means of the shared dimensions, 4 against 4.5", early.tools.pub, early.tools.heur)
	}
	if n := rs.only(fromServers).pairCount(); n != 2 {
		t.Errorf("pairs across servers = %d, want 2 (p/a against each capture of p/b)", n)
	}
	if n := rs.only(fromRescoredCaptures).pairCount(); n != 1 {
		t.Errorf("pairs of rescored captures = %d, want 1 (p/b's A and B)", n)
	}
	// Pearson enters each pair both ways: 1,2 against 2,1 and back is
	// x = 1,2,2,1 against y = 2,1,1,2, a correlation of -1 whichever way
	// the pairs were listed.
	if r, ok := (pair{pub: []float64{1, 2}, heur: []float64{2, 1}}).symmetricPearson(); !ok || math.Abs(r+1) > 1e-9 {
		t.Errorf("symmetric Pearson of (1,2),(2,1) = %v, %v; want -1", r, ok)
	}
	if r, ok := (pair{pub: []float64{1, 3}, heur: []float64{2, 4}}).symmetricPearson(); !ok || math.Abs(r-0.6) > 1e-9 {
		// x = 1,3,2,4 against y = 2,4,1,3: means 2.5, covariance
		// (-1.5·-0.5 + 0.5·1.5 + -0.5·-1.5 + 1.5·0.5) = 3, variances 5.
		t.Errorf("symmetric Pearson of (1,2),(3,4) = %v, %v; want 3/5", r, ok)
	}

	// One group: every resample is that group, so each interval is the
	// point itself.
	one := registrySelf{groups: []selfGroup{{key: "a", pairs: []selfPair{
		{tool: [2]float64{2, 3}}, {tool: [2]float64{4, 4}}, {tool: [2]float64{5, 4}},
	}}}}
	st := one.pool().stats()
	for key, ci := range one.bootstrap(200, 1) {
		if ci.low != st[key] || ci.high != st[key] {
			t.Errorf("one group: %s interval [%v, %v], want the point %v", key, ci.low, ci.high, st[key])
		}
	}
	// Error variance: differences 1, 0 and 1, so (1+0+1)/3/2 = 1/3 per
	// scoring; on a part of per-tool variance 1 the bound is √(2/3).
	one.spread = 1
	if st := one.pool().stats(); math.Abs(st[statErrorVar]-1.0/3) > 1e-9 || math.Abs(st[statSpreadBound]-math.Sqrt(2.0/3)) > 1e-9 {
		t.Errorf("error variance %v, bound at spread 1 %v; want 1/3 and √(2/3)", st[statErrorVar], st[statSpreadBound])
	}
	if v := variance([]float64{1, 2, 3, 4}); v != 1.25 {
		t.Errorf("variance of 1..4 = %v, want 1.25", v)
	}
	// Groups that always agree: a MAD interval of zero width at 0.
	agreeing := registrySelf{groups: []selfGroup{
		{key: "a", pairs: []selfPair{{tool: [2]float64{2, 2}}}},
		{key: "b", pairs: []selfPair{{tool: [2]float64{4, 4}}}},
		{key: "c", pairs: []selfPair{{tool: [2]float64{5, 5}}}},
	}}
	if ci := agreeing.bootstrap(200, 1)[statToolMAD]; ci.low != 0 || ci.high != 0 {
		t.Errorf("agreeing groups: MAD interval [%v, %v], want [0, 0]", ci.low, ci.high)
	}
	// Two groups of one pair, differing by 0 and by 1: a resample draws
	// both first (MAD 0, a quarter of the time), both second (MAD 1, a
	// quarter) or one of each (MAD 0.5, half), so the 2.5th and 97.5th
	// percentiles are 0 and 1, around the point 0.5.
	two := registrySelf{groups: []selfGroup{
		{key: "a", pairs: []selfPair{{tool: [2]float64{3, 3}}}},
		{key: "b", pairs: []selfPair{{tool: [2]float64{3, 4}}}},
	}}
	if got, ci := two.pool().stats()[statToolMAD], two.bootstrap(selfResamples, selfSeed)[statToolMAD]; got != 0.5 || ci.low != 0 || ci.high != 1 {
		t.Errorf("two groups: MAD %v in [%v, %v], want 0.5 in [0, 1]", got, ci.low, ci.high)
	}
	// The bound is the square root of the per-tool Pearson, and 0 where
	// that is negative.
	if b := (pooled{dims: one.pool().dims, tools: pair{pub: []float64{1, 2}, heur: []float64{2, 1}}}).stats()[statBound]; b != 0 {
		t.Errorf("bound for a Pearson of -1 = %v, want 0", b)
	}
	if b := (pooled{dims: one.pool().dims, tools: pair{pub: []float64{1, 3}, heur: []float64{2, 4}}}).stats()[statBound]; math.Abs(b-math.Sqrt(0.6)) > 1e-9 {
		t.Errorf("bound for a Pearson of 0.6 = %v, want √0.6", b)
	}
}

// TestRescoredGroups checks glama_tdqs_rescored.json: every record names
// its group, every group has at least two records, and the records of a
// group are one definition as the judge reads it, so that every pair the
// table counts is the registry scoring the same thing twice.
func TestRescoredGroups(t *testing.T) {
	byGroup := map[string][]record{}
	for _, r := range rescoredRecords(t) {
		if r.group == "" {
			t.Errorf("%s: no group", r.label)
			continue
		}
		byGroup[r.group] = append(byGroup[r.group], r)
	}
	for g, recs := range byGroup {
		if len(recs) < 2 {
			t.Errorf("group %s has one record; a group is a definition scored more than once", g)
		}
		for _, r := range recs[1:] {
			if !sameDefinition(recs[0], r) {
				t.Errorf("group %s: %s and %s are not the same definition", g, recs[0].label, r.label)
			}
		}
	}
}
