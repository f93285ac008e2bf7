package run_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestWrote writes a report in every format and a failure record, and
// checks that Wrote knows each of them, and none of the files a flag may
// name by mistake.
func TestWrote(t *testing.T) {
	dir := t.TempDir()
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	s := run.New(run.Options{Plugins: &inProcess{}})
	defer s.Close()
	rep, err := s.Scan(context.Background(), source("memory.tools.json"), r, run.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range writers.All {
		if err := w.WriteFile(filepath.Join(dir, "report."+w.Name), rep, text.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	unscored := *rep
	unscored.Complete = false
	if err := writers.All[2].WriteFile(filepath.Join(dir, "unscored.markdown"), &unscored, text.Options{}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Scan(context.Background(), source("nosuch.tools.json"), r, run.ScanOptions{Failed: filepath.Join(dir, "failed.json")})
	if err == nil {
		t.Fatal("a missing target scanned")
	}
	rubricFile := filepath.Join(dir, "mine.hcl")
	write(t, rubricFile, `rubric "mine" { version = "1.0.0" }`)
	write(t, filepath.Join(dir, "empty.json"), `{}`)
	write(t, filepath.Join(dir, "notes.md"), "## Notes\n\nsurface is a word.\n")
	write(t, filepath.Join(dir, "page.html"), "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>rubric</title>\n")
	write(t, filepath.Join(dir, "other.sarif"), `{"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [{"tool": {"driver": {"name": "eslint"}}}]}`)
	if err := os.Symlink(filepath.Join(dir, "report.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file string
		ours bool
		why  string
	}{
		{"report.text", true, ""},
		{"report.json", true, ""},
		{"report.markdown", true, ""},
		{"report.sarif", true, ""},
		{"report.html", true, ""},
		{"unscored.markdown", true, ""},
		{"failed.json", true, ""},
		{"nothing.json", false, ""},
		{"mine.hcl", false, "does not begin as"},
		{"empty.json", false, "does not begin as"},
		{"notes.md", false, "does not begin as"},
		{"page.html", false, "does not begin as"},
		{"other.sarif", false, "does not begin as"},
		{"link.json", false, "not a regular file"},
		{"../" + filepath.Base(dir), false, "not a regular file"},
	}
	for _, tt := range tests {
		ours, why := run.Wrote(filepath.Join(dir, tt.file))
		if ours != tt.ours || !strings.Contains(why, tt.why) || (tt.why == "") != (why == "") {
			t.Errorf("Wrote(%s) = %v, %q; want %v, %q", tt.file, ours, why, tt.ours, tt.why)
		}
	}
	// The corpus's own tools file is nobody's report.
	if ours, _ := run.Wrote(corpus + "memory.tools.json"); ours {
		t.Error("a tools file counts as a report")
	}
}

// TestFailedScanKeepsForeignFiles fails a scan whose outputs name its own
// target and a file of another program, and whose failure record path
// holds another program's file: each is left as it was. The code before
// the fix removed the outputs and overwrote the failure record whatever
// they held.
func TestFailedScanKeepsForeignFiles(t *testing.T) {
	dir := t.TempDir()
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "tools.json")
	b, err := os.ReadFile(corpus + "memory.tools.json")
	if err != nil {
		t.Fatal(err)
	}
	write(t, target, string(b))
	notes, failed := filepath.Join(dir, "notes.md"), filepath.Join(dir, "failed.json")
	write(t, notes, "# my notes\n")
	write(t, failed, `{"build": "failed", "by": "make"}`)
	s := run.New(run.Options{Plugins: &inProcess{}})
	defer s.Close()
	broken := errors.New("the disk is full")
	_, err = s.Scan(context.Background(), run.Source{Transport: "file", Target: transport.Target{Location: target}}, r, run.ScanOptions{
		Write:   func(*report.Report) error { return broken },
		Failed:  failed,
		Outputs: []string{target, notes},
	})
	if !errors.Is(err, broken) {
		t.Fatalf("error %v, want %v", err, broken)
	}
	for path, want := range map[string]string{target: string(b), notes: "# my notes\n", failed: `{"build": "failed", "by": "make"}`} {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
		} else if string(got) != want {
			t.Errorf("%s now holds %.60q", filepath.Base(path), got)
		}
	}
	// A complete scan leaves a failed.json that is not rubric's.
	if _, err := s.Scan(context.Background(), source("memory.tools.json"), r, run.ScanOptions{Failed: failed}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(failed); err != nil {
		t.Errorf("a complete scan removed another program's failed.json: %v", err)
	}
}

func TestCheckOutputs(t *testing.T) {
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.json")
	write(t, tools, "[]")
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(tools, link); err != nil {
		t.Fatal(err)
	}
	in := []run.Flagged{{Flag: "the target", Path: tools}, {Flag: "--rubric", Path: "mine.hcl"}, {Flag: "--answers", Path: ""}}
	write(t, tools+".out", "")
	if err := os.Symlink(tools+".out", filepath.Join(dir, "outlink")); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "ro")
	if err := os.Mkdir(readOnly, 0o555); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		outputs []run.Flagged
		failed  string
		wantErr string
		// unprivileged: the case holds only for a user whom permissions
		// bind; root writes anywhere.
		unprivileged bool
	}{
		{name: "distinct", outputs: []run.Flagged{{"--out", filepath.Join(dir, "r.json")}, {"--json", ""}}, failed: filepath.Join(dir, "failed.json")},
		{name: "standard output", outputs: []run.Flagged{{"--out", "-"}}},
		{name: "out is the target", outputs: []run.Flagged{{"--out", tools}},
			wantErr: "--out " + tools + " is the file the target reads"},
		{name: "another name of the target", outputs: []run.Flagged{{"--markdown", link}},
			wantErr: "--markdown " + link + " is the file the target reads"},
		{name: "a relative path to the target", outputs: []run.Flagged{{"--sarif", filepath.Join(dir, ".", "x", "..", "tools.json")}},
			wantErr: "is the file the target reads"},
		{name: "the rubric, not yet seen", outputs: []run.Flagged{{"--json", "./mine.hcl"}},
			wantErr: "--json ./mine.hcl is the file --rubric reads"},
		{name: "failure record over an output", outputs: []run.Flagged{{"--json", "r.json"}}, failed: "r.json",
			wantErr: "--json r.json is where the failure record would go (--failed)"},
		{name: "failure record over the target", failed: tools,
			wantErr: "is the file the target reads"},
		{name: "two outputs, one file", outputs: []run.Flagged{{"--json", filepath.Join(dir, "a.json")}, {"--markdown", filepath.Join(dir, ".", "a.json")}},
			wantErr: "--json and --markdown both name " + filepath.Join(dir, "a.json") + ": one would replace the other; give each its own file"},
		{name: "two names of one existing file", outputs: []run.Flagged{{"--out", tools + ".out"}, {"--sarif", filepath.Join(dir, "outlink")}},
			wantErr: "--out and --sarif both name"},
		{name: "out is a directory", outputs: []run.Flagged{{"--out", dir}},
			wantErr: "--out " + dir + " is a directory; give a file name"},
		{name: "out under a file", outputs: []run.Flagged{{"--out", filepath.Join(tools, "rep.json")}},
			wantErr: "cannot write " + filepath.Join(tools, "rep.json") + ": " + tools + " is a file, not a folder; choose another --out"},
		{name: "out deeper under a file", outputs: []run.Flagged{{"--json", filepath.Join(tools, "x", "rep.json")}},
			wantErr: "cannot write " + filepath.Join(tools, "x", "rep.json") + ": " + tools + " is a file, not a folder; choose another --json"},
		{name: "failure record under a file", failed: filepath.Join(tools, "failed.json"),
			wantErr: "is a file, not a folder; choose another --failed"},
		{name: "out in folders yet to be made", outputs: []run.Flagged{{"--out", filepath.Join(dir, "new", "deeper", "rep.json")}}},
		{name: "out in a read-only folder", outputs: []run.Flagged{{"--out", filepath.Join(readOnly, "rep.json")}},
			wantErr: "cannot write " + filepath.Join(readOnly, "rep.json") + ": the folder " + readOnly + " is not writable (permission denied); choose another --out", unprivileged: true},
		{name: "the device", outputs: []run.Flagged{{"--out", os.DevNull}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.unprivileged && os.Geteuid() == 0 {
				t.Skip("root writes to a read-only folder")
			}
			err := run.CheckOutputs(in, tt.outputs, run.Flagged{Flag: "--failed", Path: tt.failed})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one saying %q", err, tt.wantErr)
			}
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
