// Command rubric-transport-file is rubric's built-in file transport as a
// binary of its own, installed beside rubric: rubric starts it to read a
// surface from a file instead of starting its own, much larger, binary
// again, which made that start the larger part of scoring a small file.
// Its imports are the plugin SDK and the file transport, nothing of the
// engine's rubrics, judges or MCP clients.
//
// rubric passes its build (plugins/protocol.BuildEnv); a binary of another
// build refuses to serve and rubric serves the transport itself. Run by
// hand, it says it is a plugin. As rubric's own serving of it does, it
// writes a CPU profile to FILE.transport-file when RUBRIC_CPUPROFILE=FILE.
package main

import (
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/cpuprofile"
	"github.com/rubricmcp/rubric/plugins/protocol"
	"github.com/rubricmcp/rubric/plugins/sdk"
	"github.com/rubricmcp/rubric/plugins/transports/file"
)

// builtin is the file transport as cmd/rubric/builtins.go lists it.
var builtin = protocol.Builtin{
	Name:      "file",
	Leaf:      true,
	Companion: "rubric-transport-file",
	Transport: func() transport.Transport { return file.Transport{} },
}

func main() {
	sdk.AwaitHost() // started ahead by rubric, the environment comes first
	if stop, err := cpuprofile.Start(".transport-file"); err == nil {
		defer stop()
	}
	sdk.ServeCompanion(builtin)
}
