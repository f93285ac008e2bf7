package serverset_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/engine/report/serverset"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
)

// failure is a server's failure record as the run writes it.
type failure struct {
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
}

func (f failure) FailedStage() string  { return f.Stage }
func (f failure) FailedReason() string { return f.Reason }

func document(t *testing.T) *serverset.Document {
	return &serverset.Document{
		Generator: report.Generator{Name: "rubric", Version: "test"},
		Config:    ".mcp.json",
		Servers: []serverset.Entry{
			{Name: "memory", Report: reporttest.Capture(t, "memory.tools.json")},
			{Name: "crashes", Failed: failure{Stage: "export", Reason: "server exited with status 1\nbefore answering"}},
			{Name: "git", Report: reporttest.Capture(t, "git.tools.json")},
		},
		Set: reporttest.Capture(t, "everything.tools.json"),
	}
}

// TestJSONContract: {"servers": [{"name", "report"} or {"name", "failed"}],
// "set": {...}}, each report as report.Write writes it alone.
func TestJSONContract(t *testing.T) {
	d := document(t)
	var buf bytes.Buffer
	if err := serverset.Write(&buf, d, "json", text.Options{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version int                          `json:"servers_version"`
		Config  string                       `json:"config"`
		Servers []map[string]json.RawMessage `json:"servers"`
		Set     map[string]json.RawMessage   `json:"set"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != serverset.Version || doc.Config != ".mcp.json" || len(doc.Servers) != 3 || doc.Set["rubric"] == nil {
		t.Fatalf("document %s", buf.String()[:min(400, buf.Len())])
	}
	keys := func(m map[string]json.RawMessage) string {
		var ks []string
		for _, k := range []string{"name", "report", "failed"} {
			if _, ok := m[k]; ok {
				ks = append(ks, k)
			}
		}
		return strings.Join(ks, ",")
	}
	for i, want := range []string{"name,report", "name,failed", "name,report"} {
		if got := keys(doc.Servers[i]); got != want {
			t.Errorf("server %d has %s, want %s", i, got, want)
		}
	}
	alone, err := report.Marshal(d.Servers[0].Report)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	_ = json.Unmarshal(alone, &a)
	_ = json.Unmarshal(doc.Servers[0]["report"], &b)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Error("a server's report in the document differs from its report alone")
	}
	if !strings.Contains(string(doc.Servers[1]["failed"]), `"stage": "export"`) {
		t.Errorf("failed: %s", doc.Servers[1]["failed"])
	}
}

// TestFormats: every format names the failed server, covers the scored
// ones and the set, and begins as run.Wrote recognises, so that a later
// failed run may replace it.
func TestFormats(t *testing.T) {
	d := document(t)
	dir := t.TempDir()
	for _, f := range serverset.Formats {
		t.Run(f, func(t *testing.T) {
			var buf bytes.Buffer
			if err := serverset.Write(&buf, d, f, text.Options{}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			switch f {
			case "text":
				for _, want := range []string{
					".mcp.json · 3 servers\nSERVER   TOOLS  GRADE  SCORE\n",
					"\ncrashes      -  -          -  FAILED at export: server exited with status 1 before answering\n",
					"\nnot scored: crashes\n",
					"\nThe installed set:\n",
				} {
					if !strings.Contains(out, want) {
						t.Errorf("the summary lacks %q:\n%s", want, out[:min(600, len(out))])
					}
				}
			case "markdown":
				for _, want := range []string{"## Installed set · .mcp.json\n", "| Server | Tools | Grade | Score | Note |\n", "| `memory` | 9 | B | 88.3 |  |\n", "| `crashes` | - | - | - | FAILED at export", "Not scored: `crashes`.", "### Server memory", "### Server git"} {
					if !strings.Contains(out, want) {
						t.Errorf("the Markdown lacks %q", want)
					}
				}
			case "sarif":
				var log struct {
					Version string            `json:"version"`
					Runs    []json.RawMessage `json:"runs"`
				}
				if err := json.Unmarshal(buf.Bytes(), &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 3 {
					t.Errorf("SARIF: version %q, %d runs (want 2.1.0, one for each scored server and one for the set): %v", log.Version, len(log.Runs), err)
				}
			}
			path := filepath.Join(dir, "out."+f)
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if ours, why := run.Wrote(path); !ours {
				t.Errorf("run.Wrote does not recognise the document: %s", why)
			}
		})
	}
	if err := serverset.Write(&bytes.Buffer{}, d, "html", text.Options{}); err == nil {
		t.Error("an unknown format was written")
	}
}

// TestNothingRead: a document with no server read has no set, and says so.
func TestNothingRead(t *testing.T) {
	d := &serverset.Document{Config: "c.json", Servers: []serverset.Entry{{Name: "a", Failed: failure{Stage: "config", Reason: "the environment variable X is not set"}}}}
	for _, f := range serverset.Formats {
		var buf bytes.Buffer
		if err := serverset.Write(&buf, d, f, text.Options{}); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if f == "json" && !strings.Contains(buf.String(), `"set": null`) {
			t.Errorf("json: %s", buf.String())
		}
		if f == "text" && !strings.Contains(buf.String(), "No server was read") {
			t.Errorf("text: %s", buf.String())
		}
	}
	if got := d.Failed(); len(got) != 1 || got[0] != "a" {
		t.Errorf("Failed() = %v", got)
	}
}

// TestBelow names each scored server under the threshold, and none for
// no threshold; a failed server is not below, it is failed.
func TestBelow(t *testing.T) {
	d := document(t)
	for _, c := range []struct {
		name string
		t    *rubric.Threshold
		want int
	}{
		{"no threshold", nil, 0},
		{"zero", &rubric.Threshold{Min: num.MustParse("0"), Label: "0"}, 0},
		{"above every score", &rubric.Threshold{Min: num.MustParse("1000"), Label: "1000"}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := d.Below(c.t)
			if len(got) != c.want {
				t.Fatalf("below: %q, want %d servers", got, c.want)
			}
			if c.want > 0 && (!strings.HasPrefix(got[0], "memory: overall score ") || !strings.HasPrefix(got[1], "git: ")) {
				t.Errorf("below: %q", got)
			}
		})
	}
}

// TestWriteFile writes what Write writes, without colour.
func TestWriteFile(t *testing.T) {
	d := document(t)
	path := filepath.Join(t.TempDir(), "servers.txt")
	if err := serverset.WriteFile(path, d, "text", text.Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := serverset.Write(&want, d, "text", text.Options{}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Errorf("the file holds:\n%s\nwant:\n%s", got, want.String())
	}
	if err := serverset.WriteFile(filepath.Join(path, "under-a-file"), d, "json", text.Options{}); err == nil || !strings.HasPrefix(err.Error(), "write ") {
		t.Errorf("a path that cannot be written: %v", err)
	}
}

// TestWriteOutputs writes the main output to the stream when there is no
// --out, and each writer's file in that writer's format.
func TestWriteOutputs(t *testing.T) {
	d := document(t)
	dir := t.TempDir()
	main, err := writers.Find("text")
	if err != nil {
		t.Fatal(err)
	}
	var stream bytes.Buffer
	o := writers.Outputs{Main: main, Files: map[string]string{"json": filepath.Join(dir, "servers.json"), "markdown": ""}}
	if err := serverset.WriteOutputs(&stream, d, o, text.Options{}); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := serverset.Write(&want, d, "text", text.Options{}); err != nil {
		t.Fatal(err)
	}
	if stream.String() != want.String() {
		t.Errorf("the stream holds:\n%s\nwant:\n%s", stream.String(), want.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b) || !strings.Contains(string(b), `"servers_version"`) {
		t.Errorf("--json holds %.200s", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files written, want the one named", len(entries))
	}
	o = writers.Outputs{Main: main, Out: filepath.Join(dir, "servers.txt")}
	stream.Reset()
	if err := serverset.WriteOutputs(&stream, d, o, text.Options{}); err != nil || stream.Len() != 0 {
		t.Errorf("with --out: error %v, %d bytes on the stream", err, stream.Len())
	}
}

// failingStream is a terminal that cannot be written to (a full disk
// behind > file).
type failingStream struct{}

func (failingStream) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteOutputsFilesFirst: the files the flags name are written
// before the stream, so a stream that fails loses none of them.
func TestWriteOutputsFilesFirst(t *testing.T) {
	d := document(t)
	dir := t.TempDir()
	main, err := writers.Find("text")
	if err != nil {
		t.Fatal(err)
	}
	o := writers.Outputs{Main: main, Files: map[string]string{"json": filepath.Join(dir, "servers.json")}}
	if err := serverset.WriteOutputs(failingStream{}, d, o, text.Options{}); err == nil {
		t.Error("the stream's failure was not returned")
	}
	if _, err := os.Stat(filepath.Join(dir, "servers.json")); err != nil {
		t.Errorf("--json not written: %v", err)
	}
}

// TestMarkdownHeadingsNest: each server's report sits under its "Server"
// heading and the set's under its own, never above them (a "### Server
// tidy" was followed by "## Schema Quality", so each report outranked the
// heading it was under), and no heading skips a level.
func TestMarkdownHeadingsNest(t *testing.T) {
	var buf bytes.Buffer
	if err := serverset.Write(&buf, document(t), "markdown", text.Options{}); err != nil {
		t.Fatal(err)
	}
	var headings []string
	prev := 1
	for line := range strings.Lines(buf.String()) {
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if level == 0 || !strings.HasPrefix(line[level:], " ") {
			continue
		}
		if level > prev+1 {
			t.Errorf("heading %q skips from level %d to %d", strings.TrimSpace(line), prev, level)
		}
		prev = level
		headings = append(headings, strings.TrimSpace(line))
	}
	got := strings.Join(headings, "\n")
	for _, want := range []string{
		"## Installed set · .mcp.json\n### The installed set\n#### ",
		"### Server memory\n#### Schema Quality 1.1.0\n##### Tools\n##### Fix list\n### Server git\n#### Schema Quality 1.1.0\n##### Tools\n##### Fix list",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the headings lack\n%s\nin\n%s", want, got)
		}
	}
}

// TestMarkdownNoEmptyColumn: when every server scored, the table of
// servers has no column of notes; it had one, its heading and every cell
// empty.
func TestMarkdownNoEmptyColumn(t *testing.T) {
	d := document(t)
	d.Servers = append(d.Servers[:1], d.Servers[2:]...)
	var buf bytes.Buffer
	if err := serverset.Write(&buf, d, "markdown", text.Options{}); err != nil {
		t.Fatal(err)
	}
	want := "| Server | Tools | Grade | Score |\n|---|---:|:---:|---:|\n| `memory` | 9 | B | 88.3 |\n| `git` | 28 | A | 93.9 |\n\n"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("want the table of servers\n%q\ngot\n%q", want, buf.String()[:min(300, buf.Len())])
	}
}

// TestCutReason: a failure's reason too long for the terminal's table is
// cut, and a line says where it is whole, since its end is often the
// advice; a short one is not cut and no line is added.
func TestCutReason(t *testing.T) {
	long := "server exited before answering initialize; " + strings.Repeat("at frame ", 30) + "show its folder with --sandbox-ro DIR"
	for _, c := range []struct {
		reason string
		says   bool
	}{{long, true}, {"the environment variable X is not set", false}} {
		d := &serverset.Document{Config: "c.json", Servers: []serverset.Entry{{Name: "a", Failed: failure{Stage: "export", Reason: c.reason}}}}
		var buf bytes.Buffer
		if err := serverset.Write(&buf, d, "text", text.Options{}); err != nil {
			t.Fatal(err)
		}
		says := strings.Contains(buf.String(), "\n(a reason cut short with … is whole with --server NAME, and in --format json or --markdown)\n")
		if says != c.says || (c.says && strings.Contains(buf.String(), "--sandbox-ro DIR")) {
			t.Errorf("reason of %d characters: %s", len(c.reason), buf.String())
		}
	}
}

// TestSARIFRunIDs: every run of a configuration's SARIF log has an
// automationDetails.id of its own, as GitHub code scanning requires of
// the runs of one tool in one upload. Two entries whose servers give one
// name (one package configured twice) are told apart by their names in
// the configuration; a server whose name is its own keeps its id.
func TestSARIFRunIDs(t *testing.T) {
	d := document(t)
	d.Servers = append(d.Servers, serverset.Entry{Name: "memory-2", Report: reporttest.Capture(t, "memory.tools.json")})
	for _, tc := range []struct {
		category string
		want     []string
	}{
		{"", []string{"rubric/schema-quality/memory/", "rubric/schema-quality/@cyanheads-git-mcp-server/", "rubric/schema-quality/memory-2/", "rubric/schema-quality/mcp-servers-everything/"}},
		{"mcp", []string{"mcp/schema-quality/memory/", "mcp/schema-quality/@cyanheads-git-mcp-server/", "mcp/schema-quality/memory-2/", "mcp/schema-quality/mcp-servers-everything/"}},
	} {
		t.Run("category "+tc.category, func(t *testing.T) {
			var buf bytes.Buffer
			if err := serverset.Write(&buf, d, "sarif", text.Options{SARIFCategory: tc.category}); err != nil {
				t.Fatal(err)
			}
			var log struct {
				Runs []struct {
					AutomationDetails struct {
						ID string `json:"id"`
					} `json:"automationDetails"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range log.Runs {
				got = append(got, r.AutomationDetails.ID)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("ids %q, want %q", got, tc.want)
			}
		})
	}
}
