package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/rubrics"
)

// versionInfo is what rubric version prints: enough to say which binary
// produced a report and which built-in rubrics it carries, so that a
// score is compared only with scores of the same rubric digest.
type versionInfo struct {
	Version string          `json:"version"`
	Commit  string          `json:"commit"`
	Go      string          `json:"go"`
	Rubrics []versionRubric `json:"rubrics"`
}

type versionRubric struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Digest  string `json:"digest"`
}

func (a *app) versionCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print rubric's version, commit, Go version and the digests of the built-in rubrics",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info := versionInfo{Version: version(), Commit: buildinfo.Commit(), Go: buildinfo.GoVersion()}
			all, err := rubrics.All()
			if err != nil {
				return err
			}
			for _, r := range all {
				info.Rubrics = append(info.Rubrics, versionRubric{Name: r.Name, Version: r.Version, Digest: r.Digest})
			}
			if asJSON, _ := cmd.Flags().GetBool("json"); asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(info)
			}
			fmt.Fprintf(a.stdout, "rubric %s\ncommit:  %s\ngo:      %s\nrubrics:\n", info.Version, info.Commit, info.Go)
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			for _, r := range info.Rubrics {
				fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Name, r.Version, r.Digest)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().Bool("json", false, "print JSON")
	return cmd
}
