package gate

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/rubricmcp/rubric/engine/contract"
	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/report"
)

// WriteText writes r for a terminal: one line per pair, what fell, and
// the decision last, as "PASS: reason".
func WriteText(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "rubric gate · %s %s · base %s · head %s\n", r.Rubric.Name, r.Rubric.Version, revText(r.Base, "none"), revText(r.Head, "working tree"))
	for _, p := range r.Pairs {
		drop := ""
		if p.Drop {
			drop = " · drop"
		}
		fmt.Fprintf(b, "pair %d: %s base %s · head %s%s · %s\n", p.N, r.Rule.Title, textValue(p.Base), textValue(p.Head), drop, callsText(p.Calls))
	}
	if r.Medians != nil {
		fmt.Fprintf(b, "medians over %d pairs: base %s · head %s\n", len(r.Pairs), r.Medians.Base, r.Medians.Head)
	}
	for _, f := range r.Fallen {
		fmt.Fprintf(b, "fell: %s %s -> %s (costs the mean %s)\n", clean(f.Tool), f.Base, f.Head, f.Cost)
		for _, d := range f.Dimensions {
			fmt.Fprintf(b, "  %s %s -> %s: %s\n", clean(d.Name), d.Base, d.Head, clean(d.Justification))
		}
	}
	for _, a := range r.AddedBelow {
		fmt.Fprintf(b, "added below the base's mean: %s %s (costs the mean %s)\n", clean(a.Tool), a.Head, a.Cost)
	}
	writeContractText(b, r.Contract)
	writeLockText(b, r.Lock)
	if c := r.RubricChange; c != nil {
		fmt.Fprintf(b, "rubric: %s\n", clean(c.Note))
	}
	if c := r.JudgeChange; c != nil {
		fmt.Fprintf(b, "judge: %s\n", clean(c.Note))
	}
	if c := r.PolicyChange; c != nil {
		fmt.Fprintf(b, "policy: %s\n", clean(c.Note))
	}
	if c := r.CacheChange; c != nil {
		fmt.Fprintf(b, "cache: %s\n", clean(c.Note))
	}
	if c := r.PluginChange; c != nil {
		fmt.Fprintf(b, "plugins: %s\n", clean(c.Note))
	}
	for _, p := range r.PluginsRefused {
		fmt.Fprintf(b, "plugins: %s\n", clean(p.Note))
	}
	fmt.Fprintf(b, "%s: %s\n", r.Decision, clean(briefReason(r.Reason)))
	return b.Flush()
}

// revText names a side's revision; none is what a side without one is.
func revText(s Side, none string) string {
	if s.Rev == "" {
		return none
	}
	if s.Commit != "" {
		return fmt.Sprintf("%s (%s)", clean(s.Rev), report.ShortHash(s.Commit))
	}
	return clean(s.Rev)
}

// textValue writes a compared value rounded, with its exact form when
// that is short (report.ShortExact), as the score's summary does; the
// gate's JSON keeps it whole.
func textValue(v Value) string {
	if e := report.ShortExact(string(v.Value), v.Exact); e != "" {
		return fmt.Sprintf("%s (exactly %s)", v.Value, e)
	}
	return string(v.Value)
}

func callsText(c report.Calls) string {
	return fmt.Sprintf("%s%s, %d from the cache", report.Plural(c.Model, "call"), c.Refusals(), c.CacheHits)
}

// briefReason is a decision's reason in one line: a reason of several
// lines (a crashed plugin's last words, a Go panic with its stack) is its
// first line, with the panic message or else the first line that follows,
// and says that the whole text is in gate.json. A reason of one line is
// itself.
func briefReason(reason string) string {
	first, rest, ok := strings.Cut(reason, "\n")
	if !ok {
		return reason
	}
	said := ""
	for _, l := range strings.Split(rest, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			said = l
			break
		}
		if said == "" {
			said = l
		}
	}
	first = strings.TrimRight(first, " :")
	if said != "" {
		first += ": " + said
	}
	return first + " (the whole text is the reason in gate.json)"
}

// clean keeps text a server or a judge supplied from moving the cursor.
func clean(s string) string { return report.EscapeControls(s, false) }

// textChanges is the most contract changes the terminal shows; the rest
// are in gate.json and gate.md.
const textChanges = 20

func writeContractText(b *bufio.Writer, c *Contract) {
	if c == nil || len(c.Changes) == 0 {
		return
	}
	fmt.Fprintf(b, "contract: %s\n", countsText(&c.Diff))
	for i, ch := range c.Changes {
		if i == textChanges {
			fmt.Fprintf(b, "  ... and %d more in gate.json\n", len(c.Changes)-i)
			break
		}
		fmt.Fprintf(b, "  %s %s %s: %s\n", ch.Class, clean(toolText(ch)), pathText(ch.Path), clean(ch.Message))
	}
}

// writeLockText writes the head's tools checked against the lock file:
// what differs, as rubric verify prints it, indented.
func writeLockText(b *bufio.Writer, l *Lock) {
	if l == nil {
		return
	}
	if len(l.Changes) == 0 {
		fmt.Fprintf(b, "lock: every tool is as %s locked it\n", clean(l.File))
		return
	}
	fmt.Fprintf(b, "lock: %s from %s\n", lock.Differ(len(l.Changes)), clean(l.File))
	var text strings.Builder
	_ = lock.WriteText(&text, l.Changes)
	for _, line := range strings.Split(strings.TrimSuffix(text.String(), "\n"), "\n") {
		fmt.Fprintf(b, "  %s\n", clean(line))
	}
}

// countsText is the count of d's changes by class.
func countsText(d *contract.Diff) string {
	return fmt.Sprintf("%d breaking · %d risky · %d information · %d compatible", d.Breaking, d.Risky, d.Information, d.Compatible)
}

// toolText names the tool of a change, with its head's name after a
// rename.
func toolText(ch contract.Change) string {
	if ch.HeadTool != "" {
		return ch.Tool + "→" + ch.HeadTool
	}
	return ch.Tool
}

func pathText(p string) string {
	if p == "" {
		return `""`
	}
	return clean(p)
}
