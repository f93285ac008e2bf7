package main

import (
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) versionCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print rubric's version, commit, Go version and the digests of the built-in rubrics",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			all, err := rubrics.All()
			if err != nil {
				return err
			}
			var builtIn []buildinfo.Rubric
			for _, r := range all {
				builtIn = append(builtIn, buildinfo.Rubric{Name: r.Name, Version: r.Version, Digest: r.Digest})
			}
			asJSON, _ := cmd.Flags().GetBool("json")
			return buildinfo.Current(builtIn).Write(a.stdout, asJSON)
		},
	}
	cmd.Flags().Bool("json", false, "print JSON")
	return cmd
}
