package main

import (
	"fmt"

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
			if err := onePick(cmd); err != nil {
				return err
			}
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
	cmd.Flags().String("tool", "", "the tool whose score to explain, by its name or as the summary writes it (a hidden character escaped: rd\\u202efile)")
	cmd.Flags().String("metric", "", "the surface metric to explain, such as a Gradable category (legibility), down to its inputs")
	cmd.Flags().String("category", "", "the same as --metric: Gradable calls its surface scores categories")
	cmd.Flags().String("rubric", "", "the rubric the report was scored with (default: the one it names)")
	return cmd
}

// onePick refuses --tool beside --metric or --category on the command
// line: each picks the one score to explain. (Set from the environment
// or the config file, a tool wins: see explain.NewRequest.)
func onePick(cmd *cobra.Command) error {
	f := cmd.Flags()
	if !f.Changed("tool") {
		return nil
	}
	for _, other := range []string{"metric", "category"} {
		if f.Changed(other) {
			return fmt.Errorf("--tool and --%s each pick the one score to explain: give --tool NAME for a tool's score, or --%s NAME for a surface metric, not both", other, other)
		}
	}
	return nil
}
