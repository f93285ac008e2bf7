package writers

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/engine/report/text"
)

func TestFind(t *testing.T) {
	tests := []struct {
		name, want, wantErr string
	}{
		{name: "text"}, {name: "json"}, {name: "markdown"}, {name: "sarif"}, {name: "html"}, {name: "junit"}, {name: "gitlab"}, {name: "badge"},
		{name: "md", want: "markdown"},
		{name: "MD", wantErr: `unknown --format "MD": use text, json, markdown (or md), sarif, html, junit, gitlab or badge`},
		{name: "yaml", wantErr: `unknown --format "yaml": use text, json, markdown (or md), sarif, html, junit, gitlab or badge`},
		{name: "", wantErr: `unknown --format "": use text, json, markdown (or md), sarif, html, junit, gitlab or badge`},
	}
	for _, tt := range tests {
		w, err := Find(tt.name)
		if tt.want == "" {
			tt.want = tt.name
		}
		switch {
		case tt.wantErr != "":
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Find(%q): %v, want %q", tt.name, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("Find(%q): %v", tt.name, err)
		case w.Name != tt.want:
			t.Errorf("Find(%q) found %q, want %q", tt.name, w.Name, tt.want)
		}
	}
}

// Every format writes the same report as its own package does, to a file
// as to a stream.
func TestWriteFileMatchesStream(t *testing.T) {
	rep := reporttest.Capture(t, "everything.tools.json")
	dir := t.TempDir()
	for _, w := range All {
		t.Run(w.Name, func(t *testing.T) {
			var want bytes.Buffer
			if err := w.Write(&want, rep, text.Options{}); err != nil {
				t.Fatal(err)
			}
			if want.Len() == 0 {
				t.Fatal("wrote nothing")
			}
			path := filepath.Join(dir, "out."+w.Name)
			if err := w.WriteFile(path, rep, text.Options{Color: true, Width: 20}); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("the file differs from the stream (a file gets no colour and no width limit)")
			}
		})
	}
}

func TestJSONIsTheReport(t *testing.T) {
	rep := reporttest.Capture(t, "everything.tools.json")
	w, err := Find("json")
	if err != nil {
		t.Fatal(err)
	}
	var got, want bytes.Buffer
	if err := w.Write(&got, rep, text.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := report.Write(&want, rep); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() || !strings.HasPrefix(got.String(), "{") {
		t.Errorf("the json writer does not write report.Write's JSON")
	}
}

// Outputs writes the main output to the stream or to Out, and the extra
// files Files names, each as its format's own writer does.
func TestOutputs(t *testing.T) {
	rep := reporttest.Capture(t, "everything.tools.json")
	render := func(name string) string {
		w, err := Find(name)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := w.Write(&b, rep, text.Options{}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name       string
		main, out  string
		files      map[string]string
		wantStream string            // format on the stream, or none
		wantFiles  map[string]string // file name to format
	}{
		{name: "the main output on the stream", main: "text", wantStream: "text"},
		{name: "the main output to a file, with extra files", main: "markdown", out: "summary.md",
			files:     map[string]string{"json": "report.json", "sarif": "report.sarif", "markdown": ""},
			wantFiles: map[string]string{"summary.md": "markdown", "report.json": "json", "report.sarif": "sarif"}},
		{name: "extra files beside the stream", main: "json", files: map[string]string{"markdown": "s.md"},
			wantStream: "json", wantFiles: map[string]string{"s.md": "markdown"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			main, err := Find(tc.main)
			if err != nil {
				t.Fatal(err)
			}
			o := Outputs{Main: main, Files: map[string]string{}}
			if tc.out != "" {
				o.Out = filepath.Join(dir, tc.out)
			}
			for flag, name := range tc.files {
				if name != "" {
					o.Files[flag] = filepath.Join(dir, name)
				}
			}
			var stream bytes.Buffer
			if err := o.Write(&stream, rep, text.Options{}); err != nil {
				t.Fatal(err)
			}
			want := ""
			if tc.wantStream != "" {
				want = render(tc.wantStream)
			}
			if stream.String() != want {
				t.Errorf("the stream holds %d bytes, want the %s output (%d bytes)", stream.Len(), tc.wantStream, len(want))
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != len(tc.wantFiles) {
				t.Errorf("%d files written, want %d", len(entries), len(tc.wantFiles))
			}
			for name, format := range tc.wantFiles {
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != render(format) {
					t.Errorf("%s does not hold the %s output", name, format)
				}
			}
		})
	}
}

// TestBidiNamesShown: a tool named with a right-to-left override
// (U+202E) reads "update_profile" wherever the character reaches a
// reader. Every writer a person reads shows it as the escape \u202e, the
// same way in each, the server's and the target's names and the issue
// messages as well as the tool's; the JSON report keeps the name exactly
// as the server sent it.
func TestBidiNamesShown(t *testing.T) {
	const rlo = "\u202e"
	tools := `{"server": {"name": "srv` + rlo + `revres"}, "tools": [
	  {"name": "` + rlo + `eliforp_etadpu", "description": "Updates the profile` + rlo + `.",
	   "inputSchema": {"type": "object", "properties": {"q` + rlo + `": {"type": "string"}}}},
	  {"name": "zero` + "\u200b" + `width", "description": "Reads.", "inputSchema": {"type": "object"}}]}`
	rep := reporttest.Score(t, "t"+rlo+"arget", []byte(tools))
	for _, w := range All {
		t.Run(w.Name, func(t *testing.T) {
			var b bytes.Buffer
			if err := w.Write(&b, rep, text.Options{Width: 200, MaxIssues: 100}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			switch w.Name {
			case "badge":
				return // a grade and a score, no name
			case "json":
				if !strings.Contains(out, rlo+"eliforp_etadpu") {
					t.Error("the JSON report does not keep the name as the server sent it")
				}
				return
			}
			for _, hidden := range []string{rlo, "\u200b"} {
				if strings.Contains(out, hidden) {
					t.Errorf("the %s output shows %+q raw", w.Name, hidden)
				}
			}
			// In a JSON format the backslash is itself escaped.
			for _, shown := range []string{`u202eeliforp_etadpu`, `zero\u200bwidth`} {
				if w.Name == "sarif" || w.Name == "gitlab" {
					shown = strings.ReplaceAll(shown, `\`, `\\`)
				}
				if !strings.Contains(out, shown) {
					t.Errorf("the %s output does not show %s", w.Name, shown)
				}
			}
			if w.Name == "html" && !strings.Contains(out, `<bdi><code>\u202eeliforp_etadpu</code></bdi>`) {
				t.Error("the HTML page does not isolate the name in <bdi>")
			}
		})
	}
}

// failingStream is a terminal that cannot be written to (a full disk
// behind > file).
type failingStream struct{}

func (failingStream) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestOutputsFilesFirst: the files the flags name are written before the
// stream, so a stream that fails loses none of them.
func TestOutputsFilesFirst(t *testing.T) {
	rep := reporttest.Capture(t, "everything.tools.json")
	main, err := Find("text")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	o := Outputs{Main: main, Files: map[string]string{"json": filepath.Join(dir, "r.json"), "sarif": filepath.Join(dir, "r.sarif")}}
	if err := o.Write(failingStream{}, rep, text.Options{}); err == nil {
		t.Error("the stream's failure was not returned")
	}
	for _, f := range []string{"r.json", "r.sarif"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}

// The main output's format follows --out's extension unless --format
// is given; a --format that contradicts it is refused, naming both.
func TestForOut(t *testing.T) {
	tests := []struct {
		format    string
		given     bool
		from, out string
		want, err string
	}{
		{format: "text", out: "", want: "text"},
		{format: "text", out: "r.json", want: "json"},
		{format: "text", out: "out/R.JSON", want: "json"},
		{format: "text", out: "r.md", want: "markdown"},
		{format: "text", out: "r.markdown", want: "markdown"},
		{format: "text", out: "r.html", want: "html"},
		{format: "text", out: "r.htm", want: "html"},
		{format: "text", out: "r.sarif", want: "sarif"},
		{format: "text", out: "r.sarif.json", want: "sarif"},
		{format: "text", out: "r.txt", want: "text"},
		{format: "text", out: "r.xml", want: "junit"},
		{format: "text", out: "r.out", want: "text"},
		{format: "text", out: "report", want: "text"},
		{format: "text", out: ".json", want: "text"},
		{format: "json", given: true, out: "r.out", want: "json"},
		{format: "json", given: true, out: "r.json", want: "json"},
		{format: "badge", given: true, out: "badge.json", want: "badge"},
		{format: "gitlab", given: true, out: "cq.json", want: "gitlab"},
		{format: "sarif", given: true, out: "r.json", want: "sarif"},
		{format: "json", given: true, out: "r.md", err: "--format json contradicts --out r.md, a Markdown file: drop --format to write it as markdown, or name the file r.json"},
		{format: "text", given: true, out: "dir/r.json", err: "--format text contradicts --out dir/r.json, a JSON file: drop --format to write it as json, or name the file dir/r.txt"},
		{format: "json", given: true, out: "r.sarif", err: "--format json contradicts --out r.sarif, a SARIF file: drop --format to write it as sarif, or name the file r.json"},
		{format: "markdown", given: true, out: "r.html", err: "--format markdown contradicts --out r.html, an HTML file: drop --format to write it as html, or name the file r.md"},
		{format: "yaml", given: true, out: "r.json", err: `unknown --format "yaml": use text, json, markdown (or md), sarif, html, junit, gitlab or badge`},
	}
	for _, tt := range tests {
		w, err := ForOut(tt.format, tt.given, tt.out)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("ForOut(%q, %v, %q): %v, want %q", tt.format, tt.given, tt.out, err, tt.err)
			}
		case err != nil:
			t.Errorf("ForOut(%q, %v, %q): %v", tt.format, tt.given, tt.out, err)
		case w.Name != tt.want:
			t.Errorf("ForOut(%q, %v, %q) = %s, want %s", tt.format, tt.given, tt.out, w.Name, tt.want)
		}
	}
}

// TestFits: a name fits the formats its extension may hold, and any
// format when its extension is not known.
func TestFits(t *testing.T) {
	for _, c := range []struct {
		path, format string
		ok           bool
		what, rename string
	}{
		{"new.json", "json", true, "", ""},
		{"new", "json", true, "", ""},
		{"new.out", "json", true, "", ""},
		{"new.md", "json", false, "a Markdown file", "new.json"},
		{"dir/New.HTML", "json", false, "an HTML file", "dir/New.json"},
		{"r.sarif", "json", false, "a SARIF file", "r.json"},
	} {
		ok, what, rename := Fits(c.path, c.format)
		if ok != c.ok || what != c.what || rename != c.rename {
			t.Errorf("Fits(%q, %q) = %v, %q, %q; want %v, %q, %q", c.path, c.format, ok, what, rename, c.ok, c.what, c.rename)
		}
	}
}
