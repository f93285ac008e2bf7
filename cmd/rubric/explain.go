package main

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) explainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "explain REPORT [--tool NAME]",
		Short: "Show the arithmetic of a score, term by term",
		Long: `Explain reads a JSON report and shows how a score was computed: the
formula, every value that went into it, and the exact result before and
after rounding. With --tool it explains one tool's score; with --metric
(or --category) one surface metric, its formula with every metric value it
reads substituted, then each formula that reads it, up to the overall score;
without either, the overall score.`,
		Example: `  rubric explain report.json --tool create_issue
  rubric explain report.json --category legibility
  rubric explain report.json`,
		Args: oneArg("explain", "the path of a JSON report"),
		RunE: func(_ *cobra.Command, args []string) error {
			rep, err := report.Read(args[0])
			if err != nil {
				return err
			}
			r, err := rubricOfReport(rep, a.v.GetString("rubric"))
			if err != nil {
				return err
			}
			if name := a.v.GetString("tool"); name != "" {
				return a.explainTool(rep, r, name)
			}
			metric, category := a.v.GetString("metric"), a.v.GetString("category")
			if metric != "" && category != "" && metric != category {
				return fmt.Errorf("--metric %q and --category %q name two metrics (one may come from RUBRIC_METRIC or RUBRIC_CATEGORY): give one", metric, category)
			}
			if name := cmp.Or(metric, category); name != "" {
				return a.explainMetric(rep, r, name)
			}
			return a.explainSurface(rep, r)
		},
	}
	cmd.Flags().String("tool", "", "the tool whose score to explain")
	cmd.Flags().String("metric", "", "the surface metric to explain, such as a Gradable category (legibility), with its values substituted, up to the score")
	cmd.Flags().String("category", "", "the same as --metric: Gradable calls its surface scores categories")
	cmd.MarkFlagsMutuallyExclusive("tool", "metric", "category")
	cmd.Flags().String("rubric", "", "the rubric the report was scored with (default: the one it names)")
	return cmd
}

// rubricOfReport loads the rubric a report was scored with and refuses
// one whose digest differs: its formulas would not explain these numbers.
func rubricOfReport(rep *report.Report, ref string) (*rubric.Rubric, error) {
	if ref == "" {
		ref = rep.Rubric.File // a path, or builtin:FILE
	}
	if ref == "" {
		ref = rep.Rubric.Name
	}
	r, err := rubrics.Find(ref)
	if err != nil {
		return nil, fmt.Errorf("cannot load the rubric the report was scored with: %w (pass it with --rubric)", err)
	}
	if r.Digest != rep.Rubric.Digest {
		return nil, fmt.Errorf("the report was scored with %s digest %s, but %s has digest %s: pass the rubric it was scored with (--rubric), or rescore the report first", rep.Rubric.Name, rep.Rubric.Digest, ref, r.Digest)
	}
	return r, nil
}

func (a *app) explainTool(rep *report.Report, r *rubric.Rubric, name string) error {
	var t *report.Tool
	for i := range rep.Tools {
		if rep.Tools[i].Name == name {
			t = &rep.Tools[i]
		}
	}
	if t == nil {
		return fmt.Errorf("no tool %q in the report (%d tools; `rubric score` lists them)", name, len(rep.Tools))
	}
	w := a.stdout
	fmt.Fprintf(w, "Tool %q, rubric %s %s (%s)\n\n", t.Name, r.Name, r.Version, report.ShortHash(r.Digest))
	for _, m := range r.Tool.Metrics {
		fmt.Fprintf(w, "metric %s = %s\n", m.Name, oneLine(m.Value.Source))
	}
	for _, m := range t.Metrics {
		fmt.Fprintf(w, "  %s = %v\n", m.Name, metricText(m))
	}
	fmt.Fprintf(w, "score = %s\n\n", oneLine(r.Tool.Score.Source))
	for _, o := range t.Answers {
		how := "asked"
		if o.Cached {
			how = "from the cache"
		}
		fmt.Fprintf(w, "answer to question %s (%s), model %s, %s, input %s\n", o.Question, o.Kind, o.Model, how, report.ShortHash(o.InputHash))
	}
	exact := num.MustParse(t.Exact)
	if len(t.Checks) == 0 {
		if len(t.Answers) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "score = %s, shown rounded half up to %d decimal(s) as %s\n", exact.Exact(), r.Round, t.Score)
		fmt.Fprintf(w, "grade = %s (%s)\n", t.Grade, gradeBand(r, t.Grade))
		return nil
	}

	rows := [][]string{{"check", "points", "", "credit", "", "term", ""}}
	total := num.Zero
	for _, c := range t.Checks {
		points, credit := num.MustParse(c.Points), num.MustParse(c.Credit)
		term := points.Mul(credit)
		total = total.Add(term)
		rows = append(rows, []string{c.Name, points.String(), "×", creditText(c), "=", term.String(), checkNote(c)})
	}
	rows = append(rows, []string{"sum", "", "", "", "=", total.String(), ""})
	table(w, "  ", "lrcrcrl", rows)

	fmt.Fprintln(w)
	if total.Cmp(exact) != 0 {
		fmt.Fprintf(w, "The score formula is not the sum of points × credit; the rows above are its inputs.\n")
	}
	fmt.Fprintf(w, "score = %s, shown rounded half up to %d decimal(s) as %s\n", exact.Exact(), r.Round, t.Score)
	fmt.Fprintf(w, "grade = %s (%s)\n", t.Grade, gradeBand(r, t.Grade))
	return nil
}

func creditText(c report.Check) string {
	if !c.Items || c.Skipped {
		return c.Credit
	}
	if c.Total == 0 {
		return "1"
	}
	return fmt.Sprintf("%d/%d", c.Passed, c.Total)
}

func checkNote(c report.Check) string {
	switch {
	case c.Skipped:
		return "skipped: an earlier check stopped scoring"
	case c.Items && c.Total == 0:
		return "no items: full credit"
	case len(c.Failed) > 0:
		return "failed: " + strings.Join(c.Failed, ", ")
	case c.Credit == "0":
		return "failed"
	}
	return ""
}

func metricText(m report.Metric) string {
	if m.Exact != "" && m.Exact != fmt.Sprint(m.Value) {
		return fmt.Sprintf("%v (exactly %s)", m.Value, m.Exact)
	}
	return fmt.Sprint(m.Value)
}

func gradeBand(r *rubric.Rubric, letter string) string {
	for i, g := range r.Grades {
		if g.Letter != letter {
			continue
		}
		if i == 0 {
			return fmt.Sprintf("score >= %s", g.Min)
		}
		return fmt.Sprintf("%s <= score < %s", g.Min, r.Grades[i-1].Min)
	}
	return "below every band"
}

func (a *app) explainSurface(rep *report.Report, r *rubric.Rubric) error {
	w := a.stdout
	fmt.Fprintf(w, "Overall score, rubric %s %s (%s), %d tools\n\n", r.Name, r.Version, report.ShortHash(r.Digest), len(rep.Tools))
	for _, m := range r.Surface.Metrics {
		fmt.Fprintf(w, "metric %s = %s\n", m.Name, oneLine(m.Value.Source))
	}
	for _, m := range rep.Metrics {
		fmt.Fprintf(w, "  %s = %v\n", m.Name, metricText(m))
	}
	fmt.Fprintf(w, "score = %s\n\n", oneLine(r.Surface.Score.Source))
	if rep.Exact == nil {
		fmt.Fprintf(w, "no score: %s\n", rep.NoScore)
		return nil
	}
	rows := [][]string{{"tool", "score (exact)"}}
	sum := num.Zero
	for _, t := range rep.Tools {
		e := num.MustParse(t.Exact)
		sum = sum.Add(e)
		rows = append(rows, []string{t.Name, e.String()})
	}
	table(w, "  ", "lr", rows)
	n := num.Int(int64(len(rep.Tools)))
	mean, _ := sum.Quo(n)
	exact := num.MustParse(*rep.Exact)
	fmt.Fprintf(w, "\nsum of tool scores = %s over %d tools; mean = %s\n", sum, len(rep.Tools), mean.Exact())
	if mean.Cmp(exact) != 0 {
		fmt.Fprintln(w, "The overall formula is not the mean of the tool scores; the rows above are its inputs.")
	}
	fmt.Fprintf(w, "score = %s, shown rounded half up to %d decimal(s) as %s\n", exact.Exact(), r.Round, *rep.Score)
	fmt.Fprintf(w, "grade = %s (%s)\n", *rep.Grade, gradeBand(r, *rep.Grade))
	return nil
}
