// Package outline writes what a rubric does in words a person reads: its
// checks, questions, signals, the formulas of each level, the grades, the
// judge labels and the gate rule, as rubric rubrics show prints them. It
// reads the rubric's parts generally; it knows no rubric.
package outline

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// Write prints r's outline.
func Write(w io.Writer, r *rubric.Rubric) error {
	fmt.Fprintf(w, "%s %s", r.Name, r.Version)
	if r.Title != "" {
		fmt.Fprintf(w, " (%s)", r.Title)
	}
	fmt.Fprintf(w, "\ndigest  %s\nfile    %s\n", r.Digest, r.File)
	if r.Description != "" {
		fmt.Fprintf(w, "\n%s\n", r.Description)
	}
	if len(r.Weights) > 0 {
		fmt.Fprintln(w, "\nWeights (weights.NAME in formulas):")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  NAME\tVALUE")
		for _, x := range r.Weights {
			fmt.Fprintf(tw, "  %s\t%s\n", x.Name, x.Value)
		}
		tw.Flush()
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
				when = OneLine(q.When.Source)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%d\t%s\n", q.Name, q.Kind, q.Per, when, q.Retries, report.ShortHash(q.Digest))
		}
		tw.Flush()
	}
	if len(r.Tool.Signals) > 0 {
		fmt.Fprintln(w, "\nSignals of each tool (before any question):")
		for _, m := range r.Tool.Signals {
			fmt.Fprintf(w, "  %s = %s\n", m.Name, OneLine(m.Value.Source))
		}
	}
	for _, lv := range []struct {
		name string
		l    rubric.Level
	}{{"tool", r.Tool}, {"surface", r.Surface}} {
		fmt.Fprintf(w, "\nScore of each %s:\n", lv.name)
		for _, m := range lv.l.Metrics {
			fmt.Fprintf(w, "  metric %s = %s\n", m.Name, OneLine(m.Value.Source))
		}
		fmt.Fprintf(w, "  score = %s\n", OneLine(lv.l.Score.Source))
	}
	grades := make([]string, len(r.Grades))
	for i, g := range r.Grades {
		grades[i] = fmt.Sprintf("%s >= %s", g.Letter, g.Min)
	}
	fmt.Fprintf(w, "\nGrades: %s\nShown rounded half away from zero to %s.\n", strings.Join(grades, ", "), report.Plural(r.Round, "decimal"))
	if len(r.JudgeLabels) > 0 {
		var labels []string
		for _, k := range slices.Sorted(maps.Keys(r.JudgeLabels)) {
			labels = append(labels, k+" "+r.JudgeLabels[k])
		}
		fmt.Fprintf(w, "Judge labels (in every report's judge block): %s\n", strings.Join(labels, ", "))
	}
	writeGate(w, r)
	return nil
}

// writeGate prints how rubric gate compares a base and a head with r.
func writeGate(w io.Writer, r *rubric.Rubric) {
	g := r.GateRule()
	from := "gate block"
	if !g.Declared {
		from = "no gate block: the default"
	}
	value := "score (the overall score)"
	if g.Value != nil {
		value = OneLine(g.Value.Source)
	}
	fmt.Fprintf(w, "\nGate (rubric gate, base against head; %s):\n", from)
	fmt.Fprintf(w, "  compares  %s = %s, rounded half away from zero to %s once\n", g.Title, value, report.Plural(g.Round, "decimal"))
	if g.Confirm == 0 {
		fmt.Fprintln(w, "  confirms  nothing: the first pair decides")
	} else {
		fmt.Fprintf(w, "  confirms  a drop on the first pair with %s; the medians decide\n", report.Plural(g.Confirm, "more pair"))
	}
	if g.Scores != "" || g.Justifications != "" {
		fmt.Fprintf(w, "  explains  a fallen tool by its %q and %q\n", g.Scores, g.Justifications)
	}
}

// WriteDiff prints what moves a score between a and b: both digests,
// then each difference (weights first), or "no difference" when the
// digests are equal.
func WriteDiff(w io.Writer, a, b *rubric.Rubric) error {
	fmt.Fprintf(w, "old  %s %s  %s  %s\n", a.Name, a.Version, a.Digest, a.File)
	fmt.Fprintf(w, "new  %s %s  %s  %s\n", b.Name, b.Version, b.Digest, b.File)
	changes := rubric.Diff(a, b)
	if len(changes) == 0 {
		fmt.Fprintln(w, "no difference: the digests are equal, so every score is the same")
		return nil
	}
	// A change that follows another (a check's points, which are its
	// weight) is no difference of its own: it is counted with, and
	// named beside, the one it follows.
	follow := map[string][]string{}
	n := 0
	for _, c := range changes {
		if c.Follows != "" {
			follow[c.Follows] = append(follow[c.Follows], c.Key)
		} else {
			n++
		}
	}
	fmt.Fprintf(w, "%s that can move a score:\n", report.Plural(n, "difference"))
	for _, c := range changes {
		if c.Follows != "" {
			continue
		}
		with := ""
		if keys := follow[c.Key]; len(keys) > 0 {
			with = " (and so " + strings.Join(keys, ", ") + ")"
		}
		switch c.Kind() {
		case "added":
			fmt.Fprintf(w, "  + %s = %s%s\n", c.Key, short(c.New), with)
		case "removed":
			fmt.Fprintf(w, "  - %s = %s%s\n", c.Key, short(c.Old), with)
		default:
			fmt.Fprintf(w, "  ~ %s: %s -> %s%s\n", c.Key, short(c.Old), short(c.New), with)
		}
	}
	return nil
}

// short is a value on one line, cut at 80 characters: a prompt's or a
// schema's text says only that it changed, and how long it is.
func short(v string) string {
	one := OneLine(v)
	if r := []rune(one); len(r) > 80 {
		return fmt.Sprintf("%s... (%d bytes)", string(r[:72]), len(v))
	}
	return one
}

// OneLine is a formula's text on one line.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
