package gate

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/markdown"
)

// WriteMarkdown writes r as a Markdown summary that fits a CI job
// summary: the decision and why, the pairs, what fell, and the sizes.
func WriteMarkdown(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	esc, code := markdown.Inline, markdown.CellCode
	fmt.Fprintf(b, "## rubric gate: %s\n\n%s\n\n", r.Decision, esc(capital(briefReason(r.Reason))))
	if c := r.RubricChange; c != nil {
		writeCallout(b, c.Used, c.Note)
	}
	if c := r.JudgeChange; c != nil {
		used := c.Used
		if c.HeadAnswers() {
			used = "head" // a warning: the change chose its own answers
		}
		writeCallout(b, used, c.Note)
	}
	if c := r.PolicyChange; c != nil {
		writeCallout(b, c.Used, c.Note)
	}
	if c := r.CacheChange; c != nil {
		writeCallout(b, "base", c.Note) // a note: the gate did not read them
	}
	if c := r.PluginChange; c != nil {
		writeCallout(b, c.Used, c.Note)
	}
	for _, p := range r.PluginsRefused {
		writeCallout(b, "base", p.Note) // a note: the gate did not start it
	}
	fmt.Fprintf(b, "| | base | head |\n|---|---|---|\n")
	fmt.Fprintf(b, "| revision | %s | %s |\n", revCell(r.Base, "none"), revCell(r.Head, "working tree"))
	if r.Base.Hash != "" || r.Head.Hash != "" {
		fmt.Fprintf(b, "| tools/list | %s | %s |\n", surfaceCell(r.Base), surfaceCell(r.Head))
	}
	for _, p := range r.Pairs {
		drop := ""
		if p.Drop {
			drop = " (drop)"
		}
		fmt.Fprintf(b, "| %s, pair %d%s | %s | %s |\n", esc(r.Rule.Title), p.N, drop, textValue(p.Base), textValue(p.Head))
	}
	if r.Medians != nil {
		fmt.Fprintf(b, "| median over %d pairs | **%s** | **%s** |\n", len(r.Pairs), r.Medians.Base, r.Medians.Head)
	}
	if r.Rubric.Name == "" && r.Rule.Value == "" {
		// A gate that could not begin (Usage) loaded no rubric.
		b.WriteString("\nNo rubric was loaded: the gate stopped before it began.")
	} else {
		fmt.Fprintf(b, "\nRubric %s %s (%s); compared: %s = %s, rounded to %s once; %s.",
			code(r.Rubric.Name), esc(r.Rubric.Version), code(report.ShortHash(r.Rubric.Digest)), esc(r.Rule.Title), code(r.Rule.Value), report.Plural(r.Rule.Round, "decimal"), confirmText(r.Rule.Confirm))
	}
	if r.Judge != nil {
		fmt.Fprintf(b, " Judge %s", code(r.Judge.Plugin+" "+r.Judge.Version))
		if noun, names := r.Judge.Answered(); noun != "" {
			fmt.Fprintf(b, " %s %s", noun, code(names))
		}
		if r.Judge.Heuristic {
			b.WriteString(" (a heuristic, not a model)")
		}
		b.WriteString(".")
	}
	b.WriteString("\n")
	writeContractMarkdown(b, r.Contract)
	if err := writeLockMarkdown(b, r.Lock); err != nil {
		return err
	}
	if len(r.Pairs) > 0 {
		writeCallsMarkdown(b, r.Pairs)
	}
	if len(r.Fallen) > 0 {
		fmt.Fprintf(b, "\n### Tools that fell (pair 1)\n\n| tool | base | head | costs the unrounded mean |\n|---|---|---|---|\n")
		for _, f := range r.Fallen {
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", code(f.Tool), f.Base, f.Head, f.Cost)
		}
		for _, f := range r.Fallen {
			if len(f.Dimensions) == 0 {
				continue
			}
			fmt.Fprintf(b, "\n%s:\n\n", code(f.Tool))
			for _, d := range f.Dimensions {
				fmt.Fprintf(b, "- %s %s → %s", code(d.Name), d.Base, d.Head)
				if d.Justification != "" {
					fmt.Fprintf(b, ": %s", esc(d.Justification))
				}
				b.WriteString("\n")
			}
		}
	}
	if len(r.AddedBelow) > 0 {
		fmt.Fprintf(b, "\n### Added tools below the base's mean (pair 1)\n\n| tool | head | costs the unrounded mean |\n|---|---|---|\n")
		for _, a := range r.AddedBelow {
			fmt.Fprintf(b, "| %s | %s | %s |\n", code(a.Tool), a.Head, a.Cost)
		}
	}
	if len(r.Added)+len(r.Removed) > 0 {
		b.WriteString("\n")
		if len(r.Added) > 0 {
			fmt.Fprintf(b, "Added: %s. ", markdown.Codes(r.Added))
		}
		if len(r.Removed) > 0 {
			fmt.Fprintf(b, "Removed: %s.", markdown.Codes(r.Removed))
		}
		b.WriteString("\n")
	}
	if len(r.Information) > 0 {
		b.WriteString("\n### Also lower on pair 1 (information, not the decision)\n\n| value | base | head |\n|---|---|---|\n")
		for _, c := range r.Information {
			fmt.Fprintf(b, "| %s | %s | %s |\n", code(c.Name), c.Base, c.Head)
		}
	}
	if s := r.Sizes; s != nil {
		b.WriteString("\n### Sizes (information, not the decision)\n\n| | base | head | change |\n|---|---|---|---|\n")
		fmt.Fprintf(b, "| description characters | %d | %d | %+d |\n", s.Base.DescriptionChars, s.Head.DescriptionChars, s.Change.DescriptionChars)
		fmt.Fprintf(b, "| tools/list bytes | %d | %d | %+d |\n", s.Base.ToolsListBytes, s.Head.ToolsListBytes, s.Change.ToolsListBytes)
		for _, t := range s.Tools {
			if t.Change != 0 || t.Base == nil || t.Head == nil {
				fmt.Fprintf(b, "| %s bytes | %s | %s | %+d |\n", code(t.Name), size(t.Base), size(t.Head), t.Change)
			}
		}
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(b, "\n> %s\n", esc(warn))
	}
	return b.Flush()
}

// markdownChanges is the most contract changes gate.md shows: a job
// summary has a size limit, and gate.json has them all.
const markdownChanges = 200

// writeContractMarkdown writes the contract diff as a table, the most
// serious changes first, and says whether breaking changes decide.
func writeContractMarkdown(b *bufio.Writer, c *Contract) {
	if c == nil {
		return
	}
	fmt.Fprintf(b, "\n### Contract: %s\n\n", countsText(&c.Diff))
	switch {
	case len(c.Changes) == 0:
		b.WriteString("The tools' contract is unchanged.\n")
		return
	case c.FailOnBreaking:
		b.WriteString("Breaking changes block this gate.\n")
	default:
		b.WriteString("Breaking changes are reported and do not decide (`rubric gate --fail-on-breaking` makes them block).\n")
	}
	b.WriteString("\n| class | tool | change | path | before | after |\n|---|---|---|---|---|---|\n")
	for i, ch := range c.Changes {
		if i == markdownChanges {
			fmt.Fprintf(b, "\n%d more changes are in gate.json.\n", len(c.Changes)-i)
			break
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", ch.Class, markdown.CellCode(toolText(ch)), markdown.Inline(ch.Message),
			markdown.CellCode(ch.Path), jsonCell(ch.Before), jsonCell(ch.After))
	}
}

// writeLockMarkdown writes the head's tools checked against the lock
// file: what differs, as a table and a diff, or that nothing does.
func writeLockMarkdown(b *bufio.Writer, l *Lock) error {
	if l == nil {
		return nil
	}
	if len(l.Changes) == 0 {
		fmt.Fprintf(b, "\n### Lock: every tool is as %s locked it\n", markdown.CellCode(l.File))
		return nil
	}
	fmt.Fprintf(b, "\n### Lock: %s from %s\n\nA tool added, removed or changed since it was locked blocks this gate; if the change is meant, run %s with the gate's server or target, and commit %s.\n\n",
		lock.Differ(len(l.Changes)), markdown.CellCode(l.File), markdown.CellCode(l.Approve()), markdown.CellCode(l.File))
	return lock.WriteMarkdown(b, l.Changes)
}

// jsonCell is a change's value for a table cell, cut to 80 characters.
func jsonCell(v []byte) string {
	if v == nil {
		return ""
	}
	s := []rune(string(v))
	if len(s) > 80 {
		s = append(s[:79], '…')
	}
	return markdown.CellCode(string(s))
}

// revCell names a side's revision; none is what a side without one is
// (the head's working tree, or a base not given).
func revCell(s Side, none string) string {
	if s.Rev == "" {
		return none
	}
	out := markdown.CellCode(s.Rev)
	if s.Commit != "" && !strings.HasPrefix(s.Commit, s.Rev) {
		out += " " + markdown.CellCode(report.ShortHash(s.Commit))
	}
	return out
}

// surfaceCell is a side's surface hash and tool count; "-" when it was
// not exported.
func surfaceCell(s Side) string {
	if s.Hash == "" {
		return "-"
	}
	return fmt.Sprintf("%s · %s", markdown.CellCode(report.ShortHash(s.Hash)), report.Plural(s.ToolCount, "tool"))
}

func size(n *int) string {
	if n == nil {
		return "-"
	}
	return fmt.Sprint(*n)
}

func confirmText(n int) string {
	if n == 0 {
		return "the first pair decides"
	}
	return fmt.Sprintf("a drop on the first pair is confirmed by %s", report.Plural(n, "more pair"))
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// writeCallout writes a change of the head's that the gate did not take
// (used is "base") as a note, and one it had to take as a warning.
func writeCallout(b *bufio.Writer, used, note string) {
	kind := "NOTE"
	if used == "head" {
		kind = "WARNING"
	}
	fmt.Fprintf(b, "> [!%s]\n> %s\n\n", kind, markdown.Inline(capital(note)))
}

// writeCallsMarkdown writes each pair's judge calls; a column of the
// requests the provider refused or never answered (no calls) when a
// pair has any.
func writeCallsMarkdown(b *bufio.Writer, pairs []Pair) {
	refused := false
	for _, p := range pairs {
		refused = refused || p.Calls.RateLimited+p.Calls.Unanswered > 0
	}
	if !refused {
		b.WriteString("\n| pair | calls | from the cache | questions | tokens |\n|---|---|---|---|---|\n")
		for _, p := range pairs {
			fmt.Fprintf(b, "| %d | %d | %d | %d | %d |\n", p.N, p.Calls.Model, p.Calls.CacheHits, p.Calls.Questions, p.Calls.Tokens)
		}
		return
	}
	b.WriteString("\n| pair | calls | from the cache | questions | tokens | refused or never answered by the provider (no calls) |\n|---|---|---|---|---|---|\n")
	for _, p := range pairs {
		fmt.Fprintf(b, "| %d | %d | %d | %d | %d | %d |\n", p.N, p.Calls.Model, p.Calls.CacheHits, p.Calls.Questions, p.Calls.Tokens, p.Calls.RateLimited+p.Calls.Unanswered)
	}
}
