// Command rubric grades the tool definitions of MCP servers against
// rubrics that are data, not code.
//
// Exit status: 0 success, 1 a score below --fail-under, 2 a usage or input
// error (a bad rubric, an unreadable surface, a formula that failed, a
// server or plugin that failed).
//
// Built-in judges and transports are this same binary started again with
// the arguments "__serve-plugin KIND NAME" (see builtins.go).
//
// Setting RUBRIC_CPUPROFILE=FILE writes a CPU profile of the run, for the
// benchmarks under bench/, and one of each built-in plugin it starts to
// FILE.KIND-NAME (FILE.judge-heuristic, say).
package main

import (
	"fmt"
	"os"

	"github.com/rubricmcp/rubric/internal/cpuprofile"
	"github.com/rubricmcp/rubric/internal/runflags"
	"github.com/rubricmcp/rubric/plugins/protocol"
	"github.com/rubricmcp/rubric/plugins/sdk"
)

func main() {
	// Started again by itself as a built-in plugin: serve it instead,
	// profiled to FILE.KIND-NAME when RUBRIC_CPUPROFILE=FILE.
	if len(os.Args) == 4 && os.Args[1] == protocol.ServeArg {
		if stop, err := cpuprofile.Start("." + os.Args[2] + "-" + os.Args[3]); err == nil {
			defer stop()
		}
	}
	if sdk.ServeBuiltin(os.Args[1:], builtins) {
		return
	}
	runflags.PreloadRubric(os.Args[1:], defaultRubric) // compiles while the flags are parsed
	stop, err := cpuprofile.Start("")
	if err != nil {
		fmt.Fprintln(os.Stderr, "rubric:", err)
		os.Exit(exitInvalid)
	}
	code := execute(os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
