// Package text writes a report as a short summary for a terminal.
//
// The summary has a header line (rubric name and version, target, tool
// count), the overall grade and score, a table of the tools (lowest score
// first) and a fix list: every issue of every tool, ordered by the points
// it costs the tool, most first, and capped by Options.MaxIssues.
//
// The points an issue costs are its check's points times the credit the
// tool missed on that check, plus the points of the checks it stopped
// (a failed check with stop = true skips the checks after it).
//
// Names and messages come from the server being scored: control
// characters in them, terminal escapes included, are written as visible
// escapes (\n, \x1b), so a report cannot move the cursor or change colours.
// Grades are coloured with plain ANSI escapes only when Options.Color is
// set; ColorEnabled says whether a file should get colour.
package text

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/mattn/go-isatty"
	"golang.org/x/term"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
)

// Options tune the summary.
type Options struct {
	// Color colours the grades with ANSI escapes (A green, B cyan,
	// C yellow, D and F red). Use ColorEnabled to decide.
	Color bool
	// Width is the width of the terminal in columns: longer fix-list lines
	// wrap and long tool names are cut to fit the table. 0 means no limit.
	Width int
	// MaxIssues caps the fix list; the rest are counted in a last line.
	// 0 means no cap.
	MaxIssues int
	// MaxTools caps the table of tools, which lists the worst first; the
	// rest are counted in a last line. 0 means no cap.
	MaxTools int
}

// ColorEnabled reports whether output to f should be coloured: f is a
// terminal, NO_COLOR is not set to a non-empty value (https://no-color.org)
// and TERM is not "dumb".
func ColorEnabled(f *os.File) bool {
	if f == nil {
		return false
	}
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(f.Fd())
}

// TerminalWidth is the width of the terminal f writes to, in columns: the
// COLUMNS variable when it holds a positive number, else what the terminal
// says; 0 (no wrapping) when f is not a terminal.
func TerminalWidth(f *os.File) int {
	if f == nil || !isTerminal(f.Fd()) {
		return 0
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
		return w
	}
	return 0
}

// isTerminal is a variable so that tests can stand in for a terminal.
var isTerminal = func(fd uintptr) bool {
	return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
}

// The colour escapes all have the same length, so that a table column
// whose every cell is wrapped in one stays aligned (see gradeCell).
const (
	green   = "\x1b[32m"
	cyan    = "\x1b[36m"
	yellow  = "\x1b[33m"
	red     = "\x1b[31m"
	plain   = "\x1b[39m" // the default foreground
	reset   = "\x1b[0m"
	minCols = 12 // the narrowest a tool name is cut to
)

func gradeColor(g string) string {
	switch g {
	case "A":
		return green
	case "B":
		return cyan
	case "C":
		return yellow
	case "D", "F":
		return red
	}
	return plain
}

// Write writes r to w as a terminal summary.
func Write(w io.Writer, r *report.Report, opt Options) error {
	if r == nil {
		return fmt.Errorf("write summary: no report to write")
	}
	tools, err := report.ToolsWorstFirst(r.Tools)
	if err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	fixes, err := fixList(r)
	if err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	b := bufio.NewWriter(w)
	grade := func(g string) string {
		if !opt.Color {
			return clean(g)
		}
		return gradeColor(g) + clean(g) + reset
	}

	head := []string{clean(r.Rubric.Name + " " + r.Rubric.Version)}
	if r.Target != "" {
		head = append(head, clean(r.Target))
	}
	head = append(head, report.Plural(r.Surface.ToolCount, "tool"))
	b.WriteString(strings.Join(head, " · ") + "\n")

	switch why := r.Unscored(); {
	case !r.Complete:
		b.WriteString("Scoring did not finish; there is no score.\n")
	case why != "":
		fmt.Fprintf(b, "No score: %s.\n", clean(why))
	default:
		var g string
		if r.Grade != nil {
			g = *r.Grade
		}
		fmt.Fprintf(b, "Grade %s · score %s", grade(g), clean(r.Score.String()))
		if r.Exact != nil && !report.SameNumber(r.Score.String(), *r.Exact) {
			fmt.Fprintf(b, " (exactly %s)", clean(*r.Exact))
		}
		b.WriteString("\n")
	}
	writeSections(b, r.Sections)
	if j := r.Judge; j != nil {
		fmt.Fprintf(b, "Judge %s\n", clean(judgeLine(j, r.Calls)))
	}
	for _, w := range r.ShownWarnings() {
		fmt.Fprintf(b, "warning: %s\n", clean(w))
	}

	if len(tools) > 0 {
		b.WriteString("\n")
		shown := tools
		if opt.MaxTools > 0 && len(shown) > opt.MaxTools {
			shown = shown[:opt.MaxTools]
		}
		writeTable(b, shown, opt)
		if n := len(tools) - len(shown); n > 0 {
			what := "tools"
			if n == 1 {
				what = "tool"
			}
			fmt.Fprintf(b, "… and %d more %s, better scored (all of them in --format json)\n", n, what)
		}
		b.WriteString("\n")
		if len(fixes) == 0 {
			b.WriteString("No issues: every tool passes every check.\n")
		} else {
			writeFixes(b, fixes, r.Rubric.Round, opt)
		}
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	return nil
}

func writeTable(w io.Writer, tools []report.Tool, opt Options) {
	scoreW, issuesW, gradeW := len("SCORE"), len("ISSUES"), len("GRADE")
	for _, t := range tools {
		scoreW = max(scoreW, utf8.RuneCountInString(t.Score.String()))
		issuesW = max(issuesW, len(strconv.Itoa(len(t.Issues))))
		gradeW = max(gradeW, utf8.RuneCountInString(clean(t.Grade)))
	}
	nameW := 0
	if opt.Width > 0 {
		// The three other columns and the padding after each column.
		nameW = max(minCols, opt.Width-(2+scoreW+2+gradeW+2+issuesW))
	}
	gradeCell := func(g, color string) string {
		if !opt.Color {
			return g
		}
		return color + g + reset
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "TOOL\t%*s\t%s\t%*s\n", scoreW, "SCORE", gradeCell("GRADE", plain), issuesW, "ISSUES")
	for _, t := range tools {
		fmt.Fprintf(tw, "%s\t%*s\t%s\t%*d\n", cut(clean(t.Name), nameW), scoreW, clean(t.Score.String()),
			gradeCell(clean(t.Grade), gradeColor(t.Grade)), issuesW, len(t.Issues))
	}
	tw.Flush()
}

// fix is one issue of one tool and the points it costs the tool.
type fix struct {
	tool   string
	issue  report.Issue
	lost   num.Num
	points num.Num
}

// fixList returns every issue, the costliest first.
func fixList(r *report.Report) ([]fix, error) {
	var fixes []fix
	for _, t := range r.Tools {
		for _, is := range t.Issues {
			lost, points, err := cost(t, is)
			if err != nil {
				return nil, fmt.Errorf("tool %q, check %q: %w; the report is damaged, score the surface again", t.Name, is.Check, err)
			}
			fixes = append(fixes, fix{tool: t.Name, issue: is, lost: lost, points: points})
		}
	}
	sort.SliceStable(fixes, func(i, j int) bool {
		a, b := fixes[i], fixes[j]
		if c := a.lost.Cmp(b.lost); c != 0 {
			return c > 0
		}
		if c := a.points.Cmp(b.points); c != 0 {
			return c > 0
		}
		if a.tool != b.tool {
			return a.tool < b.tool
		}
		return a.issue.Check < b.issue.Check
	})
	return fixes, nil
}

// cost is the points an issue costs its tool: the check's points times the
// credit missed, plus the points of the checks it stopped.
func cost(t report.Tool, is report.Issue) (lost, points num.Num, err error) {
	points, err = num.Parse(is.Points)
	if err != nil {
		return lost, points, fmt.Errorf("points: %w", err)
	}
	for i, c := range t.Checks {
		if c.Name != is.Check {
			continue
		}
		credit, err := num.Parse(c.Credit)
		if err != nil {
			return lost, points, fmt.Errorf("credit: %w", err)
		}
		lost = points.Mul(num.One.Sub(credit))
		for _, next := range t.Checks[i+1:] {
			if !next.Skipped {
				break
			}
			p, err := num.Parse(next.Points)
			if err != nil {
				return lost, points, fmt.Errorf("points of %q: %w", next.Name, err)
			}
			lost = lost.Add(p)
		}
		return lost, points, nil
	}
	return points, points, nil
}

func writeFixes(w io.Writer, fixes []fix, round int, opt Options) {
	shown := fixes
	if opt.MaxIssues > 0 && len(shown) > opt.MaxIssues {
		shown = shown[:opt.MaxIssues]
	}
	fmt.Fprintln(w, "Fix list, most points lost first:")
	lostW := 0
	for _, f := range shown {
		lostW = max(lostW, len(f.lost.Neg().Decimal(round)))
	}
	for _, f := range shown {
		prefix := fmt.Sprintf("  %*s  ", lostW, f.lost.Neg().Decimal(round))
		line := clean(f.tool) + ": " + clean(f.issue.Message)
		fmt.Fprint(w, wrap(prefix, line, opt.Width))
	}
	if n := len(fixes) - len(shown); n > 0 {
		fmt.Fprintf(w, "  … and %d more\n", n)
	}
}

// wrap writes prefix and s, breaking s at spaces so that no line is wider
// than width (when width > 0); continuation lines are indented as wide as
// prefix. A word wider than the room left stands on a line of its own.
func wrap(prefix, s string, width int) string {
	indent := strings.Repeat(" ", utf8.RuneCountInString(prefix))
	room := width - len(indent)
	if width <= 0 || room < minCols {
		return prefix + s + "\n"
	}
	var b strings.Builder
	b.WriteString(prefix)
	used := 0
	for _, word := range strings.Fields(s) {
		n := utf8.RuneCountInString(word)
		switch {
		case used == 0:
		case used+1+n > room:
			b.WriteString("\n" + indent)
			used = 0
		default:
			b.WriteByte(' ')
			used++
		}
		b.WriteString(word)
		used += n
	}
	b.WriteString("\n")
	return b.String()
}

// cut shortens s to n runes, ending it with "…"; n <= 0 means no limit.
func cut(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// clean writes control characters as visible escapes: \n, \r, \t, \xNN
// and \uNNNN.
func clean(s string) string { return report.EscapeControls(s, false) }

// judgeLine says who answered, and what the answers cost.
func judgeLine(j *report.Judge, c report.Calls) string {
	who := j.Plugin + " " + j.Version
	if j.Model != "" {
		who += " · model " + j.Model
	}
	if j.Heuristic {
		who += " (a heuristic, not a model)"
	}
	if j.CLI != "" {
		who += " · " + j.CLI + " " + j.CLIVersion
	}
	return who + " · " + c.Summary()
}

// maxSectionText is the most of a section's text value shown (the JSON
// report has all of it).
const maxSectionText = 60

// writeSections writes the scalar members of a rubric's own report
// sections, such as a server summary, a few to a line.
func writeSections(b *bufio.Writer, sections []report.Field) {
	for _, sec := range sections {
		var parts []string
		for _, nv := range sec.Scalars() {
			text := nv[1]
			if r := []rune(text); len(r) > maxSectionText {
				text = string(r[:maxSectionText-1]) + "…"
			}
			parts = append(parts, nv[0]+" "+text)
		}
		for i := 0; i < len(parts); i += 4 {
			label := clean(sec.Name) + ":"
			if i > 0 {
				label = strings.Repeat(" ", len(label))
			}
			fmt.Fprintf(b, "%s %s\n", label, clean(strings.Join(parts[i:min(i+4, len(parts))], " · ")))
		}
	}
}
