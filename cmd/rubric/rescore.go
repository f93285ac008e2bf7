package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/rank"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/scan"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) rescoreCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "rescore REPORT... --rubric NAME|PATH",
		Short:   "Score a report's recorded surface again with another rubric, side by side",
		Long:    help("rescore"),
		Example: help("rescore-example"),
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("rescore takes the path of a JSON report, several, or a directory of them")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ref := a.v.GetString("rubric")
			if ref == "" {
				return fmt.Errorf("rescore needs --rubric: the rubric to score the report with")
			}
			if st, err := os.Stat(args[0]); len(args) > 1 || err == nil && st.IsDir() {
				if a.v.GetString("out") != "" {
					return fmt.Errorf("--out writes one report: rescore one report to use it")
				}
				r, err := rubrics.FindContext(cmd.Context(), ref)
				if err != nil {
					return &localconfig.ValueError{Key: "rubric", Err: err}
				}
				args, names, err := scanReports(args, r.Name, a.stderr)
				if err != nil {
					return err
				}
				paths, err := rank.ReportPaths(args)
				if err != nil {
					return err
				}
				format, _ := cmd.Flags().GetString("format")
				if format != "text" && format != "json" {
					return fmt.Errorf("--format is text or json, not %q", format)
				}
				return a.rescoreRanking(cmd.Context(), r, paths, names, format)
			}
			out := a.v.GetString("out")
			if ok, what, rename := writers.Fits(out, "json"); !ok {
				return fmt.Errorf("--out %s is %s, and rescore writes the JSON report there: name it %s", out, what, rename)
			}
			inputs := []run.Flagged{{Flag: "rescore", Path: args[0]}, {Flag: "--rubric", Path: ref}}
			if err := run.CheckOutputs(inputs, []run.Flagged{{Flag: "--out", Path: out}}, run.Flagged{}); err != nil {
				return err
			}
			old, s, err := run.ReadRecorded(args[0])
			if err != nil {
				return err
			}
			was, err := recordedRubric(cmd.Context(), old)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			r, err := rubrics.FindContext(cmd.Context(), ref)
			if err != nil {
				return &localconfig.ValueError{Key: "rubric", Err: err}
			}
			if w := otherScale(was, r); w != "" {
				fmt.Fprintf(a.stderr, "rubric: warning: %s\n", w)
			}
			// No plugin is started: the judge's answers are observations
			// in the report, which rescoring reads back.
			rep, err := run.New(a.host().Options()).Rescore(r)(cmd.Context(), s, old.Target, old)
			if err != nil {
				return err
			}
			if out != "" {
				if err := writers.JSON().WriteFile(out, rep, text.Options{}); err != nil {
					return err
				}
			}
			return text.WriteComparison(a.stdout, old, rep)
		},
	}
	cmd.Flags().String("rubric", "", "the rubric to score with: a built-in name or a .hcl path")
	cmd.Flags().StringP("out", "o", "", "write the new JSON report to this file")
	cmd.Flags().Int("workers", 0, "tools scored in parallel (0: one per CPU)")
	cmd.Flags().String("format", "text", "for several reports: text or json")
	return cmd
}

// scanReports expands each argument that is a scan's directory (or its
// reports/ folder) into the paths of the scan's current reports of the
// rubric named rubricName (see scan.Reports), and says the scan's name
// of the server of each such path. What such a scan's ranking cannot
// hold (its failed servers, its missing shards) is said on stderr, so
// that the ranking does not read as the whole scan's.
func scanReports(args []string, rubricName string, stderr io.Writer) ([]string, map[string]string, error) {
	var out []string
	names := map[string]string{}
	for _, a := range args {
		dir := a
		if filepath.Base(filepath.Clean(a)) == "reports" && scan.IsScanDir(filepath.Dir(filepath.Clean(a))) {
			dir = filepath.Dir(filepath.Clean(a))
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || !scan.IsScanDir(dir) {
			out = append(out, a)
			continue
		}
		refs, err := scan.Reports(dir, rubricName)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range refs {
			out = append(out, r.Path)
			names[r.Path] = r.Name
		}
		lacks, err := scan.Lacks(dir)
		if err != nil {
			return nil, nil, err
		}
		for _, l := range lacks {
			fmt.Fprintf(stderr, "rubric: %s\n", l)
		}
	}
	return out, names, nil
}

// otherScale says, when the rubric a report was scored with (was) and the
// one it is rescored with (now) score on different scales, that the
// comparison sets one unit against another; "" when they share a scale,
// or either declares none.
func otherScale(was, now *rubric.Rubric) string {
	a, b := was.Scale, now.Scale
	if a == nil || b == nil || a.Min.Cmp(b.Min) == 0 && a.Max.Cmp(b.Max) == 0 {
		return ""
	}
	return fmt.Sprintf("the report was scored with %s, on a scale of %s to %s, and is rescored with %s, on %s to %s: the change column sets one unit against the other; to compare weights, rescore a report scored with a rubric of %s's scale",
		was.Name, a.Min, a.Max, now.Name, b.Min, b.Max, now.Name)
}
