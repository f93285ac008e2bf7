package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/rubrics"
)

func (a *app) rubricsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rubrics",
		Short: "List, show and digest rubrics",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the built-in rubrics",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			bs, err := rubrics.List()
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tVERSION\tTITLE\tDIGEST")
			for _, b := range bs {
				r, err := rubrics.Find(b.Name)
				if err != nil {
					return err
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, r.Version, r.Title, r.Digest)
			}
			return tw.Flush()
		},
	})
	show := &cobra.Command{
		Use:   "show NAME|PATH",
		Short: "Show a rubric's checks, formulas and grades (--source for its text)",
		Args:  oneArg("rubrics show", "a rubric name or path"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if src, _ := cmd.Flags().GetBool("source"); src {
				return a.showSource(args[0])
			}
			r, err := rubrics.Find(args[0])
			if err != nil {
				return err
			}
			return a.showRubric(r)
		},
	}
	show.Flags().Bool("source", false, "print the rubric's HCL text")
	cmd.AddCommand(show)
	cmd.AddCommand(&cobra.Command{
		Use:   "digest NAME|PATH",
		Short: "Print a rubric's digest: the hash of everything that can move a score",
		Args:  oneArg("rubrics digest", "a rubric name or path"),
		RunE: func(_ *cobra.Command, args []string) error {
			r, err := rubrics.Find(args[0])
			if err != nil {
				return err
			}
			fmt.Fprintln(a.stdout, r.Digest)
			return nil
		},
	})
	return cmd
}

func oneArg(cmd, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return fmt.Errorf("%s takes %s, got %d arguments", cmd, what, len(args))
		}
		return nil
	}
}

// showSource prints a rubric's text, found as rubrics.Find finds it (a
// built-in name wins over a file or directory of the same name, unless the
// reference looks like a path), without compiling it.
func (a *app) showSource(ref string) error {
	b, err := rubrics.Source(ref)
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(b)
	return err
}

func (a *app) showRubric(r *rubric.Rubric) error {
	w := a.stdout
	fmt.Fprintf(w, "%s %s", r.Name, r.Version)
	if r.Title != "" {
		fmt.Fprintf(w, " (%s)", r.Title)
	}
	fmt.Fprintf(w, "\ndigest  %s\nfile    %s\n", r.Digest, r.File)
	if r.Description != "" {
		fmt.Fprintf(w, "\n%s\n", r.Description)
	}
	if len(r.Checks) > 0 {
		fmt.Fprintln(w, "\nChecks (per tool):")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  NAME\tPOINTS\tCREDIT\tTITLE")
		for _, c := range r.Checks {
			credit := "pass or fail"
			if c.Each != nil {
				credit = "fraction of items"
			}
			if c.Stop {
				credit += ", stops"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", c.Name, c.Points, credit, c.Title)
		}
		tw.Flush()
	}
	if len(r.Questions) > 0 {
		fmt.Fprintln(w, "\nQuestions (asked of a judge, in order):")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  NAME\tKIND\tPER\tWHEN\tRETRIES\tDIGEST")
		for _, q := range r.Questions {
			when := "always"
			if q.When != nil {
				when = oneLine(q.When.Source)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%d\t%s\n", q.Name, q.Kind, q.Per, when, q.Retries, report.ShortHash(q.Digest))
		}
		tw.Flush()
	}
	if len(r.Tool.Signals) > 0 {
		fmt.Fprintln(w, "\nSignals of each tool (before any question):")
		for _, m := range r.Tool.Signals {
			fmt.Fprintf(w, "  %s = %s\n", m.Name, oneLine(m.Value.Source))
		}
	}
	for _, lv := range []struct {
		name string
		l    rubric.Level
	}{{"tool", r.Tool}, {"surface", r.Surface}} {
		fmt.Fprintf(w, "\nScore of each %s:\n", lv.name)
		for _, m := range lv.l.Metrics {
			fmt.Fprintf(w, "  metric %s = %s\n", m.Name, oneLine(m.Value.Source))
		}
		fmt.Fprintf(w, "  score = %s\n", oneLine(lv.l.Score.Source))
	}
	grades := make([]string, len(r.Grades))
	for i, g := range r.Grades {
		grades[i] = fmt.Sprintf("%s >= %s", g.Letter, g.Min)
	}
	fmt.Fprintf(w, "\nGrades: %s\nShown rounded half up to %d decimal(s).\n", strings.Join(grades, ", "), r.Round)
	if len(r.JudgeLabels) > 0 {
		var labels []string
		for _, k := range slices.Sorted(maps.Keys(r.JudgeLabels)) {
			labels = append(labels, k+" "+r.JudgeLabels[k])
		}
		fmt.Fprintf(w, "Judge labels (in every report's judge block): %s\n", strings.Join(labels, ", "))
	}
	showGate(w, r)
	return nil
}

// showGate prints how rubric gate compares a base and a head with r.
func showGate(w io.Writer, r *rubric.Rubric) {
	g := r.GateRule()
	from := "gate block"
	if !g.Declared {
		from = "no gate block: the default"
	}
	value := "score (the overall score)"
	if g.Value != nil {
		value = oneLine(g.Value.Source)
	}
	fmt.Fprintf(w, "\nGate (rubric gate, base against head; %s):\n", from)
	fmt.Fprintf(w, "  compares  %s = %s, rounded half up to %d decimal(s) once\n", g.Title, value, g.Round)
	if g.Confirm == 0 {
		fmt.Fprintln(w, "  confirms  nothing: the first pair decides")
	} else {
		fmt.Fprintf(w, "  confirms  a drop on the first pair with %s; the medians decide\n", report.Plural(g.Confirm, "more pair"))
	}
	if g.Scores != "" || g.Justifications != "" {
		fmt.Fprintf(w, "  explains  a fallen tool by its %q and %q\n", g.Scores, g.Justifications)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
