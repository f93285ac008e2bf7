package main

import (
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/runflags"
	"github.com/rubricmcp/rubric/plugins/host"
)

// logger returns the log that host messages and plugin stderr go to
// (runflags.Logger). It is made once per invocation.
func (a *app) logger() hclog.Logger {
	if a.log == nil {
		a.log = runflags.Logger(a.v, a.stderr, &a.hidden)
	}
	return a.log
}

func (a *app) pluginsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "List the judges and transports rubric can start",
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List built-in and installed plugins: kind, name, version, where, sha256",
		Long:  strings.ReplaceAll(help("plugins-list"), "{{dirs}}", strings.Join(host.DefaultDirs(), "\n  ")),
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, c, err := a.host().Open()
			if err != nil {
				return err
			}
			defer h.Close()
			failed, err := host.WriteList(a.stdout, a.stderr, h.List(cmd.Context(), c, builtins), a.v.GetBool("json"))
			if err != nil {
				return err
			}
			if failed > 0 {
				return &exitError{code: exitInvalid, msg: report.Plural(failed, "plugin") + " cannot be used"}
			}
			return nil
		},
	}
	list.Flags().Bool("json", false, "print JSON")
	cmd.AddCommand(list)
	return cmd
}
