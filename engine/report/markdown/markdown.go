// Package markdown writes a report as a GitHub Flavored Markdown summary,
// short enough for a CI job summary ($GITHUB_STEP_SUMMARY) or a pull
// request comment.
//
// The summary has a heading with the rubric's title and version, the
// overall grade and score (or why there is none), the target, the short
// surface hash and the tool count; then a table of the tools, lowest score
// first; then the fix list as a table: every issue of every tool grouped
// by cause (report.GroupFixes), the largest total gain first, in the unit
// the rubric names once above it, naming the tools and parameters in code
// spans.
//
// Tool and parameter names come from the server being scored, so every
// name is written in a code span and every other text is escaped: nothing
// in a report can add links, HTML, formatting or table columns to the
// summary. URLs in such text are defused (https\://host), so that a
// renderer that links bare URLs (GitHub's does) links none, and long
// texts are cut with an ellipsis.
package markdown

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// Write writes r to w as a Markdown summary, its title a level 2
// heading.
func Write(w io.Writer, r *report.Report) error { return WriteLevel(w, r, 2) }

// WriteLevel writes r as Write does, its title a heading of level (1 to
// 5) and its parts (warnings, tools, fix list) one level below: for a
// document that sets several reports under headings of its own.
func WriteLevel(w io.Writer, r *report.Report, level int) error {
	return writeLevel(w, r, level, nil)
}

// WriteFailUnder writes r as Write does, saying under its score whether
// it reaches failUnder (rubric score --fail-under), which decides the
// run's exit status: a CI job summary or pull-request comment then shows
// why the step failed or passed. A nil failUnder says nothing.
func WriteFailUnder(w io.Writer, r *report.Report, failUnder *rubric.Threshold) error {
	return writeLevel(w, r, 2, failUnder)
}

func writeLevel(w io.Writer, r *report.Report, level int, failUnder *rubric.Threshold) error {
	if level < 1 || level > 5 {
		return fmt.Errorf("write Markdown: heading level %d: a report's title takes a level from 1 to 5", level)
	}
	if r == nil {
		return fmt.Errorf("write Markdown: no report to write")
	}
	tools, err := report.ToolsWorstFirst(r.Tools)
	if err != nil {
		return fmt.Errorf("write Markdown: %w", err)
	}
	fixes, err := r.FixList()
	if err != nil {
		return fmt.Errorf("write Markdown: %w", err)
	}
	b := bufio.NewWriter(w)

	title := r.Rubric.Title
	if title == "" {
		title = r.Rubric.Name
	}
	head, part := strings.Repeat("#", level), strings.Repeat("#", level+1)
	fmt.Fprintf(b, "%s %s %s\n\n", head, text(title), text(r.Rubric.Version))

	switch why := r.Unscored(); {
	case !r.Complete:
		b.WriteString("**Scoring did not finish**, so there is no score.\n\n")
	case why != "":
		fmt.Fprintf(b, "**No score:** %s.\n\n", text(why))
	default:
		if r.Grade != nil && *r.Grade != "" {
			fmt.Fprintf(b, "**Grade %s**, score **%s**", text(*r.Grade), text(r.Score.String()))
		} else {
			fmt.Fprintf(b, "**No grade**, score **%s**", text(r.Score.String()))
		}
		if r.Exact != nil {
			if e := report.ShortExact(r.Score.String(), *r.Exact); e != "" {
				fmt.Fprintf(b, " (exactly %s)", text(e))
			}
		}
		if r.Grade == nil || *r.Grade == "" {
			b.WriteString(", below every grade the rubric sets")
		}
		b.WriteString("\n\n")
	}
	if failUnder != nil {
		if why := r.Below(failUnder); why != "" {
			fmt.Fprintf(b, "**Fails `--fail-under`:** %s, so this run exits 1.\n\n", text(why))
		} else {
			fmt.Fprintf(b, "**Passes `--fail-under`:** the overall score reaches %s.\n\n", text(failUnder.Label))
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(b, "*Note:* %s\n\n", text(n))
	}

	var facts []string
	if r.Target != "" {
		facts = append(facts, "target "+code(r.Target))
	}
	facts = append(facts, "surface "+code(report.ShortHash(r.Surface.Hash)), report.Plural(r.Surface.ToolCount, "tool"),
		"rubric "+code(r.Rubric.Name)+" "+code(report.ShortHash(r.Rubric.Digest)))
	if j := r.Judge; j != nil {
		who := "judge " + code(j.Plugin+" "+j.Version)
		if noun, names := j.Answered(); noun != "" {
			who += " " + noun + " " + code(names)
		}
		if j.Heuristic {
			who += " (a heuristic, not a model)"
		}
		if j.CLI != "" {
			who += " via " + code(j.CLI+" "+j.CLIVersion)
		}
		facts = append(facts, who, r.Calls.Summary())
	}
	facts[0] = strings.ToUpper(facts[0][:1]) + facts[0][1:]
	b.WriteString(strings.Join(facts, " · ") + "\n")
	writeSections(b, r.Sections)

	warnings := r.ShownWarnings()
	if len(warnings) > 0 {
		fmt.Fprintf(b, "\n%s Warnings\n\n", part)
		for _, w := range warnings {
			fmt.Fprintf(b, "- %s\n", text(w))
		}
	}

	if len(tools) > 0 {
		fmt.Fprintf(b, "\n%s Tools\n\n| Tool | Score | Grade | Issues |\n| --- | ---: | :---: | ---: |\n", part)
		for _, t := range tools {
			fmt.Fprintf(b, "| %s | %s | %s | %d |\n", cellCode(report.ShownName(t.Name)), text(t.Score.String()), text(t.Grade), len(t.Issues))
		}
		fmt.Fprintf(b, "\n%s Fix list\n\n", part)
		if len(fixes) == 0 {
			b.WriteString("No issues: every tool passes every check.\n")
		} else {
			writeFixes(b, r, tools, fixes)
		}
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("write Markdown: %w", err)
	}
	return nil
}

// writeFixes writes the fix list grouped by cause (report.GroupFixes) as
// a table: total gain, what it moves the overall (when the rubric says),
// the tools, the check, and what to fix.
func writeFixes(b *bufio.Writer, r *report.Report, tools []report.Tool, fixes []report.Fix) {
	byName := make(map[string]report.Tool, len(tools))
	for _, t := range tools {
		byName[t.Name] = t
	}
	groups := report.GroupFixes(fixes)
	order := r.GroupOrder(groups)
	fmt.Fprintf(b, "%s.\n\n", text(strings.ToUpper(order[:1])+order[1:]))
	totals := report.Totals(groups)
	gd, md := report.GainDigits(totals, r.Rubric.Round), report.MovesDigits(r.Rubric.Round)
	moves := r.Fixes != nil && r.Fixes.Overall != "" && report.GroupsHaveMoves(groups)
	if moves {
		fmt.Fprintf(b, "| Gain | Moves %s | Tools | Check | Fix |\n| ---: | ---: | --- | --- | --- |\n", text(r.Fixes.Overall))
	} else {
		b.WriteString("| Gain | Tools | Check | Fix |\n| ---: | --- | --- | --- |\n")
	}
	for _, g := range groups {
		cells := []string{text(report.Signed(g.Gain, gd))}
		if moves {
			m := ""
			if g.HasMoves {
				m = text(report.Signed(g.Moves, md))
			}
			cells = append(cells, m)
		}
		first := g.Fixes[0]
		if tools := g.ByTool(); len(tools) == 1 {
			cells = append(cells, cellCode(cut(report.ShownName(first.Tool), maxName)), checkCell(byName[first.Tool], first.Issue), message(first.Issue)+text(tools[0].Alike()))
		} else {
			cells = append(cells, groupTools(g), checkCell(byName[first.Tool], first.Issue), text(cut(g.Cause, maxText)))
		}
		fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
	}
}

// maxGroupTools is how many tools a row of the fix list names; the rest
// are counted.
const maxGroupTools = 20

// groupTools names the tools of a cause in a table cell: "**17 tools**:
// `a` (`x`), `b`, and 3 more".
func groupTools(g report.FixGroup) string {
	var parts []string
	tools := g.ByTool()
	for i, t := range tools {
		if i == maxGroupTools {
			parts = append(parts, fmt.Sprintf("and %d more", len(tools)-i))
			break
		}
		f := t.First
		p := cellCode(cut(report.ShownName(f.Tool), maxName))
		if len(f.Issue.Params) > 0 {
			p += " (" + Codes(f.Issue.Params) + ")"
		}
		parts = append(parts, p+text(t.Times()))
	}
	return "**" + report.Plural(len(tools), "tool") + "**: " + strings.Join(parts, ", ")
}

// checkCell names the check of is, an issue of t, once: its title when
// it has one, else its name in a code span.
func checkCell(t report.Tool, is report.Issue) string {
	if title := t.CheckTitle(is); title != "" {
		return text(title)
	}
	return cellCode(is.Check)
}

// maxText and maxName bound what the summary shows of a message and of a
// name (the JSON report has all of it).
const (
	maxText = 400
	maxName = 80
)

// cut shortens s to n runes, ending it with "…".
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// message writes an issue's message with its parameters in code spans: the
// list the rubric put in the message is replaced; when there is none, the
// parameters follow in parentheses.
func message(is report.Issue) string {
	is.Message = cut(is.Message, maxText)
	if len(is.Params) == 0 {
		return text(is.Message)
	}
	codes := make([]string, len(is.Params))
	for i, p := range is.Params {
		codes[i] = cellCode(p)
	}
	list := strings.Join(codes, ", ")
	joined := strings.Join(is.Params, ", ")
	if i := report.ParamsAt(is.Message, joined); i >= 0 {
		return text(is.Message[:i]) + list + text(is.Message[i+len(joined):])
	}
	return text(is.Message) + " (" + list + ")"
}

// textEscaper backslash-escapes the characters that could start Markdown
// or HTML syntax inline.
var textEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `|`, `\|`, `~`, `\~`, `&`, `\&`,
)

// text escapes s for inline Markdown, table cells included, and defuses
// the URLs in it.
func text(s string) string { return defuse(textEscaper.Replace(oneLine(s))) }

// scheme finds what a renderer would take for the start of a link: a URL
// scheme before "//" (https://, javascript://), "www." and a mailto:.
var scheme = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*):(//)|\b(www)\.|\b(mailto):`)

// defuse breaks every URL in escaped Markdown text, so that a renderer
// that links bare URLs (GitHub Flavored Markdown's extended autolinks)
// links none: https://evil is written https\://evil and www.evil
// www\.evil, which read the same once rendered.
func defuse(s string) string {
	return scheme.ReplaceAllStringFunc(s, func(m string) string {
		if i := strings.IndexByte(m, ':'); i >= 0 {
			return m[:i] + `\:` + m[i+1:]
		}
		return m[:len(m)-1] + `\.`
	})
}

// oneLine turns line breaks and tabs into spaces and writes other control
// characters (such as a terminal escape) as visible \xNN or \uNNNN.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\t':
			return ' '
		}
		return r
	}, report.EscapeControls(s, true))
}

// code writes s as a code span, with a fence longer than any run of
// backticks in s, on one line.
func code(s string) string {
	s = oneLine(s)
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") ||
		(strings.HasPrefix(s, " ") && strings.HasSuffix(s, " ") && strings.TrimSpace(s) != "") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// cellCode writes s as a code span for a table cell, where a pipe ends the
// cell even inside a code span unless it is escaped.
func cellCode(s string) string { return strings.ReplaceAll(code(s), "|", `\|`) }

// writeSections writes the scalar members of a rubric's own report
// sections as a table each.
func writeSections(b *bufio.Writer, sections []report.Field) {
	for _, sec := range sections {
		for i, nv := range sec.Scalars() {
			if i == 0 {
				fmt.Fprintf(b, "\n| %s | |\n|---|---|\n", text(sec.Name))
			}
			fmt.Fprintf(b, "| %s | %s |\n", text(nv[0]), text(report.Readable(nv[1])))
		}
	}
}

// Inline escapes s for inline Markdown on one line, table cells
// included: for other writers of Markdown summaries (the gate's).
func Inline(s string) string { return text(s) }

// CellCode writes s as a code span that is safe in a table cell.
func CellCode(s string) string { return cellCode(s) }

// Codes writes names as code spans for a table cell, separated by commas.
func Codes(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = cellCode(n)
	}
	return strings.Join(out, ", ")
}
