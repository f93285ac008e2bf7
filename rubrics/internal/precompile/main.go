// Command precompile writes the table of the built-in rubrics' compiled
// formulas that package rubrics embeds (go generate ./rubrics runs it):
// a rubric then starts without parsing and type-checking its formulas.
package main

import (
	"fmt"
	"os"

	"github.com/rubricmcp/rubric/rubrics"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: precompile FILE (go generate ./rubrics runs it)")
		os.Exit(2)
	}
	table, err := rubrics.CompileTable()
	if err == nil {
		err = os.WriteFile(os.Args[1], table, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "precompile:", err)
		os.Exit(1)
	}
}
