// Package serverset writes the outcome of scoring a client configuration:
// each configured server's report, or the record of why it was not
// scored, and the report of the installed set (every server's tools as
// one surface). One document holds them all, in any of the formats a
// single report is written in:
//
//   - json: {"servers_version", "generator", "config", "servers": [{"name",
//     "report"} or {"name", "failed"}], "disabled": the names of the
//     servers left out (when any), "set": the set's report or null};
//   - text: a table of the servers, then the set's summary;
//   - markdown: the same table, the set's summary, then each server's,
//     each under a heading of its own below the document's;
//   - sarif: one log with a run for each scored server and one for the set.
//
// Each report inside is written by the writer of its format, so the
// document says of a server exactly what a run of that server alone would.
package serverset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/markdown"
	"github.com/rubricmcp/rubric/engine/report/sarif"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/internal/atomicfile"
)

// Version is the version of the JSON document's format.
const Version = 1

// Document is the outcome of scoring a client configuration.
type Document struct {
	Generator report.Generator
	// Config is the configuration file the servers were read from.
	Config string
	// Servers are in the configuration's order.
	Servers []Entry
	// Disabled are the servers the configuration marks "disabled": true,
	// which were not read: named, so that the set is not taken for every
	// server the file holds.
	Disabled []string
	// Set is the installed set's report; nil when no server was read.
	Set *report.Report
}

// Entry is one server: its report, or its failure.
type Entry struct {
	Name   string
	Report *report.Report
	Failed Failure
}

// Failure is the record of a server that was not scored (run.Failure
// is one): written as it marshals, and shown by its stage and reason.
type Failure interface {
	// FailedStage is where it stopped: config, judge, export, score.
	FailedStage() string
	// FailedReason is why, as the record says it (redacted).
	FailedReason() string
}

// Failed are the names of the servers that were not scored.
func (d *Document) Failed() []string {
	var names []string
	for _, e := range d.Servers {
		if e.Failed != nil {
			name := e.Name
			if name == "" {
				name = `""` // a server of no name, which is refused
			}
			names = append(names, name)
		}
	}
	return names
}

// Below says, for each scored server whose overall score does not reach
// t, its name and why (rubric.Threshold's nil means no threshold).
func (d *Document) Below(t *rubric.Threshold) []string {
	var below []string
	for _, e := range d.Servers {
		if e.Report == nil {
			continue
		}
		if msg := e.Report.Below(t); msg != "" {
			below = append(below, e.Name+": "+msg)
		}
	}
	return below
}

// WriteFile writes d in format to the file at path, replacing it whole
// or not at all, without colour or a terminal's width.
func WriteFile(path string, d *Document, format string, opt text.Options) error {
	opt.Color, opt.Width = false, 0
	if err := atomicfile.Write(path, func(f io.Writer) error { return Write(f, d, format, opt) }); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteOutputs writes d to o as writers.Outputs.Write writes a report:
// each file of o.Files in its writer's format first (a format a document
// has no writer for is an error naming the formats it has), then the
// main output to o.Out or else to stream.
func WriteOutputs(stream io.Writer, d *Document, o writers.Outputs, opt text.Options) error {
	// The files first: a stream that fails loses none of them.
	for _, w := range writers.All {
		if path := o.Files[w.Flag]; w.Flag != "" && path != "" {
			if err := WriteFile(path, d, w.Name, opt); err != nil {
				return err
			}
		}
	}
	if o.Out != "" {
		return WriteFile(o.Out, d, o.Main.Name, opt)
	}
	return Write(stream, d, o.Main.Name, opt)
}

// Formats are the formats a document is written in, as --format names
// them.
var Formats = []string{"text", "json", "markdown", "sarif"}

// CheckOutputs refuses, before any server is started, an output o asks
// for in a format a document is not written in: --format html, or an
// extra file such as --junit.
func CheckOutputs(o writers.Outputs) error {
	if !slices.Contains(Formats, o.Main.Name) {
		return fmt.Errorf("--format %s: %s", o.Main.Name, notWritten(o.Main.Name))
	}
	for _, w := range writers.All {
		if path := o.Files[w.Flag]; w.Flag != "" && path != "" && !slices.Contains(Formats, w.Name) {
			return fmt.Errorf("--%s %s: %s", w.Flag, path, notWritten(w.Name))
		}
	}
	return nil
}

// notWritten says that a document is not written in format.
func notWritten(format string) string {
	return fmt.Sprintf("a client configuration's servers are written as %s, not %s", strings.Join(Formats, ", "), format)
}

// Write writes d in format; opt matters to the terminal summary alone.
func Write(w io.Writer, d *Document, format string, opt text.Options) error {
	switch format {
	case "json":
		return writeJSON(w, d)
	case "text":
		return writeText(w, d, opt)
	case "markdown":
		return writeMarkdown(w, d)
	case "sarif":
		return writeSARIF(w, d, opt.SARIFCategory)
	}
	return errors.New(notWritten(format))
}

type jsonEntry struct {
	Name   string          `json:"name"`
	Report json.RawMessage `json:"report,omitempty"`
	Failed Failure         `json:"failed,omitempty"`
}

type jsonDocument struct {
	Version   int              `json:"servers_version"`
	Generator report.Generator `json:"generator"`
	Config    string           `json:"config"`
	Servers   []jsonEntry      `json:"servers"`
	Disabled  []string         `json:"disabled,omitempty"`
	Set       json.RawMessage  `json:"set"`
}

func writeJSON(w io.Writer, d *Document) error {
	doc := jsonDocument{Version: Version, Generator: d.Generator, Config: d.Config, Servers: []jsonEntry{}, Disabled: d.Disabled, Set: json.RawMessage("null")}
	for _, e := range d.Servers {
		je := jsonEntry{Name: e.Name, Failed: e.Failed}
		if e.Report != nil {
			b, err := report.Marshal(e.Report)
			if err != nil {
				return fmt.Errorf("write the report of %s: %w", e.Name, err)
			}
			je.Report = b
		}
		doc.Servers = append(doc.Servers, je)
	}
	if d.Set != nil {
		b, err := report.Marshal(d.Set)
		if err != nil {
			return fmt.Errorf("write the installed set's report: %w", err)
		}
		doc.Set = b
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// row is one server as the tables show it.
type row struct{ name, tools, grade, score, note string }

func rows(d *Document) []row {
	var out []row
	for _, e := range d.Servers {
		r := row{name: e.Name}
		switch {
		case e.Report != nil:
			r.tools = fmt.Sprint(e.Report.Surface.ToolCount)
			r.grade, r.score = "-", "-"
			if e.Report.Grade != nil {
				r.grade = *e.Report.Grade
			}
			if e.Report.Score != nil {
				r.score = e.Report.Score.String()
			}
			if why := e.Report.Unscored(); why != "" {
				r.note = "no score: " + why
			}
		case e.Failed != nil:
			r.tools, r.grade, r.score = "-", "-", "-"
			r.note = "FAILED at " + e.Failed.FailedStage() + ": " + e.Failed.FailedReason()
		}
		out = append(out, r)
	}
	return out
}

// maxNote bounds a failure's reason in the terminal table.
const maxNote = 200

func writeText(w io.Writer, d *Document, opt text.Options) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "%s · %s\n", clean(d.Config), report.Plural(len(d.Servers), "server"))
	rs := rows(d)
	nameW, toolsW, gradeW, scoreW := len("SERVER"), len("TOOLS"), len("GRADE"), len("SCORE")
	for _, r := range rs {
		nameW = max(nameW, utf8.RuneCountInString(clean(r.name)))
		toolsW, gradeW, scoreW = max(toolsW, len(r.tools)), max(gradeW, len(r.grade)), max(scoreW, len(r.score))
	}
	line := func(name, tools, grade, score, note string) {
		s := fmt.Sprintf("%-*s  %*s  %-*s  %*s", nameW, name, toolsW, tools, gradeW, grade, scoreW, score)
		if note != "" {
			s += "  " + note
		}
		b.WriteString(strings.TrimRight(s, " ") + "\n")
	}
	line("SERVER", "TOOLS", "GRADE", "SCORE", "")
	cut := false
	for _, r := range rs {
		note := clean(r.note)
		if utf8.RuneCountInString(note) > maxNote {
			note = string([]rune(note)[:maxNote-1]) + "…"
			cut = true
		}
		line(clean(r.name), r.tools, clean(r.grade), r.score, note)
	}
	if failed := d.Failed(); len(failed) > 0 {
		fmt.Fprintf(b, "not scored: %s\n", clean(strings.Join(failed, ", ")))
	}
	if cut {
		// The end of a long reason is often what to do.
		b.WriteString("(a reason cut short with … is whole with --server NAME, and in --format json or --markdown)\n")
	}
	if len(d.Disabled) > 0 {
		fmt.Fprintf(b, "left out, disabled in the configuration: %s\n", clean(strings.Join(d.Disabled, ", ")))
	}
	b.WriteString("\n")
	if d.Set == nil {
		b.WriteString("No server was read, so there is no installed set to score.\n")
		return b.Flush()
	}
	b.WriteString("The installed set:\n")
	if err := b.Flush(); err != nil {
		return err
	}
	return text.Write(w, d.Set, opt)
}

func writeMarkdown(w io.Writer, d *Document) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "## Installed set · %s\n\n", markdown.Inline(d.Config))
	// The column of notes (a failure, no score) has a heading, and is
	// left out when no server has one: GitHub drew an empty column with
	// an empty heading beside every set of servers that all scored.
	rs := rows(d)
	notes := slices.ContainsFunc(rs, func(r row) bool { return r.note != "" })
	if notes {
		b.WriteString("| Server | Tools | Grade | Score | Note |\n|---|---:|:---:|---:|---|\n")
	} else {
		b.WriteString("| Server | Tools | Grade | Score |\n|---|---:|:---:|---:|\n")
	}
	for _, r := range rs {
		fmt.Fprintf(b, "| %s | %s | %s | %s |", markdown.CellCode(r.name), r.tools, markdown.Inline(r.grade), r.score)
		if notes {
			fmt.Fprintf(b, " %s |", strings.ReplaceAll(markdown.Inline(r.note), "|", `\|`))
		}
		b.WriteString("\n")
	}
	if failed := d.Failed(); len(failed) > 0 {
		fmt.Fprintf(b, "\nNot scored: %s.\n", markdown.Codes(failed))
	}
	if len(d.Disabled) > 0 {
		fmt.Fprintf(b, "\nLeft out, disabled in the configuration: %s.\n", markdown.Codes(d.Disabled))
	}
	b.WriteString("\n")
	if err := b.Flush(); err != nil {
		return err
	}
	// Each report sits under a heading of its own, one level below the
	// document's, its title a level below that.
	if d.Set != nil {
		if _, err := io.WriteString(w, "### The installed set\n\n"); err != nil {
			return err
		}
		if err := markdown.WriteLevel(w, d.Set, 4); err != nil {
			return err
		}
	}
	for _, e := range d.Servers {
		if e.Report == nil {
			continue
		}
		if _, err := fmt.Fprintf(w, "\n### Server %s\n\n", markdown.Inline(e.Name)); err != nil {
			return err
		}
		if err := markdown.WriteLevel(w, e.Report, 4); err != nil {
			return err
		}
	}
	return nil
}

// sarifLog is the one log of a document: the runs of each report's own
// log, in order.
type sarifLog struct {
	Schema  string            `json:"$schema"`
	Version string            `json:"version"`
	Runs    []json.RawMessage `json:"runs"`
}

func writeSARIF(w io.Writer, d *Document, category string) error {
	var out sarifLog
	// A category the user chose is each run's, kept apart by rubric and
	// server when the log has several runs.
	runs := 0
	for _, e := range d.Servers {
		if e.Report != nil {
			runs++
		}
	}
	if d.Set != nil {
		runs++
	}
	opt := sarif.Options{Category: category, Distinct: runs > 1}
	// Two entries whose servers give one name (one package, two
	// configurations) would have one id, and GitHub refuses the log:
	// those are told apart by their names in the configuration.
	named := map[string]int{}
	for _, e := range d.Servers {
		if e.Report != nil {
			named[sarif.ServerName(e.Report)]++
		}
	}
	add := func(what string, rep *report.Report, entry string) error {
		opt := opt
		if entry != "" && named[sarif.ServerName(rep)] > 1 {
			opt.Server = entry
		}
		var buf bytes.Buffer
		if err := sarif.WriteOptions(&buf, rep, opt); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		var one sarifLog
		if err := json.Unmarshal(buf.Bytes(), &one); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		out.Schema, out.Version = one.Schema, one.Version
		out.Runs = append(out.Runs, one.Runs...)
		return nil
	}
	for _, e := range d.Servers {
		if e.Report != nil {
			if err := add("the server "+e.Name, e.Report, e.Name); err != nil {
				return err
			}
		}
	}
	if d.Set != nil {
		if err := add("the installed set", d.Set, ""); err != nil {
			return err
		}
	}
	if out.Runs == nil {
		// Nothing scored: an empty log that still says what it is.
		var buf bytes.Buffer
		if err := sarif.Write(&buf, &report.Report{Generator: d.Generator}); err == nil {
			var one sarifLog
			if json.Unmarshal(buf.Bytes(), &one) == nil {
				out.Schema, out.Version = one.Schema, one.Version
			}
		}
		out.Runs = []json.RawMessage{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// clean is text.OneLine: a name or message as the terminal shows it.
func clean(s string) string { return text.OneLine(s) }
