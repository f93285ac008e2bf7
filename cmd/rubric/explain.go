package main

import (
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/explain"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) explainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "explain REPORT [--tool NAME | --metric NAME]",
		Short:   "Show the arithmetic of a score, term by term",
		Long:    help("explain"),
		Example: help("explain-example"),
		Args:    oneArg("explain", "the path of a JSON report"),
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := report.Read(args[0])
			if err != nil {
				return err
			}
			r, err := rubrics.OfReport(rep, a.v.GetString("rubric"))
			if err != nil {
				return err
			}
			req, err := explain.NewRequest(a.v.GetString("tool"), a.v.GetString("metric"), a.v.GetString("category"))
			if err != nil {
				return err
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
