package main

import (
	"fmt"
	"net"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/mcpserver"
	"github.com/rubricmcp/rubric/internal/runflags"
)

func (a *app) mcpCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "mcp [--http ADDR]",
		Short:   "Serve rubric as an MCP server: over stdio, or streamable HTTP with --http",
		Example: "  claude mcp add rubric -- rubric mcp\n  rubric mcp --http 127.0.0.1:8765",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			srv, done, err := a.flags(cmd).MCPServer(a.host(), defaultRubric)
			if err != nil {
				return err
			}
			defer done()
			ctx := cmd.Context()
			if addr := a.v.GetString("http"); addr != "" {
				anyAddr := a.v.GetBool("http-any-address")
				if err := loopbackOnly(addr, anyAddr); err != nil {
					return err
				}
				if anyAddr && !isLoopback(addr) {
					fmt.Fprintf(a.stderr, "rubric mcp: warning: %s is reachable from other machines, and anyone who reaches it can have rubric start any command; put a proxy that authenticates in front of it\n", addr)
				}
				return srv.ServeHTTP(ctx, addr, func(at net.Addr) {
					fmt.Fprintf(a.stderr, "rubric mcp: serving streamable HTTP at http://%s%s\n", at, mcpserver.HTTPPath)
				})
			}
			if isatty.IsTerminal(os.Stdin.Fd()) {
				// A person trying the command by hand would otherwise
				// meet a silent wait for JSON-RPC.
				fmt.Fprintln(a.stderr, "rubric mcp: serving MCP over stdio, and stdin is a terminal: an MCP client starts this command itself (claude mcp add rubric -- rubric mcp; see rubric mcp --help), or type JSON-RPC messages one per line; Ctrl-D ends it")
			}
			if err := srv.ServeStdio(ctx, os.Stdin, a.stdout); ctx.Err() == nil {
				return err
			}
			return nil // Ctrl-C or SIGTERM ends a server quietly
		},
	}
	cmd.Flags().String("http", "", "serve streamable HTTP at this address (such as 127.0.0.1:8765) instead of stdio")
	cmd.Flags().Bool("http-any-address", false, "let --http listen on an address other machines reach (its score tool starts any command: put an authenticating proxy in front)")
	cmd.Flags().Int("max-calls", mcpserver.DefaultMaxCalls, "tool calls at work at once; more wait")
	cmd.Flags().Int("max-reports", mcpserver.DefaultMaxReports, "reports kept as resources; the oldest goes first")
	runflags.AddTarget(cmd)
	// Refused when given (Flags.MCPServer): a call's target says how
	// it is read. Hidden, the help does not offer it.
	cmd.Flags().MarkHidden("transport")
	return cmd
}

// isLoopback reports whether addr (host:port) names this machine only:
// localhost or a loopback IP. An empty host is every interface.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loopbackOnly refuses an --http address other machines could reach,
// unless anyAddr: the score tool starts any command it is given, and
// the HTTP transport has no sign-in of its own.
func loopbackOnly(addr string, anyAddr bool) error {
	if anyAddr || isLoopback(addr) {
		return nil
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("--http %s: give a host:port, such as 127.0.0.1:8765", addr)
	}
	return fmt.Errorf("--http %s: other machines could reach it, and rubric mcp's score tool starts any command it is given; listen on a loopback address (127.0.0.1:8765), or pass --http-any-address behind a proxy that authenticates", addr)
}
