package main

import (
	"fmt"
	"net"
	"os"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/mcpserver"
	"github.com/rubricmcp/rubric/internal/runflags"
)

func (a *app) mcpCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "mcp [--http ADDR]",
		Short:   "Serve rubric as an MCP server: over stdio, or streamable HTTP with --http",
		Example: "  claude mcp add rubric -- rubric mcp\n  rubric mcp --http 127.0.0.1:8765",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			srv, done, err := a.flags(cmd).MCPServer(a.host(), defaultRubric)
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
	runflags.AddTarget(cmd)
	return cmd
}
