package main

import (
	"fmt"
	"net"
	"os"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/mcpserver"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) mcpCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "mcp [--http ADDR]",
		Short:   "Serve rubric as an MCP server: over stdio, or streamable HTTP with --http",
		Example: "  claude mcp add rubric -- rubric mcp\n  rubric mcp --http 127.0.0.1:8765",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			srv, done, err := a.mcpServer(cmd)
			if err != nil {
				return err
			}
			defer done()
			ctx := cmd.Context()
			if addr := a.v.GetString("http"); addr != "" {
				return srv.ServeHTTP(ctx, addr, func(at net.Addr) {
					fmt.Fprintf(a.stderr, "rubric mcp: serving streamable HTTP at http://%s/mcp\n", at)
				})
			}
			if err := srv.ServeStdio(ctx, os.Stdin, a.stdout); ctx.Err() == nil {
				return err
			}
			return nil // Ctrl-C or SIGTERM ends a server quietly
		},
	}
	cmd.Flags().String("http", "", "serve streamable HTTP at this address (such as 127.0.0.1:8765) instead of stdio")
	cmd.Flags().Int("max-calls", mcpserver.DefaultMaxCalls, "tool calls at work at once; more wait")
	cmd.Flags().Int("max-reports", mcpserver.DefaultMaxReports, "reports kept as resources; the oldest goes first")
	targetFlags(cmd)
	return cmd
}

// mcpServer is the server of the command's flags, on a plugin host of
// its own; done ends the host.
func (a *app) mcpServer(cmd *cobra.Command) (*mcpserver.Server, func(), error) {
	if a.v.GetInt("max-calls") < 1 || a.v.GetInt("max-reports") < 1 {
		return nil, nil, fmt.Errorf("--max-calls and --max-reports must be at least 1 (got %d and %d)", a.v.GetInt("max-calls"), a.v.GetInt("max-reports"))
	}
	_, base, err := a.flags(cmd).Build("", nil)
	if err != nil {
		return nil, nil, err
	}
	plugins, closeHost, err := a.host().Plugins()
	if err != nil {
		return nil, nil, err
	}
	o := mcpserver.Options{
		Run:    run.Options{Plugins: plugins, Version: version(), Log: a.logger()},
		Target: base, DefaultRubric: defaultRubric, Lint: rubrics.Lint,
		Rubrics:    mcpserver.Rubrics{Find: rubrics.Find, Source: rubrics.Source, Builtins: rubrics.Names()},
		MaxReports: a.v.GetInt("max-reports"), MaxCalls: a.v.GetInt("max-calls"),
	}
	if o.Run.Cache, err = a.cacheStore(); err != nil {
		a.logger().Warn("no answer cache", "error", err)
	}
	srv := mcpserver.New(o)
	return srv, func() { srv.Close(); closeHost() }, nil
}
