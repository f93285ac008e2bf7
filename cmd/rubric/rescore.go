package main

import (
	"fmt"
	"github.com/rubricmcp/rubric/internal/columns"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) rescoreCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rescore REPORT --rubric NAME|PATH",
		Short: "Score a report's recorded surface again with another rubric, side by side",
		Long: `Rescore takes the surface recorded in a JSON report and scores it with
another rubric (new weights, new formulas), without reading the server again
and without model calls. It prints old and new scores side by side; --out
writes the new report.`,
		Example: `  rubric rescore report.json --rubric examples/rubrics/schema-quality-contested.hcl`,
		Args:    oneArg("rescore", "the path of a JSON report"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ref := a.v.GetString("rubric")
			if ref == "" {
				return fmt.Errorf("rescore needs --rubric: the rubric to score the report with")
			}
			old, err := report.Read(args[0])
			if err != nil {
				return err
			}
			s, err := surface.Parse(args[0]+"#embedded_surface", old.Embedded)
			if err != nil {
				return fmt.Errorf("the report's embedded surface is damaged: %w", err)
			}
			if h := s.Hash(); h != old.Surface.Hash {
				return fmt.Errorf("%s: the embedded surface hashes to %s, not the recorded %s: the report was edited; score the server again", args[0], h, old.Surface.Hash)
			}
			r, err := rubrics.Find(ref)
			if err != nil {
				return err
			}
			// No plugin is started: the judge's answers are observations
			// in the report, which rescoring reads back.
			sess := run.New(run.Options{Workers: a.v.GetInt("workers"), Version: version(), Log: a.logger(), RedactParams: a.redactParams()})
			rep, err := sess.Scan(cmd.Context(), run.Source{Surface: s, Name: old.Target}, r, run.ScanOptions{Answers: old})
			if err != nil {
				return err
			}
			if out := a.v.GetString("out"); out != "" {
				if err := writers.JSON().WriteFile(out, rep, text.Options{}); err != nil {
					return err
				}
			}
			return a.sideBySide(old, rep)
		},
	}
	cmd.Flags().String("rubric", "", "the rubric to score with: a built-in name or a .hcl path")
	cmd.Flags().StringP("out", "o", "", "write the new JSON report to this file")
	cmd.Flags().Int("workers", 0, "tools scored in parallel (0: one per CPU)")
	return cmd
}

func (a *app) sideBySide(old, cur *report.Report) error {
	w := a.stdout
	fmt.Fprintf(w, "old: %s %s (%s)\nnew: %s %s (%s)\n\n",
		old.Rubric.Name, old.Rubric.Version, report.ShortHash(old.Rubric.Digest),
		cur.Rubric.Name, cur.Rubric.Version, report.ShortHash(cur.Rubric.Digest))
	oldBy := map[string]report.Tool{}
	for _, t := range old.Tools {
		oldBy[t.Name] = t
	}
	rows := [][]string{{"tool", "old", "grade", "new", "grade", "change"}}
	changed := 0
	for _, t := range cur.Tools {
		o := oldBy[t.Name]
		d := delta(o.Exact, t.Exact, cur.Rubric.Round)
		if d != "0" {
			changed++
		}
		rows = append(rows, []string{t.Name, string(o.Score), o.Grade, string(t.Score), t.Grade, d})
	}
	if old.Exact != nil && cur.Exact != nil {
		rows = append(rows, []string{"overall", string(*old.Score), *old.Grade, string(*cur.Score), *cur.Grade, delta(*old.Exact, *cur.Exact, cur.Rubric.Round)})
	}
	columns.Write(w, "", "lrlrlr", rows)
	fmt.Fprintf(w, "\n%d of %d tools changed score.\n", changed, len(cur.Tools))
	return nil
}

// delta is new minus old, rounded like the scores, with a sign.
func delta(oldExact, newExact string, digits int) string {
	o, err1 := num.Parse(oldExact)
	n, err2 := num.Parse(newExact)
	if err1 != nil || err2 != nil {
		return "n/a"
	}
	d := n.Sub(o)
	if d.Sign() == 0 {
		return "0"
	}
	s := d.Decimal(digits)
	if d.Sign() > 0 {
		s = "+" + s
	}
	return s
}
