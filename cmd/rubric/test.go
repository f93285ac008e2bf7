package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/rubric"
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
			r, err := rubrics.FindContext(cmd.Context(), args[0])
			// A rubric's tests beside it (NAME_test.hcl) run only with
			// the rubric (NAME.hcl): what naming them asks for.
			var tests *rubric.TestFileError
			if errors.As(err, &tests) && tests.Rubric != "" {
				fmt.Fprintf(a.stderr, "rubric: %s holds the tests of %s: running the tests of %s\n", tests.File, tests.Rubric, tests.Rubric)
				r, err = rubrics.FindContext(cmd.Context(), tests.Rubric)
			}
			if err != nil {
				return err
			}
			if len(r.Tests) == 0 {
				return fmt.Errorf("%s has no tests: add test \"NAME\" { surface = \"...\", expect = { score = ... } } to it", r.File)
			}
			failed, broken, err := rubrictest.Write(a.stdout, r, rubrictest.Run(cmd.Context(), r))
			if err != nil {
				return err
			}
			// The count is on stdout, once: the exit code says the rest. A
			// test that could not run is a broken rubric, as a load error
			// is (exit 2); one that ran and missed is a failed test (1).
			switch {
			case broken > 0:
				return &exitError{code: exitInvalid}
			case failed > 0:
				return &exitError{code: 1}
			}
			return nil
		},
	}
}
