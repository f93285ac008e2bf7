package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric/outline"
	"github.com/rubricmcp/rubric/internal/words"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) rubricsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rubrics",
		Short: "List, show, diff and digest rubrics, and list the functions formulas may call",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the built-in rubrics",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return rubrics.WriteList(a.stdout)
		},
	})
	show := &cobra.Command{
		Use:   "show NAME|PATH",
		Short: "Show a rubric's checks, formulas and grades (--source for its text)",
		Args:  oneArg("rubrics show", "a rubric name or path"),
		RunE: func(cmd *cobra.Command, args []string) error {
			// --source: its text, found as rubrics.Find finds it, not
			// compiled; --flat: with its extends resolved.
			src, _ := cmd.Flags().GetBool("source")
			flat, _ := cmd.Flags().GetBool("flat")
			if src && flat {
				return errors.New("--source prints the rubric as written, --flat with its extends resolved: give one of them")
			}
			if src {
				return a.print(rubrics.SourceContext(cmd.Context(), args[0]))
			}
			if flat {
				return a.print(rubrics.FlatContext(cmd.Context(), args[0]))
			}
			r, err := rubrics.FindContext(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			return outline.Write(a.stdout, r)
		},
	}
	show.Flags().Bool("source", false, "print the rubric's HCL text")
	show.Flags().Bool("flat", false, "print the rubric with its extends resolved, as one HCL file (its digest is the rubric's)")
	cmd.AddCommand(show)
	cmd.AddCommand(&cobra.Command{
		Use:   "digest NAME|PATH",
		Short: "Print a rubric's digest: the hash of everything that can move a score",
		Args:  oneArg("rubrics digest", "a rubric name or path"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := rubrics.FindContext(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			fmt.Fprintln(a.stdout, r.Digest)
			return nil
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "functions",
		Short: "List the functions formulas may call, beyond CEL's standard library",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return lang.WriteFunctions(a.stdout)
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "diff A B",
		Short: "List what moves a score between two rubrics (names or paths): weights, formulas, prompts, schemas, grades",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return fmt.Errorf("rubrics diff takes two rubrics, a name or a path each, got %s", words.Count(len(args), "argument"))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			old, err := rubrics.FindContext(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			changed, err := rubrics.FindContext(cmd.Context(), args[1])
			if err != nil {
				return err
			}
			return outline.WriteDiff(a.stdout, old, changed)
		},
	})
	return cmd
}

func oneArg(cmd, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return fmt.Errorf("%s takes %s, got %s", cmd, what, words.Count(len(args), "argument"))
		}
		return nil
	}
}

// print writes b to standard output, unless err says there is none.
func (a *app) print(b []byte, err error) error {
	if err == nil {
		_, err = a.stdout.Write(b)
	}
	return err
}
