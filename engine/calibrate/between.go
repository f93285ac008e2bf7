package calibrate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
)

// Between is how two judges that calibrated the same capture with the
// same rubric agree with each other: per measure, their medians set
// against each other, tool by tool, with the same statistics as each
// judge's agreement with the registry (which each record holds).
type Between struct {
	Judges    [2]*report.Judge `json:"judges"`
	Bootstrap Bootstrap        `json:"bootstrap"`
	// Agreement is judge 1's medians against judge 2's. AlphaRuns is left
	// out: each record has its own.
	Agreement []Agreement `json:"agreement"`
}

// Compare2 computes the agreement between the judges of records a and b,
// which must describe the same scored set and the same rubric digest.
// Tools and measures are those both records have, in a's order.
func Compare2(a, b *Record, opt Options) (*Between, error) {
	if a.Capture.SurfaceHash != b.Capture.SurfaceHash {
		return nil, fmt.Errorf("the two calibrations scored different sets (%s and %s): calibrate both judges on one capture", a.Capture.SurfaceHash, b.Capture.SurfaceHash)
	}
	if a.Rubric.Digest != b.Rubric.Digest {
		return nil, fmt.Errorf("the two calibrations used different rubric digests (%s and %s): calibrate both judges with one rubric", a.Rubric.Digest, b.Rubric.Digest)
	}
	bt := Bootstrap{Resamples: opt.Resamples, Seed: opt.Seed, Level: "95% percentile interval (nearest rank)"}
	if bt.Resamples <= 0 {
		bt.Resamples = DefaultResamples
	}
	if bt.Seed == 0 {
		bt.Seed = DefaultSeed
	}
	out := &Between{Judges: [2]*report.Judge{a.Judge, b.Judge}, Bootstrap: bt, Agreement: []Agreement{}}
	// Each judge's median of every measure of every tool.
	medians := func(r *Record) map[string]map[string]num.Num {
		m := map[string]map[string]num.Num{}
		for _, t := range r.Statistics.Tools {
			vals := map[string]num.Num{r.Measures.Tool: t.Median.Num}
			for _, d := range t.Dimensions {
				vals[d.Name] = d.Median.Num
			}
			m[t.Name] = vals
		}
		return m
	}
	ma, mb := medians(a), medians(b)
	for _, name := range append([]string{a.Measures.Tool}, a.Measures.Dimensions...) {
		var xs, ys []num.Num
		for _, t := range a.Statistics.Tools {
			x, okA := ma[t.Name][name]
			y, okB := mb[t.Name][name]
			if okA && okB {
				xs, ys = append(xs, x), append(ys, y)
			}
		}
		out.Agreement = append(out.Agreement, agree(name, xs, ys, nil, bt))
	}
	return out, nil
}

// WriteBetweenMarkdown writes the two judges' agreement with each other
// beside each one's agreement with the registry, measure by measure.
func WriteBetweenMarkdown(w io.Writer, a, b *Record, bt *Between) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("# Two judges on %s %s\n\n", inline(a.Rubric.Name), inline(a.Rubric.Version))
	p("| | |\n|---|---|\n| judge 1 | %s |\n| judge 2 | %s |\n| scored set | `%s`, %d tools |\n\n", inline(judgeText(a)), inline(judgeText(b)), a.Capture.SurfaceHash, a.Capture.ToolCount)
	p("Judge 1's medians against judge 2's, tool by tool (95%% intervals: %d bootstrap resamples, seed %d), beside each judge's agreement with the published values.\n\n", bt.Bootstrap.Resamples, bt.Bootstrap.Seed)
	p("| Measure | Kappa 1–2 | Alpha 1–2 | Pearson 1–2 | Spearman 1–2 | Mean abs. diff. 1–2 | Kappa 1–registry | Kappa 2–registry | Pearson 1–registry | Pearson 2–registry |\n|---|---|---|---|---|---|---|---|---|---|\n")
	reg := func(r *Record, name string) Agreement {
		for _, ag := range r.Statistics.Agreement {
			if ag.Name == name {
				return ag
			}
		}
		return Agreement{}
	}
	for _, ag := range bt.Agreement {
		ra, rb := reg(a, ag.Name), reg(b, ag.Name)
		p("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", inline(a.measureLabel(ag.Name)),
			Opt(ag.Kappa), Opt(ag.Alpha), WithCI(ag.Pearson, ag.PearsonCI), WithCI(ag.Spearman, ag.SpearmanCI), WithCI(&ag.MeanAbs, ag.MeanAbsCI),
			Opt(ra.Kappa), Opt(rb.Kappa), Opt(ra.Pearson), Opt(rb.Pearson))
	}
	return bw.Flush()
}

// WriteBetweenText writes each judge's calibration as WriteText does and
// then their agreement with each other, one line per measure.
func WriteBetweenText(w io.Writer, recs [2]*Record, bt *Between) error {
	for i, rec := range recs {
		fmt.Fprintf(w, "judge %d:\n", i+1)
		if err := WriteText(w, rec); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "JUDGE 1 AGAINST JUDGE 2 (95%% CI: %d bootstrap resamples, seed %d)\n", bt.Bootstrap.Resamples, bt.Bootstrap.Seed)
	for _, ag := range bt.Agreement {
		fmt.Fprintf(w, "%s: kappa %s · alpha %s · Pearson %s · Spearman %s · mean |diff| %s\n", ag.Name,
			Opt(ag.Kappa), Opt(ag.Alpha), WithCI(ag.Pearson, ag.PearsonCI), WithCI(ag.Spearman, ag.SpearmanCI), WithCI(&ag.MeanAbs, ag.MeanAbsCI))
	}
	return nil
}

// CheckBetween recomputes the agreement of two judges from their records
// a and b (judge 1's and judge 2's), with the bootstrap the file raw (a
// judges.json) names, and lists where raw says otherwise: a file edited
// by hand, or a pair of records one of which was made again without the
// other. An error says the records cannot be set against each other at
// all (another capture, another rubric) or raw cannot be read.
func CheckBetween(raw []byte, a, b *Record) ([]Disagreement, error) {
	var saved Between
	if err := json.Unmarshal(raw, &saved); err != nil {
		return nil, fmt.Errorf("not two judges' agreement: %w", err)
	}
	bt, err := Compare2(a, b, Options{Resamples: saved.Bootstrap.Resamples, Seed: saved.Bootstrap.Seed})
	if err != nil {
		return nil, err
	}
	want, err := json.Marshal(bt)
	if err != nil {
		return nil, err
	}
	return differ("agreement", raw, want), nil
}
