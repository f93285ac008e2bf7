package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/scan"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestScanPublishedServers scans the published servers of
// testdata/servers as the registry lists them (server.json entries of
// npm packages): testdata/servers' lock file is installed once with npm
// ci, from npm's cache (make testdeps fills it), and copied into a
// directory of each server's own; each is started under bubblewrap, read
// and scored. Each reads
// exactly as the corpus captured it, and scores as its capture does.
func TestScanPublishedServers(t *testing.T) {
	heavytest.Later(t)
	t.Parallel()
	servers(t) // make testdeps has installed them, so npm's cache holds them
	if err := exec.Command("bwrap", "--unshare-all", "--ro-bind", "/", "/", "true").Run(); err != nil {
		if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
			t.Fatalf("bwrap does not run here (%v): apt-get install bubblewrap", err)
		}
		t.Skipf("bwrap does not run here (%v): apt-get install bubblewrap", err)
	}
	lock, err := filepath.Abs("../../testdata/servers")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	list := filepath.Join(dir, "servers.json")
	if err := os.WriteFile(list, []byte(`[
 {"server": {"name": "memory", "version": "2026.8.31",
   "packages": [{"registryType": "npm", "identifier": "@modelcontextprotocol/server-memory", "version": "2026.8.31", "runtimeHint": "npx",
     "transport": {"type": "stdio"}, "environmentVariables": [{"name": "MEMORY_FILE_PATH", "default": "/tmp/memory.jsonl"}]}]}},
 {"server": {"name": "everything", "version": "2026.8.31",
   "packages": [{"registryType": "npm", "identifier": "@modelcontextprotocol/server-everything", "version": "2026.8.31", "runtimeHint": "npx",
     "transport": {"type": "stdio"}, "packageArguments": [{"type": "positional", "value": "stdio"}]}]}},
 {"server": {"name": "filesystem", "version": "2026.8.31",
   "packages": [{"registryType": "npm", "identifier": "@modelcontextprotocol/server-filesystem", "version": "2026.8.31", "runtimeHint": "npx",
     "transport": {"type": "stdio"}, "packageArguments": [{"type": "positional", "valueHint": "allowed_directory", "default": "/tmp", "isRequired": true}]}]}}
]`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "scan")
	var stdout, stderr bytes.Buffer
	code := execute([]string{"scan", list, "--rubric", "schema-quality", "--out", out, "--npm-lock", lock, "--npm-offline", "--parallel", "3", "--attempts", "1", "--cache-dir", filepath.Join(dir, "cache")}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("rubric scan: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	var lb scan.Leaderboard
	data, err := os.ReadFile(filepath.Join(out, "leaderboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &lb); err != nil {
		t.Fatal(err)
	}
	if len(lb.Failed) != 0 || len(lb.Servers) != 3 {
		t.Fatalf("leaderboard: %+v\n%s", lb, stderr.String())
	}
	// The same servers' captures, scanned: those three alone, as each
	// capture the scan reads is a file transport's start and a score.
	captures := filepath.Join(dir, "captures")
	if err := os.Mkdir(captures, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range lb.Servers {
		name := s.Name + ".tools.json"
		data, err := os.ReadFile(filepath.Join(corpusDir, name))
		if err != nil {
			t.Fatalf("the corpus has no capture of %s: %v", s.Name, err)
		}
		if err := os.WriteFile(filepath.Join(captures, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	captured := filepath.Join(dir, "captured")
	if code := execute([]string{"scan", captures, "--rubric", "schema-quality", "--out", captured, "--db", "memory", "--cache-dir", filepath.Join(dir, "cache")}, &stdout, &stderr); code != 0 {
		t.Fatalf("rubric scan of the captures: exit %d\n%s", code, stderr.String())
	}
	want := map[string]scan.EntryScore{}
	var clb scan.Leaderboard
	data, err = os.ReadFile(filepath.Join(captured, "leaderboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &clb); err != nil {
		t.Fatal(err)
	}
	for _, s := range clb.Servers {
		want[s.Name] = s.Scores["schema-quality"]
	}
	for _, s := range lb.Servers {
		t.Run(s.Name, func(t *testing.T) {
			got := s.Scores["schema-quality"]
			if got.Score.String() != want[s.Name].Score.String() || *got.Grade != *want[s.Name].Grade {
				t.Errorf("scored %s %s live, %s %s captured", got.Score, *got.Grade, want[s.Name].Score, *want[s.Name].Grade)
			}
			var rep struct {
				Target   string          `json:"target"`
				Embedded json.RawMessage `json:"embedded_surface"`
			}
			data, err := os.ReadFile(filepath.Join(out, got.Report))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatal(err)
			}
			surf, err := surface.Parse(s.Name, rep.Embedded)
			if err != nil {
				t.Fatal(err)
			}
			sameAsCapture(t, surf, s.Name+".tools.json")
		})
	}
	if _, err := os.Stat(filepath.Join(out, "install")); err == nil {
		if left, _ := os.ReadDir(filepath.Join(out, "install")); len(left) > 0 {
			t.Errorf("%d install directories left behind", len(left))
		}
	}
}
