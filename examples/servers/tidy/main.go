// Command tidy is an example MCP server whose tools are described well: a
// bookmark collection kept in memory, with seven tools that each carry a
// title, a description naming the action, when to use a sibling instead,
// the side effects and the result, all four annotation hints, an output
// schema, and an input schema where every parameter is typed, described
// and bounded. rubric's Schema Quality rubric gives it 100.
//
// It serves over stdio by default and over streamable HTTP with
// --http ADDR (at /mcp); --page-size N splits tools/list into pages.
//
// Its twin, examples/servers/sloppy, offers the same collection with the
// defects rubrics look for. The tool definitions are in tools.go.
package main

import (
	"os"

	"github.com/mark3labs/mcp-go/server"

	"github.com/rubricmcp/rubric/examples/servers/internal/serve"
	"github.com/rubricmcp/rubric/examples/servers/internal/store"
)

const instructions = "A bookmark collection kept in memory for this session. " +
	"Find bookmarks with search_bookmarks, read one with get_bookmark, " +
	"save new ones with create_bookmark, and change them with update_bookmark, tag_bookmarks or delete_bookmark. " +
	"Nothing leaves the server and nothing survives a restart."

func main() {
	os.Exit(run(os.Args[1:]))
}

// run is the whole program; tests re-execute it.
func run(args []string) int {
	return serve.Main(serve.Server{
		Name:    "tidy",
		Version: "1.0.0",
		Options: []server.ServerOption{
			server.WithInstructions(instructions),
			server.WithInputSchemaValidation(),
			server.WithOutputSchemaValidation(),
			server.WithRecovery(),
		},
		Register: func(s *server.MCPServer) { s.AddTools(tools(store.Seeded())...) },
	}, args, os.Stdin, os.Stdout, os.Stderr)
}
