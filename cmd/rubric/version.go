package main

import (
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) versionCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print rubric's version, commit, Go version and the digests of the built-in rubrics",
		Args:  noArgs,
		// What this binary is, whatever rubric.yaml holds.
		Annotations: map[string]string{noConfigAnnotation: "true"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			info, err := rubrics.BuildInfo()
			if err != nil {
				return err
			}
			asJSON, _ := cmd.Flags().GetBool("json")
			return info.Write(a.stdout, asJSON)
		},
	}
	cmd.Flags().Bool("json", false, "print JSON")
	return cmd
}
