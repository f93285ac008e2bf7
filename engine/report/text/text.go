// Package text writes a report as a short summary for a terminal.
//
// The summary has a header line (rubric name and version, target, tool
// count), the overall grade and score, a table of the tools (lowest score
// first) and a fix list: every issue of every tool, ordered by what
// fixing it would gain, largest first (see report.FixList), in the unit
// the rubric names once in the list's header, and capped by
// Options.MaxIssues.
//
// Names and messages come from the server being scored, or from a report
// file anyone could have edited: every text is made printable
// (report.EscapeControls, as every writer shows them: escape sequences,
// NUL bytes, bidirectional controls and other invisible characters are
// shown as \x1b or \u202e, never sent to the terminal), line breaks inside it become
// spaces, and long texts are cut with an ellipsis, so that no line a
// summary prints is unbounded. Grades are coloured with plain ANSI
// escapes only when Options.Color is set; ColorEnabled says whether a
// file should get colour.
package text

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/mattn/go-isatty"
	"golang.org/x/term"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
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
	// FailUnder is the --fail-under bound, for the formats that mark
	// each tool below it (JUnit); nil for none.
	FailUnder *rubric.Threshold
	// SARIFCategory is --sarif-category: the GitHub code scanning
	// category the SARIF writer gives its runs (sarif.Options.Category);
	// empty keeps rubric's own, one per rubric and server.
	SARIFCategory string
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
	fixes, err := r.FixList()
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
		// A score below every grade band has none: say so, rather than
		// "Grade  · score 25.0" with a gap where the grade goes.
		if r.Grade != nil && *r.Grade != "" {
			fmt.Fprintf(b, "Grade %s · score %s", grade(*r.Grade), clean(r.Score.String()))
		} else {
			fmt.Fprintf(b, "No grade · score %s", clean(r.Score.String()))
		}
		if r.Exact != nil {
			if e := report.ShortExact(r.Score.String(), *r.Exact); e != "" {
				fmt.Fprintf(b, " (exactly %s)", clean(e))
			}
		}
		if r.Grade == nil || *r.Grade == "" {
			b.WriteString(", below every grade the rubric sets")
		}
		b.WriteString("\n")
	}
	for _, n := range r.Notes {
		fmt.Fprintf(b, "note: %s\n", cut(clean(n), maxText))
	}
	writeSections(b, r.Sections, opt.Width)
	if j := r.Judge; j != nil {
		fmt.Fprintf(b, "Judge %s\n", clean(judgeLine(j, r.Calls)))
	}
	for _, w := range r.ShownWarnings() {
		fmt.Fprintf(b, "warning: %s\n", cut(clean(w), maxText))
	}

	if len(tools) > 0 {
		b.WriteString("\n")
		shown := tools
		if opt.MaxTools > 0 && len(shown) > opt.MaxTools {
			shown = shown[:opt.MaxTools]
		}
		writeTable(b, shown, opt)
		if n := len(tools) - len(shown); n > 0 {
			// The tools left out score at least as well as the last one
			// shown, often the same (a long run of 100.0): "better
			// scored" was false of those.
			low, high := tools[len(shown)].Score.String(), tools[len(tools)-1].Score.String()
			what := "tools, each scored " + low
			switch {
			case n == 1:
				what = "tool, scored " + low
			case low != high:
				what = "tools, each scored at least " + low
			}
			b.WriteString(wrap("", fmt.Sprintf("… and %d more %s (--max-rows 0 lists them all)", n, clean(what)), opt.Width))
		}
		b.WriteString("\n")
		if len(fixes) == 0 {
			b.WriteString("No issues: every tool passes every check.\n")
		} else {
			writeFixes(b, r, fixes, opt)
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
	nameW := maxName
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
		fmt.Fprintf(tw, "%s\t%*s\t%s\t%*d\n", cut(report.ShownName(t.Name), nameW), scoreW, clean(t.Score.String()),
			gradeCell(clean(t.Grade), gradeColor(t.Grade)), issuesW, len(t.Issues))
	}
	tw.Flush()
}

func writeFixes(w io.Writer, r *report.Report, fixes []report.Fix, opt Options) {
	groups := report.GroupFixes(fixes)
	shown := groups
	if opt.MaxIssues > 0 && len(shown) > opt.MaxIssues {
		shown = shown[:opt.MaxIssues]
	}
	fmt.Fprint(w, wrap("", cut(clean("Fix list "+r.GroupOrder(shown)), maxText)+":", opt.Width))
	totals := report.Totals(shown)
	gd, md := report.GainDigits(totals, r.Rubric.Round), report.MovesDigits(r.Rubric.Round)
	gainW, movesW := 0, 0
	for _, f := range totals {
		gainW = max(gainW, len(report.Signed(f.Gain, gd)))
		if f.HasMoves {
			movesW = max(movesW, len(report.Signed(f.Moves, md)))
		}
	}
	for i, g := range shown {
		prefix := fmt.Sprintf("  %*s  ", gainW, report.Signed(totals[i].Gain, gd))
		if movesW > 0 {
			moves := ""
			if g.HasMoves {
				moves = report.Signed(g.Moves, md)
			}
			prefix += fmt.Sprintf("%*s  ", movesW, moves)
		}
		fmt.Fprint(w, wrap(prefix, groupLine(g), opt.Width))
	}
	if n := len(groups) - len(shown); n > 0 {
		fmt.Fprint(w, wrap("  ", fmt.Sprintf("… and %d more %s (--max-issues 0 lists them all)", n, map[bool]string{true: "cause", false: "causes"}[n == 1]), opt.Width))
	}
}

// maxGroupTools is how many tools a line of the fix list names; the rest
// are counted.
const maxGroupTools = 12

// groupLine writes one cause: a single tool's issue as "tool: message",
// a cause of several tools as "17 tools: cause: a (x), b (y), ...".
func groupLine(g report.FixGroup) string {
	tools := g.ByTool()
	if len(tools) == 1 {
		f := tools[0].First
		return cut(report.ShownName(f.Tool), maxName) + ": " + cut(clean(f.Issue.Message), maxText) + tools[0].Alike()
	}
	names := make([]string, 0, min(len(tools), maxGroupTools)+1)
	for i, t := range tools {
		if i == maxGroupTools {
			names = append(names, fmt.Sprintf("and %d more", len(tools)-i))
			break
		}
		names = append(names, toolAndParams(t.First)+t.Times())
	}
	return report.Plural(len(tools), "tool") + ": " + cut(clean(g.Cause), maxText) + ": " + strings.Join(names, ", ")
}

// toolAndParams names a fix's tool and the parameters its issue names,
// in about maxName characters: as many parameters as fit, then how many
// more, inside the parentheses. Cut as one string, the list lost its
// closing parenthesis, and the next tool read as one of its parameters:
// "edit_block (content, …, force_terminate (pid)".
func toolAndParams(f report.Fix) string {
	name := cut(report.ShownName(f.Tool), maxName)
	if len(f.Issue.Params) == 0 {
		return name
	}
	room := max(maxName-utf8.RuneCountInString(name)-len(" ()"), minCols)
	params := make([]string, len(f.Issue.Params))
	for i, p := range f.Issue.Params {
		params[i] = cut(clean(p), room)
	}
	if all := strings.Join(params, ", "); utf8.RuneCountInString(all) <= room {
		return name + " (" + all + ")"
	}
	// The first parameter always, then each that leaves room for the count
	// of those after it.
	shown, used := params[:1], utf8.RuneCountInString(params[0])
	for _, p := range params[1:] {
		n := len(", ") + utf8.RuneCountInString(p)
		rest := fmt.Sprintf(", and %d more", len(params)-len(shown)-1)
		if used+n+len(rest) > room {
			break
		}
		shown, used = append(shown, p), used+n
	}
	return name + " (" + strings.Join(shown, ", ") + fmt.Sprintf(", and %d more)", len(params)-len(shown))
}

// maxText and maxName bound what a summary shows of a message and of a
// name (the JSON report has all of it), so that no printed line is
// unbounded.
const (
	maxText = 400
	maxName = 80
)

// wrap writes prefix and s, breaking s at spaces so that no line is wider
// than width (when width > 0); continuation lines are indented as wide as
// prefix. A word wider than the whole room (a long tool name in a narrow
// terminal) is cut with an ellipsis to fit.
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
		word = cut(word, room)
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

// clean makes s printable on a terminal and on one line: line breaks
// and tabs become spaces, carriage returns go, and every other control
// and format character is written out as an escape
// (report.EscapeControls: "\x1b[31m", "\u202e"), as every writer of a
// report shows it.
func clean(s string) string { return OneLine(s) }

// OneLine is a text made printable on one line of a terminal, as the
// terminal summary shows every name and message: line breaks and tabs
// become spaces, carriage returns go, and every other control and format
// character is written out as an escape (report.EscapeControls).
func OneLine(s string) string {
	return report.EscapeControls(strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\t':
			return ' '
		case '\r':
			return -1
		}
		return r
	}, s), false)
}

// judgeLine says who answered, and what the answers cost.
func judgeLine(j *report.Judge, c report.Calls) string {
	who := j.Plugin + " " + j.Version
	if noun, names := j.Answered(); noun != "" {
		who += " · " + noun + " " + names
	}
	if j.Heuristic {
		who += " (a heuristic, not a model)"
	}
	if j.CLI != "" {
		who += " · " + j.CLI + " " + j.CLIVersion
	}
	return who + " · " + c.Summary()
}

// maxSectionText is the longest a section's text value may be and still
// share a line with others; a longer one, such as a summary sentence,
// gets a line of its own.
const maxSectionText = 60

// maxSectionLong is the most of a long text value shown on its own line:
// it is cut after its last full sentence that fits (the JSON report has
// all of it).
const maxSectionLong = 480

// writeSections writes the scalar members of a rubric's own report
// sections, such as a server summary: the short ones a few to a line,
// then each long text whole on a line of its own, wrapped to width.
func writeSections(b *bufio.Writer, sections []report.Field, width int) {
	for _, sec := range sections {
		var parts, long []string
		for _, nv := range sec.Scalars() {
			text := report.Readable(nv[1])
			if utf8.RuneCountInString(text) > maxSectionText {
				long = append(long, nv[0]+" "+sentences(clean(text), maxSectionLong))
				continue
			}
			parts = append(parts, nv[0]+" "+text)
		}
		label := clean(sec.Name) + ":"
		for i := 0; i < len(parts); i += 4 {
			fmt.Fprintf(b, "%s %s\n", label, clean(strings.Join(parts[i:min(i+4, len(parts))], " · ")))
			label = strings.Repeat(" ", len(label))
		}
		for _, l := range long {
			b.WriteString(wrap(label+" ", clean(l), width))
			label = strings.Repeat(" ", len(label))
		}
	}
}

// sentences shortens s to at most n runes: to its last full sentence
// that fits, or, when not even the first does, with cut.
func sentences(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := string(r[:n])
	if i := strings.LastIndex(head, ". "); i > 0 {
		return head[:i+1] + " …"
	}
	return cut(s, n)
}
