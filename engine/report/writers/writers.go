// Package writers is the one list of the formats a report is written in:
// the terminal summary, the JSON report, Markdown, SARIF, HTML, JUnit
// XML, GitLab Code Quality and a shields.io badge. The command
// line's --format flag, its extra-file flags (--json, --markdown, --sarif)
// and the failure path (which removes an earlier run's files) all read it,
// so a new format is one entry here.
package writers

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/badge"
	"github.com/rubricmcp/rubric/engine/report/gitlab"
	"github.com/rubricmcp/rubric/engine/report/html"
	"github.com/rubricmcp/rubric/engine/report/junit"
	"github.com/rubricmcp/rubric/engine/report/markdown"
	"github.com/rubricmcp/rubric/engine/report/sarif"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/internal/atomicfile"
)

// Writer is one format.
type Writer struct {
	// Name is the format's name, as --format takes it.
	Name string
	// Aliases are other names --format takes for it ("md" for
	// markdown, as the file ending has it).
	Aliases []string
	// Flag is the flag that writes this format to one more file, and
	// What what the file holds ("the JSON report"); both are empty for
	// a format that is only ever the main output.
	Flag, What string
	// Write renders rep; opt matters to the terminal summary, and its
	// FailUnder and SARIFCategory to JUnit and SARIF.
	Write func(w io.Writer, rep *report.Report, opt text.Options) error
}

// All are the formats, the default first.
var All = []Writer{
	{Name: "text", Write: text.Write},
	{Name: "json", Flag: "json", What: "the JSON report", Write: func(w io.Writer, rep *report.Report, _ text.Options) error {
		return report.Write(w, rep)
	}},
	{Name: "markdown", Aliases: []string{"md"}, Flag: "markdown", What: "the Markdown summary", Write: func(w io.Writer, rep *report.Report, opt text.Options) error {
		return markdown.WriteFailUnder(w, rep, opt.FailUnder)
	}},
	{Name: "sarif", Flag: "sarif", What: "SARIF 2.1.0", Write: func(w io.Writer, rep *report.Report, opt text.Options) error {
		return sarif.WriteOptions(w, rep, sarif.Options{Category: opt.SARIFCategory})
	}},
	{Name: "html", Flag: "html", What: "the HTML page", Write: func(w io.Writer, rep *report.Report, _ text.Options) error {
		return html.Write(w, rep)
	}},
	{Name: "junit", Flag: "junit", What: "JUnit XML (a test case per tool)", Write: func(w io.Writer, rep *report.Report, opt text.Options) error {
		return junit.Write(w, rep, opt.FailUnder)
	}},
	{Name: "gitlab", Flag: "gitlab", What: "a GitLab Code Quality report", Write: func(w io.Writer, rep *report.Report, _ text.Options) error {
		return gitlab.Write(w, rep)
	}},
	{Name: "badge", Flag: "badge", What: "a shields.io endpoint badge (JSON)", Write: func(w io.Writer, rep *report.Report, _ text.Options) error {
		return badge.Write(w, rep)
	}},
}

// Names lists the formats for a message: "text, json, markdown (or md),
// sarif, ... or badge".
func Names() string {
	names := make([]string, len(All))
	for i, w := range All {
		names[i] = w.Name
		if len(w.Aliases) > 0 {
			names[i] += " (or " + strings.Join(w.Aliases, ", ") + ")"
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Find returns the format named name, or that has name as an alias.
func Find(name string) (Writer, error) {
	for _, w := range All {
		if w.Name == name || slices.Contains(w.Aliases, name) {
			return w, nil
		}
	}
	return Writer{}, fmt.Errorf("unknown --format %q: use %s", name, Names())
}

// WriteFile writes rep in format to path, atomically, with no colour and
// no width limit.
func (w Writer) WriteFile(path string, rep *report.Report, opt text.Options) error {
	opt.Color, opt.Width = false, 0
	if err := atomicfile.Write(path, func(f io.Writer) error { return w.Write(f, rep, opt) }); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// extensions are the file name endings whose format is known: the
// first format is the one an --out of that name is written in when
// --format is not given; the others are formats of the same kind of
// file (a SARIF log or a badge is JSON too) that --format may still
// choose. A longer ending is listed before a shorter one it ends with.
var extensions = []knownExtension{
	{".sarif", "a SARIF file", []string{"sarif"}},
	{".sarif.json", "a SARIF file", []string{"sarif"}},
	{".json", "a JSON file", []string{"json", "sarif", "gitlab", "badge"}},
	{".md", "a Markdown file", []string{"markdown"}},
	{".markdown", "a Markdown file", []string{"markdown"}},
	{".html", "an HTML file", []string{"html"}},
	{".htm", "an HTML file", []string{"html"}},
	{".txt", "a text file", []string{"text"}},
	{".xml", "an XML file", []string{"junit"}},
}

// knownExtension is a file name ending (ext, with its dot) whose format
// is known: what kind of file it names, and the formats it may hold.
type knownExtension struct {
	ext, what string
	formats   []string
}

// ForOut returns the format of the main output, which goes to the file
// out ("" for standard output). format is --format's value and given
// says whether the user set it (by the flag, the environment or a
// config file). A format not given follows out's extension (r.json is written
// as JSON, r.md as Markdown); an extension not known, or no --out,
// keeps format. A format given that contradicts the extension is an
// error naming both and the way out.
func ForOut(format string, given bool, out string) (Writer, error) {
	w, err := Find(format)
	if err != nil {
		return Writer{}, err
	}
	e, ok := extensionOf(out)
	switch {
	case !ok:
		return w, nil
	case !given:
		return Find(e.formats[0])
	case slices.Contains(e.formats, w.Name):
		return w, nil
	}
	return Writer{}, fmt.Errorf("--format %s contradicts --out %s, %s: drop --format to write it as %s, or name the file %s", w.Name, out, e.what, e.formats[0], e.renamed(out, w.Name))
}

// extensionOf is the entry of extensions that path's name ends with (in
// any case), when there is one and the name is more than it.
func extensionOf(path string) (e knownExtension, ok bool) {
	lower := strings.ToLower(path)
	for _, e := range extensions {
		if strings.HasSuffix(lower, e.ext) && len(lower) > len(e.ext) {
			return e, true
		}
	}
	return knownExtension{}, false
}

// Fits says whether a file named path may hold format by its name's
// extension: an unknown extension fits any format. When it does not,
// what says what kind of file the name is ("a Markdown file") and
// rename is path with format's extension in place of its own.
func Fits(path, format string) (ok bool, what, rename string) {
	e, known := extensionOf(path)
	if !known || slices.Contains(e.formats, format) {
		return true, "", ""
	}
	return false, e.what, e.renamed(path, format)
}

// renamed is path, which ends with e's extension, with format's in its
// place.
func (e knownExtension) renamed(path, format string) string {
	return path[:len(path)-len(e.ext)] + extension(format)
}

// extension is the file name ending of format: the first in extensions
// that may hold it.
func extension(format string) string {
	for _, e := range extensions {
		if slices.Contains(e.formats, format) {
			return e.ext
		}
	}
	return "." + format
}

// JSON is the JSON report's writer, which every command that keeps a
// report writes with.
func JSON() Writer {
	w, _ := Find("json")
	return w
}

// Outputs are where one run's report goes: the main output, in format
// Main, to the file Out or, when Out is empty, to a stream; then one more
// file for each format whose Flag (such as "json") Files maps to a path.
type Outputs struct {
	Main  Writer
	Out   string
	Files map[string]string
}

// Write writes rep to o: the files first, then the main output, so that
// a stream that fails or is closed early by its reader (`| head`) loses
// no file. opt is used as given on the stream; a file gets no colour and
// no width limit. Every file is written atomically.
func (o Outputs) Write(stream io.Writer, rep *report.Report, opt text.Options) error {
	for _, w := range All {
		if path := o.Files[w.Flag]; w.Flag != "" && path != "" {
			if err := w.WriteFile(path, rep, opt); err != nil {
				return err
			}
		}
	}
	if o.Out != "" {
		return o.Main.WriteFile(o.Out, rep, opt)
	}
	return o.Main.Write(stream, rep, opt)
}
