package scan_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/scan"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// writeReports writes a report file at every path the scan's records
// name, and an HTML page beside gamma's tdqs report only: the
// leaderboard links that one to its page and the others to their JSON.
func writeReports(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{"alpha", "beta", "gamma", "empty"} {
		for _, r := range []string{"schema-quality", "tdqs"} {
			path := filepath.Join(dir, "reports", name, r+".json")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(`{"report_version": 1}`), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	page := []byte("<!doctype html><html lang=en><meta charset=utf-8><title>gamma · tdqs</title><p>gamma</p></html>\n")
	if err := os.WriteFile(filepath.Join(dir, "reports", "gamma", "tdqs.html"), page, 0o644); err != nil {
		t.Fatal(err)
	}
}

// leaderboard.html holds what leaderboard.md does: the totals, the
// servers ranked in a table per combination of judge configurations
// (tdqs has two, so its scores are not comparable), the judges and the
// failures. Golden: testdata/leaderboard.html (go test -update rewrites
// it; open it in a browser to review).
func TestLeaderboardHTML(t *testing.T) {
	dir := fixtureScan(t)
	writeReports(t, dir)
	if _, err := scan.Build(dir, "test"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "leaderboard.html"))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "leaderboard.html")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./engine/scan -run LeaderboardHTML -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("leaderboard.html differs from %s (go test -update rewrites it, then review the diff):\n%s", golden, got)
	}
}

// Names and reasons come from the servers scanned: they are escaped, and
// a report path is a link that stays in the scan's directory.
func TestLeaderboardHTMLEscapes(t *testing.T) {
	dir := writeScan(t, scan.Record{Key: "k1", Name: `<script>alert(1)</script>`, Scores: map[string]scan.Score{
		"schema-quality": {Score: num("1"), Report: "reports/a b#?/schema-quality.json"},
	}}, scan.Record{Key: "k2", Name: "x", Failed: &scan.Failed{Stage: "read", Reason: `<img src=x onerror=alert(1)>`}})
	if _, err := scan.Build(dir, "test"); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "leaderboard.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script>alert", "<img src=x", `href="reports/a b#?`} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("leaderboard.html holds %q unescaped", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;", `href="reports/a%20b%23%3F/schema-quality.json"`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("leaderboard.html lacks %q", want)
		}
	}
}

// TestOneServerIsOne: a leaderboard of one server, one tool and one
// judge call says each in the singular, in Markdown and in HTML.
func TestOneServerIsOne(t *testing.T) {
	lb := &scan.Leaderboard{Totals: scan.Totals{Servers: 1, Scored: 1, Tools: 1, Calls: 1}}
	var md strings.Builder
	if err := lb.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	var page strings.Builder
	if err := lb.WriteHTML(&page, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ what, got, want string }{
		{"Markdown", md.String(), "## Scan · 1 server\n\n1 scored · 0 failed · 1 tool · 1 judge call ("},
		{"HTML", page.String(), "<h1>Scan · 1 server</h1>\n<p class=\"totals\">1 scored · 0 failed · 1 tool ·"},
	} {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("%s does not say %q:\n%s", c.what, c.want, c.got)
		}
	}
}

// Names and reasons come from the list and from the servers' stderr:
// leaderboard.md writes them as text, as score's Markdown does, so that
// no server puts HTML, an image, a link or a line break into a
// leaderboard published as a job summary or a comment.
func TestLeaderboardMarkdownEscapes(t *testing.T) {
	dir := writeScan(t, scan.Record{Key: "k1", Name: "<img src=x onerror=alert(1)>", Scores: map[string]scan.Score{
		"schema-quality": {Score: num("1"), Report: "reports/a/schema-quality.json"},
	}}, scan.Record{Key: "k2", Name: "new\nline](http://evil)", Scores: map[string]scan.Score{
		"schema-quality": {Score: num("2"), Report: "reports/b/schema-quality.json"},
	}}, scan.Record{Key: "k3", Name: "pipe|name", Failed: &scan.Failed{Stage: "export",
		Reason: "its stderr ended with: fatal | error <img src=https://evil.example/x.png> `tick` [link](http://evil)"}})
	if _, err := scan.Build(dir, "test"); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "leaderboard.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ bad, want string }{
		{"| <img src=x", `\<img src=x onerror=alert(1)\>`},
		{"line](http://evil)", `new line\](http\://evil)`},
		{"error <img src=https", `\<img src=https\://evil.example/x.png\>`},
		{"`tick`", "\\`tick\\`"},
		{"[link](http://evil)", `\[link\](http\://evil)`},
		{"pipe|name", `pipe\|name`},
	} {
		if bytes.Contains(md, []byte(c.bad)) {
			t.Errorf("leaderboard.md holds %q unescaped", c.bad)
		}
		if !bytes.Contains(md, []byte(c.want)) {
			t.Errorf("leaderboard.md lacks %q:\n%s", c.want, md)
		}
	}
}
