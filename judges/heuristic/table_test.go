package heuristic_test

import (
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
