package heuristic_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/num"
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

func (tb table) write(b *strings.Builder) {
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
	fmt.Fprintf(b, "%-52s  %-11s  %-11s  %4s  %4s\n", "tool", "published", "heuristic", "pub", "heur")
	for _, row := range tb.rows {
		b.WriteString(row + "\n")
	}
	b.WriteString("\n")
}

// registrySelf is how far the registry agrees with itself: the same
// definition scored in two captures of its page, taken on different days.
type registrySelf struct {
	dims  map[string]*pair
	tools pair // per tool: the composite when both captures show it, else the mean of the dimensions both show
	pages int
}

// selfAgreement sets each capture of a tool page against every other
// capture of the same page whose definition, as the judge reads it, is
// the same: what is left between them is the registry's own variance,
// which no judge can agree with more than the registry agrees with
// itself.
func selfAgreement(recs []record) registrySelf {
	rs := registrySelf{dims: map[string]*pair{}}
	for _, d := range toolDims {
		rs.dims[d.key] = &pair{}
	}
	byPage := map[string][]record{}
	var order []string
	for _, r := range recs {
		before, _, captured := strings.Cut(r.label, " [")
		if !captured {
			continue
		}
		_, source, _ := strings.Cut(r.label, "] (")
		key := r.set + " " + before + " (" + source
		if byPage[key] == nil {
			order = append(order, key)
		}
		byPage[key] = append(byPage[key], r)
	}
	same := func(a, b record) bool {
		ja, _ := json.Marshal(a.input)
		jb, _ := json.Marshal(b.input)
		return string(ja) == string(jb)
	}
	for _, key := range order {
		caps := byPage[key]
		counted := false
		for i := range caps {
			for j := i + 1; j < len(caps); j++ {
				a, b := caps[i], caps[j]
				if !same(a, b) {
					continue
				}
				var sa, sb, n int
				for _, d := range toolDims {
					pa, pb := a.published[d.key], b.published[d.key]
					if pa == nil || pb == nil {
						continue
					}
					rs.dims[d.key].add(float64(*pa), float64(*pb))
					sa, sb, n = sa+*pa, sb+*pb, n+1
				}
				switch {
				case a.tdqs != nil && b.tdqs != nil:
					rs.tools.add(*a.tdqs, *b.tdqs)
				case n > 0:
					rs.tools.add(float64(sa)/float64(n), float64(sb)/float64(n))
				default:
					continue
				}
				counted = true
			}
		}
		if counted {
			rs.pages++
		}
	}
	return rs
}

func (rs registrySelf) write(b *strings.Builder) {
	fmt.Fprintf(b, "## the registry against itself (%d pages captured more than once with the same definition, every pair of their captures)\n\n", rs.pages)
	fmt.Fprintf(b, "%-24s  %3s  %5s  %7s\n", "dimension", "n", "MAD", "Pearson")
	for _, d := range toolDims {
		p := rs.dims[d.key]
		r, rok := p.pearson()
		fmt.Fprintf(b, "%-24s  %3d  %5.2f  %7s\n", d.key, len(p.pub), p.mad(), cell(r, rok))
	}
	r, rok := rs.tools.pearson()
	fmt.Fprintf(b, "%-24s  %3d  %5.2f  %7s\n", "per tool", len(rs.tools.pub), rs.tools.mad(), cell(r, rok))
}

// floor is the least agreement a part must keep, a little below what
// version 1.3.0 measured (tuning: per-tool Pearson 0.845, the worst
// dimension MAD 0.53; held out: 0.573 and 0.68), so that a change to the
// cues that agrees less fails even if its golden is rewritten. The
// issue's targets for the held-out part (per-tool Pearson 0.85, every
// dimension MAD at most 0.45) are not met; the test logs how far off
// they are.
type floor struct {
	toolPearson float64 // least per-tool Pearson
	dimMAD      float64 // ceiling on each dimension's MAD with enough scores
}

var (
	tuningFloor  = floor{toolPearson: 0.83, dimMAD: 0.55}
	heldOutFloor = floor{toolPearson: 0.55, dimMAD: 0.70}
	target       = floor{toolPearson: 0.85, dimMAD: 0.45}
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
	tuning, heldOut := parts(t)
	tabs := []table{tabulate(t, "tuning part", tuning), tabulate(t, "held-out part", heldOut)}
	var b strings.Builder
	fmt.Fprintf(&b, "# heuristic %s against published TDQS scores\n\n", heuristic.Version)
	b.WriteString("Dimension columns in order: purpose, usage, behaviour, parameters, conciseness, completeness; - is not published.\n")
	b.WriteString("Per tool: the published composite where shown, else the mean of the published dimensions, each against the heuristic's on the same footing.\n\n")
	for _, tb := range tabs {
		tb.write(&b)
	}
	selfAgreement(append(tuning, heldOut...)).write(&b)
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
	for i, f := range []floor{tuningFloor, heldOutFloor} {
		for _, m := range f.misses(tabs[i]) {
			t.Error(m)
		}
	}
	for _, m := range target.misses(tabs[1]) {
		t.Logf("target not met: %s", m)
	}
}

// TestSelfAgreement checks the registry's agreement with itself on a case
// worked by hand: only captures of one page with the same definition are
// paired, dimension by dimension where both show one.
func TestSelfAgreement(t *testing.T) {
	score := func(v int) *int { return &v }
	in := func(desc string) map[string]any {
		return map[string]any{"tool": map[string]any{"name": "t", "description": desc}}
	}
	recs := []record{
		{set: "glama", label: "t [A] (o/x)", input: in("Reads."), published: map[string]*int{"behavioral_transparency": score(3), "conciseness_structure": score(5)}},
		{set: "glama", label: "t [B] (o/x)", input: in("Reads."), published: map[string]*int{"behavioral_transparency": score(4), "conciseness_structure": score(5), "contextual_completeness": score(2)}},
		// Another definition on the same page: not the same tool any more.
		{set: "glama", label: "t [C] (o/x)", input: in("Reads files."), published: map[string]*int{"behavioral_transparency": score(1)}},
		// Another page, and a page captured once.
		{set: "glama", label: "t [A] (o/y)", input: in("Reads."), published: map[string]*int{"behavioral_transparency": score(5)}},
		{set: "glama", label: "u (o/x)", input: in("Reads."), published: map[string]*int{"behavioral_transparency": score(1)}},
	}
	rs := selfAgreement(recs)
	if rs.pages != 1 {
		t.Errorf("pages = %d, want 1 (o/x's A and B)", rs.pages)
	}
	bt := rs.dims["behavioral_transparency"]
	if len(bt.pub) != 1 || bt.mad() != 1 {
		t.Errorf("transparency pairs %v against %v, MAD %.2f; want one pair, 3 against 4, MAD 1", bt.pub, bt.heur, bt.mad())
	}
	if cs := rs.dims["conciseness_structure"]; len(cs.pub) != 1 || cs.mad() != 0 {
		t.Errorf("conciseness pairs %v against %v; want 5 against 5", cs.pub, cs.heur)
	}
	if cc := rs.dims["contextual_completeness"]; len(cc.pub) != 0 {
		t.Errorf("completeness paired %v although only capture B shows it", cc.pub)
	}
	if len(rs.tools.pub) != 1 || rs.tools.pub[0] != 4 || rs.tools.heur[0] != 4.5 {
		t.Errorf("per tool %v against %v; want the means of the shared dimensions, 4 against 4.5", rs.tools.pub, rs.tools.heur)
	}
}
