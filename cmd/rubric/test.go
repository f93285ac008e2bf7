package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/internal/rubrictest"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) testCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "test NAME|PATH",
		Short:   "Run a rubric's own test cases (its test blocks); exit 1 on any failure",
		Long:    help("test"),
		Example: help("test-example"),
		Args:    oneArg("test", "a rubric name or path"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := rubrics.Find(args[0])
			if err != nil {
				return err
			}
			if len(r.Tests) == 0 {
				return fmt.Errorf("%s has no tests: add test \"NAME\" { surface = \"...\", expect = { score = ... } } to it", r.File)
			}
			failed := 0
			for _, res := range rubrictest.Run(cmd.Context(), r) {
				if res.Passed() {
					fmt.Fprintf(a.stdout, "ok    %s\n", res.Test.Name)
					continue
				}
				failed++
				fmt.Fprintf(a.stdout, "FAIL  %s (%s:%d)\n", res.Test.Name, res.Test.File, res.Test.Line)
				if res.Err != nil {
					fmt.Fprintf(a.stdout, "  could not run: %v\n", res.Err)
				}
				for _, f := range res.Failures {
					fmt.Fprintf(a.stdout, "  %s:%d: %s: want %s, got %s\n", res.Test.File, f.Line, f.Path, f.Want, f.Got)
				}
			}
			fmt.Fprintf(a.stdout, "%d of %d tests of %s %s failed\n", failed, len(r.Tests), r.Name, r.Version)
			if failed > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("%d of %d tests failed", failed, len(r.Tests))}
			}
			return nil
		},
	}
}
