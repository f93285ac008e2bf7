// Package serve runs an example MCP server as a process: the flags, the
// choice between stdio and streamable HTTP, and a clean exit on a signal or
// on the end of standard input. Both example servers share it, so they
// differ only in their tools.
package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// Path is where the HTTP transport serves MCP.
const Path = "/mcp"

// Server says what to run.
type Server struct {
	Name    string // server name reported by initialize, also the program name
	Version string // server version reported by initialize
	// Options are passed to server.NewMCPServer after the ones Main adds.
	Options []server.ServerOption
	// Register adds the tools to a freshly made server.
	Register func(*server.MCPServer)
}

// Main parses args (without the program name), builds the server and
// serves it over stdio on stdin and stdout, or over streamable HTTP when
// --http is given. It returns the process exit status: 0 after a signal
// (SIGINT, SIGTERM) or the end of standard input, 2 for bad flags, 1 for
// any other failure. Diagnostics go to stderr.
func Main(srv Server, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(srv.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "serve streamable HTTP on this address (such as 127.0.0.1:3001, or port 0 for any free port) at "+Path+", instead of stdio")
	pageSize := fs.Int("page-size", 0, "tools per tools/list page (0: all tools on one page)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s [--http ADDR] [--page-size N]\n\n", srv.Name)
		fmt.Fprintf(stderr, "Serves the %s example MCP server over stdio, or over streamable HTTP with --http.\n\n", srv.Name)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", srv.Name, fs.Arg(0))
		fs.Usage()
		return 2
	}
	if *pageSize < 0 {
		fmt.Fprintf(stderr, "%s: --page-size must be 0 or more, got %d\n", srv.Name, *pageSize)
		return 2
	}

	opts := []server.ServerOption{server.WithToolCapabilities(false)}
	if *pageSize > 0 {
		opts = append(opts, server.WithPaginationLimit(*pageSize))
	}
	s := server.NewMCPServer(srv.Name, srv.Version, append(opts, srv.Options...)...)
	srv.Register(s)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var err error
	if *httpAddr != "" {
		err = serveHTTP(ctx, s, srv.Name, *httpAddr, stderr)
	} else {
		err = serveStdio(ctx, s, srv.Name, stdin, stdout, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", srv.Name, err)
		return 1
	}
	return 0
}

// serveStdio serves until stdin ends or ctx is cancelled; both are a clean
// end.
func serveStdio(ctx context.Context, s *server.MCPServer, name string, stdin io.Reader, stdout, stderr io.Writer) error {
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(stderr, name+": ", 0))
	err := stdio.Listen(ctx, stdin, stdout)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// serveHTTP listens on addr, says where on stderr (so a caller that asked
// for port 0 can find it), and serves until ctx is cancelled.
func serveHTTP(ctx context.Context, s *server.MCPServer, name, addr string, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mcpHandler := server.NewStreamableHTTPServer(s,
		server.WithEndpointPath(Path),
		server.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(stderr, nil))),
	)
	mux := http.NewServeMux()
	mux.Handle(Path, mcpHandler)
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(stderr, name+": http: ", 0),
	}
	fmt.Fprintf(stderr, "%s: listening on http://%s%s\n", name, ln.Addr(), Path)

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	mcpHandler.CloseSessions(shutdown)
	if err := hs.Shutdown(shutdown); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
