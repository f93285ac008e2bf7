// Command rubric grades the tool definitions of MCP servers against
// rubrics that are data, not code.
//
// Exit status: 0 success, 1 a score below --fail-under, 2 a usage or input
// error (a bad rubric, an unreadable surface, a formula that failed, a
// server or plugin that failed). A standard output closed early by its
// reader (| head) changes none of these: what is left of it is dropped.
// One that cannot be written otherwise (> /dev/full) is an error, 2.
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
	"os/signal"
	"syscall"

	"github.com/rubricmcp/rubric/internal/cpuprofile"
	"github.com/rubricmcp/rubric/internal/hugepages"
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
		if os.Args[2] == protocol.KindJudge {
			// A judge's heap grows with the tools it is asked about: it
			// is backed by huge pages, as a scoring command's is
			// (adviseHuge).
			hugepages.Advise()
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
	// A reader that closes stdout early (`| head`, `| grep -q`) must not
	// kill rubric before it writes the files its flags name: with SIGPIPE
	// asked for, such a write returns EPIPE, which runflags.Stdout drops.
	// (Notify, not Ignore: an ignored signal would stay ignored in the
	// servers and plugins rubric starts.)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	code := execute(os.Args[1:], &runflags.Stdout{File: os.Stdout}, os.Stderr)
	stop()
	os.Exit(code)
}
