// Command sloppy is an example MCP server whose tools are described badly,
// on purpose: the same in-memory bookmark collection as
// examples/servers/tidy, behind seven tools that carry the defects rubrics
// look for. Names restate behaviour ("get_data": "Gets data."), parameters
// lack types and descriptions, no tool lists what is required, arrays lack
// items and objects lack properties, a JSON document hides in a string
// parameter named data, two tools do the same thing under different names,
// a tool that deletes says nothing about it, and no tool says what it
// returns. The tools still work.
//
// It serves over stdio by default and over streamable HTTP with
// --http ADDR (at /mcp); --page-size N splits tools/list into pages.
// The tool definitions, each with a comment naming its defects, are in
// tools.go.
package main

import (
	"os"

	"github.com/mark3labs/mcp-go/server"

	"github.com/rubricmcp/rubric/examples/servers/internal/serve"
	"github.com/rubricmcp/rubric/examples/servers/internal/store"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run is the whole program; tests re-execute it.
func run(args []string) int {
	return serve.Main(serve.Server{
		Name:     "sloppy",
		Version:  "1.0.0",
		Options:  []server.ServerOption{server.WithRecovery()},
		Register: func(s *server.MCPServer) { s.AddTools(tools(store.Seeded())...) },
	}, args, os.Stdin, os.Stdout, os.Stderr)
}
