// Command rubric grades the tool definitions of MCP servers against
// rubrics that are data, not code.
//
// Exit status: 0 success, 1 a score below --fail-under, 2 a usage or input
// error (a bad rubric, an unreadable surface, a formula that failed).
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
