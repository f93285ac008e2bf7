package calibrate

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/markdown"
)

// places is the number of decimals v needs (at most 12); 0 for a label.
func places(v Val) int {
	if v.IsText {
		return 0
	}
	for d := 0; d < 12; d++ {
		if v.Num.Round(d).Cmp(v.Num) == 0 {
			return d
		}
	}
	return 12
}

// placesOf is the most decimals any of vals needs, so that a row or a
// column writes 4.0 beside 3.9 rather than 4.
func placesOf(vals ...Val) int {
	d := 0
	for _, v := range vals {
		d = max(d, places(v))
	}
	return d
}

// fixed writes v with d decimals; a label as it is.
func fixed(v Val, d int) string {
	if v.IsText {
		return v.Text
	}
	return v.Num.Decimal(d)
}

// signed writes a difference with d decimals and its sign: "+0.3",
// "-0.8", "0.0".
func signed(v Val, d int) string {
	if v.IsText {
		return v.Text
	}
	if v.Num.Sign() > 0 {
		return "+" + v.Num.Decimal(d)
	}
	return v.Num.Decimal(d)
}

// signedMean writes a mean difference with two decimals and its sign.
func signedMean(n num.Num) string {
	s := n.Decimal(2)
	if n.Round(2).Sign() > 0 {
		return "+" + s
	}
	return s
}

func valOr(v *Val, none string, d int) string {
	if v == nil {
		return none
	}
	return fixed(*v, d)
}

func joinVals(vs []Val, d int) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fixed(v, d)
	}
	return strings.Join(parts, ", ")
}

func joinPtrs(vs []*Val, none string, d int) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = valOr(v, none, d)
	}
	return strings.Join(parts, ", ")
}

// setPlaces is the decimals of a whole-set row.
func setPlaces(row SetRow) int {
	var vals []Val
	for _, v := range append([]*Val{row.Published, row.Median}, row.Runs...) {
		if v != nil {
			vals = append(vals, *v)
		}
	}
	return placesOf(vals...)
}

// toolPlaces is the decimals of the tool's score across the tables.
func (s Stats) toolPlaces() int {
	var vals []Val
	for _, t := range s.Tools {
		vals = append(vals, t.Median)
		vals = append(vals, t.Runs...)
		if t.Published != nil {
			vals = append(vals, *t.Published)
		}
	}
	if s.Lowest != nil {
		vals = append(vals, s.Lowest.Published)
	}
	return placesOf(vals...)
}

// measureLabel is how a measure is called in a table: the tool's score
// by its name, a dimension by its readable last part.
func (rec *Record) measureLabel(name string) string {
	if name == rec.Measures.Tool {
		return name
	}
	return label(name)
}

// dimensionList writes "purpose clarity -1, usage guidelines +1".
func dimensionList(ds []Named) string {
	if len(ds) == 0 {
		return "none"
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = lower(d.Name) + " " + signed(d.Value, places(d.Value))
	}
	return strings.Join(parts, ", ")
}

// Text from the registry (names, the capture's about) is untrusted: every
// piece of it goes into Markdown through these, which escape backticks,
// pipes, line breaks and control characters.
var (
	inline = markdown.Inline
	cell   = markdown.CellCode
)

// terms makes the text among a (registry text, such as names) safe to
// print on a terminal: its control characters are written as escapes.
func terms(a []any) []any {
	out := make([]any, len(a))
	for i, v := range a {
		if s, ok := v.(string); ok {
			v = report.EscapeControls(s, false)
		}
		out[i] = v
	}
	return out
}

// printf is fmt.Fprintf for the terminal, with terms.
func printf(w io.Writer, format string, a ...any) { fmt.Fprintf(w, format, terms(a)...) }

// pearsonText is the correlation with two decimals, or why there is none.
func (s Stats) pearsonText() string {
	if s.Pearson == nil {
		return "undefined (fewer than two tools, or one side constant)"
	}
	return fmt.Sprintf("%.2f", *s.Pearson)
}

// WriteMarkdown writes the calibration as Markdown: the whole set, each
// measure, the largest differences, every tool, run-to-run variation and
// the definition differences. plot, when not empty, is the file name of
// the scatter plot to embed.
func WriteMarkdown(w io.Writer, rec *Record, plot string) error {
	bw := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(bw, format, a...) }
	st := rec.Statistics
	p("# Calibration of %s %s against published scores\n\n", inline(rec.Rubric.Name), inline(rec.Rubric.Version))
	if rec.Capture.About != "" {
		p("> %s\n\n", inline(rec.Capture.About))
	}
	p("| | |\n|---|---|\n")
	p("| capture | %s |\n", cell(rec.Capture.Path))
	if rec.Capture.Release != "" {
		p("| release | %s |\n", inline(rec.Capture.Release))
	}
	if rec.Capture.ScoredAt != "" {
		p("| scored by the registry | %s |\n", inline(rec.Capture.ScoredAt))
	}
	p("| scored set | `%s`, %s |\n", rec.Capture.SurfaceHash, report.Plural(rec.Capture.ToolCount, "tool"))
	p("| rubric | %s %s, %s |\n", inline(rec.Rubric.Name), inline(rec.Rubric.Version), cell(rec.Rubric.Digest))
	p("| judge | %s |\n", inline(judgeText(rec)))
	p("| runs | %d |\n\n", rec.Runs)
	if rec.Runs == 1 {
		p("Ours comes from the one run, per tool and per measure; every difference is ours minus the published value. Nothing is adjusted.\n\n")
	} else {
		p("Ours is the median of the %d runs, per tool and per measure; every difference is ours minus the published value. Nothing is adjusted.\n\n", rec.Runs)
	}

	p("## The whole set\n\n| Measure | Published | Runs | Median |\n|---|---|---|---|\n")
	td := st.toolPlaces()
	for _, row := range st.Set {
		d := setPlaces(row)
		p("| %s | %s | %s | %s |\n", inline(row.Name), inline(valOr(row.Published, "—", d)), inline(joinPtrs(row.Runs, "—", d)), inline(valOr(row.Median, "—", d)))
	}
	if l := st.Lowest; l != nil {
		runs := make([]string, len(l.Runs))
		for i, v := range l.Runs {
			runs[i] = fmt.Sprintf("%s (%s)", fixed(v, td), markdown.Codes(l.RunTools[i]))
		}
		p("| lowest %s | %s (%s) | %s | %s |\n", inline(st.Measure), fixed(l.Published, td), markdown.Codes(l.PublishedTools), strings.Join(runs, "; "), fixed(l.Median, td))
	}

	p("\n## Per measure\n\n| Measure | Tools | Mean absolute difference | Mean signed difference | Ours higher | Ours lower | Equal |\n|---|---|---|---|---|---|---|\n")
	for _, m := range st.Measures {
		p("| %s | %d | %s | %s | %d | %d | %d |\n", inline(rec.measureLabel(m.Name)), m.Tools, m.MeanAbs.Decimal(2), signedMean(m.MeanSigned.Num), m.Higher, m.Lower, m.Equal)
	}
	for _, l := range st.Labels {
		p("\n%s: the label most runs gave equals the published one for %d of %d tools.\n", inline(label(l.Name)), l.Equal, l.Tools)
	}
	p("\nPer tool, our median %s and the published one correlate at %s (Pearson, computed in float64). The mean offset is %s; for %d of the %d tools the difference lies within %s of it.\n\n",
		inline(st.Measure), st.pearsonText(), signedMean(st.Offset.Num), st.Within, st.Compared, st.Tolerance)
	if plot != "" {
		p("![published (x) against ours (y), per tool, with the line y = x](%s)\n\n", plot)
	}
	writeAgreement(bw, rec)

	p("## The largest differences\n\n")
	if len(st.Largest) == 0 {
		p("No tool's %s differs from the published one.\n\n", inline(st.Measure))
	} else {
		p("| Tool | Published | Ours | Difference | Dimensions that differ (ours minus published) |\n|---|---|---|---|---|\n")
		for _, l := range st.Largest {
			p("| %s | %s | %s | %s | %s |\n", cell(l.Tool), fixed(l.Published, td), fixed(l.Median, td), signed(l.Difference, td), inline(dimensionList(l.Dimensions)))
		}
		p("\n")
	}

	p("## Every tool\n\n| Tool | Published | Ours (median) | Difference | Runs | Range | Mean absolute deviation |\n|---|---|---|---|---|---|---|\n")
	for _, t := range st.Tools {
		diff := "—"
		if t.Difference != nil {
			diff = signed(*t.Difference, td)
		}
		p("| %s | %s | %s | %s | %s | %s | %s |\n", cell(t.Name), valOr(t.Published, "—", td), fixed(t.Median, td), diff, joinVals(t.Runs, td), fixed(t.Range, td), t.MeanAbsDeviation.Decimal(2))
	}
	if v := st.Variation; v.MaxRange.Num.Sign() == 0 {
		p("\nEvery run gave every tool the same %s.\n\n", inline(st.Measure))
	} else {
		p("\nFrom run to run, a tool's %s moved by %s on average (max − min of its runs) and by up to %s (%s); the mean absolute deviation from a tool's own mean is %s.\n\n",
			inline(st.Measure), v.MeanRange.Decimal(2), fixed(v.MaxRange, td), markdown.Codes(v.MaxRangeTools), v.MeanDeviation.Decimal(2))
	}

	p("## Definition differences\n\n")
	switch d := rec.Differences; {
	case d == nil:
		p("The server's own tools/list was not read (give `--server TARGET` or `-- COMMAND`), so the capture's definitions were not compared with it.\n")
	case len(d.Tools) == 0:
		p("The capture's definitions are the server's (%s, read from %s).\n", cell(d.SurfaceHash), cell(d.Server))
	default:
		p("The capture's definitions differ from those of %s (%s). The calibration scored the capture's own.\n\n| Tool | Difference |\n|---|---|\n", cell(d.Server), cell(d.SurfaceHash))
		for _, t := range d.Tools {
			for _, line := range t.Differences {
				p("| %s | %s |\n", cell(t.Tool), inline(line))
			}
		}
	}
	if len(rec.Measures.Unmatched) > 0 {
		p("\nPublished values no report field of the rubric matched, left out: %s.\n", markdown.Codes(rec.Measures.Unmatched))
	}
	if len(rec.Measures.UnmatchedServer) > 0 {
		p("\nPublished values of the whole set no surface report value of the rubric matched, left out: %s.\n", markdown.Codes(rec.Measures.UnmatchedServer))
	}
	if len(rec.Measures.Excluded) > 0 {
		p("\nPublished values left out:\n\n| Tool | Value | Published | Why |\n|---|---|---|---|\n")
		for _, e := range rec.Measures.Excluded {
			tool := "(the whole set)"
			if e.Tool != "" {
				tool = cell(e.Tool)
			}
			p("| %s | %s | %s | %s |\n", tool, cell(e.Name), inline(e.Value), inline(e.Why))
		}
	}
	return bw.Flush()
}

// judgeText names the judge: plugin, version and model, or the models
// its answers came from when it pins none (see judge.Identity.Answered),
// as the HTML calibration does.
func judgeText(rec *Record) string {
	j := rec.Judge
	if j == nil {
		return "none"
	}
	s := j.Plugin + " " + j.Version
	if noun, names := j.Answered(); noun != "" {
		s += " · " + noun + " " + names
	}
	if j.Heuristic {
		s += " (a heuristic, not a model)"
	}
	return s
}

// WriteText writes the figures a terminal needs: the whole set, each
// measure, the agreement of the tool's score and the largest differences.
func WriteText(w io.Writer, rec *Record) error {
	st := rec.Statistics
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, terms(a)...) }
	p("calibration: %s %s · judge %s · %s · %s\n\n", rec.Rubric.Name, rec.Rubric.Version, judgeText(rec), report.Plural(rec.Runs, "run"), report.Plural(rec.Capture.ToolCount, "tool"))
	p("WHOLE SET\tPUBLISHED\tRUNS\tMEDIAN\n")
	td := st.toolPlaces()
	for _, row := range st.Set {
		d := setPlaces(row)
		p("%s\t%s\t%s\t%s\n", row.Name, valOr(row.Published, "-", d), joinPtrs(row.Runs, "-", d), valOr(row.Median, "-", d))
	}
	if l := st.Lowest; l != nil {
		p("lowest %s\t%s %s\t%s\t%s\n", st.Measure, fixed(l.Published, td), strings.Join(l.PublishedTools, ", "), joinVals(l.Runs, td), fixed(l.Median, td))
	}
	p("\nMEASURE\tTOOLS\tMEAN |DIFF|\tMEAN DIFF\tHIGHER\tLOWER\tEQUAL\n")
	for _, m := range st.Measures {
		p("%s\t%d\t%s\t%s\t%d\t%d\t%d\n", rec.measureLabel(m.Name), m.Tools, m.MeanAbs.Decimal(2), signedMean(m.MeanSigned.Num), m.Higher, m.Lower, m.Equal)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, l := range st.Labels {
		printf(w, "%s: the label most runs gave equals the published one for %d of %d tools\n", l.Name, l.Equal, l.Tools)
	}
	printf(w, "Pearson r of %s (float64): %s · within %s of the mean offset %s: %d of %d tools\n",
		st.Measure, st.pearsonText(), st.Tolerance, signedMean(st.Offset.Num), st.Within, st.Compared)
	printf(w, "\nAGREEMENT (95%% CI: %d bootstrap resamples, seed %d)\n", st.Bootstrap.Resamples, st.Bootstrap.Seed)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p("MEASURE\tKAPPA(QW)\tALPHA\tALPHA RUNS\tPEARSON\tSPEARMAN\tMEAN |DIFF|\n")
	for _, a := range st.Agreement {
		p("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", rec.measureLabel(a.Name), Opt(a.Kappa), Opt(a.Alpha), Opt(a.AlphaRuns), WithCI(a.Pearson, a.PearsonCI), WithCI(a.Spearman, a.SpearmanCI), WithCI(&a.MeanAbs, a.MeanAbsCI))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	v := st.Variation
	printf(w, "run to run: mean range %s, largest %s, mean absolute deviation %s\n", v.MeanRange.Decimal(2), fixed(v.MaxRange, td), v.MeanDeviation.Decimal(2))
	if len(st.Largest) > 0 {
		fmt.Fprintln(w, "largest differences:")
		for _, l := range st.Largest {
			printf(w, "  %s %s → %s (%s): %s\n", l.Tool, fixed(l.Published, td), fixed(l.Median, td), signed(l.Difference, td), dimensionList(l.Dimensions))
		}
	}
	if d := rec.Differences; d != nil {
		n := 0
		for _, t := range d.Tools {
			n += len(t.Differences)
		}
		printf(w, "definition differences with %s: %d in %s\n", d.Server, n, report.Plural(len(d.Tools), "tool"))
	}
	return nil
}

// Opt writes a statistic with two decimals, or "n/a" where it is
// undefined.
func Opt(f *float64) string {
	if f == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", *f)
}

// WithCI writes a statistic and its interval: "0.94 [0.81, 0.99]".
func WithCI(f *float64, ci *Interval) string {
	if f == nil {
		return "n/a"
	}
	if ci == nil {
		return Opt(f)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", *f, ci.Low, ci.High)
}

// writeAgreement writes the agreement table of WriteMarkdown.
func writeAgreement(w io.Writer, rec *Record) {
	st := rec.Statistics
	if len(st.Agreement) == 0 {
		return
	}
	fmt.Fprintf(w, "## Agreement\n\n")
	fmt.Fprintf(w, "Ours (the median of the runs) against the published values, per measure: Cohen's kappa with quadratic weights, Krippendorff's alpha with the ordinal metric (ours and the registry as two coders), alpha across the %d runs (each run a coder: how reproducible the judge is), and Pearson, Spearman and the mean absolute difference with 95%% bootstrap intervals (%d resamples of the tools with replacement, seed %d, percentiles by nearest rank). n/a: undefined (too few tools or runs, or one side constant).\n\n",
		rec.Runs, st.Bootstrap.Resamples, st.Bootstrap.Seed)
	fmt.Fprintf(w, "| Measure | Tools | Weighted kappa | Alpha | Alpha across runs | Pearson [95%% CI] | Spearman [95%% CI] | Mean absolute difference [95%% CI] |\n|---|---|---|---|---|---|---|---|\n")
	for _, a := range st.Agreement {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %s |\n", inline(rec.measureLabel(a.Name)), a.Tools, Opt(a.Kappa), Opt(a.Alpha), Opt(a.AlphaRuns), WithCI(a.Pearson, a.PearsonCI), WithCI(a.Spearman, a.SpearmanCI), WithCI(&a.MeanAbs, a.MeanAbsCI))
	}
	fmt.Fprintln(w)
}
