package main

import (
	"cmp"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/explain"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) explainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "explain REPORT [--tool NAME | --metric NAME]",
		Short: "Show the arithmetic of a score, term by term",
		Long: `Explain reads a JSON report, scores its recorded surface again from the
answers it recorded (no judge is asked), and shows how a score follows from
them: each formula as a one-line reference, what it reads, and each
computation with the values it saw, then each formula it reads in turn,
down to the checks and the answers. With --tool it explains one tool's
score; with --metric (or --category) one surface metric; without either,
the overall score. A report whose recorded values its observations do not
give is said to be edited or damaged, and explain exits 1.`,
		Example: `  rubric explain report.json --tool create_issue
  rubric explain report.json --category legibility
  rubric explain report.json`,
		Args: oneArg("explain", "the path of a JSON report"),
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := report.Read(args[0])
			if err != nil {
				return err
			}
			r, err := rubrics.OfReport(rep, a.v.GetString("rubric"))
			if err != nil {
				return err
			}
			req := explain.Request{Tool: a.v.GetString("tool")}
			metric, category := a.v.GetString("metric"), a.v.GetString("category")
			if metric != "" && category != "" && metric != category {
				return fmt.Errorf("--metric %q and --category %q name two metrics (one may come from RUBRIC_METRIC or RUBRIC_CATEGORY): give one", metric, category)
			}
			if req.Tool == "" {
				req.Metric = cmp.Or(metric, category)
			}
			return explain.Write(cmd.Context(), a.stdout, r, rep, req)
		},
	}
	cmd.Flags().String("tool", "", "the tool whose score to explain")
	cmd.Flags().String("metric", "", "the surface metric to explain, such as a Gradable category (legibility), down to its inputs")
	cmd.Flags().String("category", "", "the same as --metric: Gradable calls its surface scores categories")
	cmd.MarkFlagsMutuallyExclusive("tool", "metric", "category")
	cmd.Flags().String("rubric", "", "the rubric the report was scored with (default: the one it names)")
	return cmd
}
