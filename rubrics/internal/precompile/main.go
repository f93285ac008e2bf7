// Command precompile writes what package rubrics embeds of its built-in
// rubrics compiled (go generate ./rubrics runs it): the table of their
// formulas, so that a rubric starts without parsing and type-checking
// them, and the index of their names, versions, titles and digests, so
// that rubric rubrics list compiles nothing.
package main

import (
	"fmt"
	"os"

	"github.com/rubricmcp/rubric/rubrics"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: precompile TABLE INDEX (go generate ./rubrics runs it)")
		os.Exit(2)
	}
	table, index, err := rubrics.Generate()
	if err == nil {
		err = os.WriteFile(os.Args[1], table, 0o644)
	}
	if err == nil {
		err = os.WriteFile(os.Args[2], index, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "precompile:", err)
		os.Exit(1)
	}
}
