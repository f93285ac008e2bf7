// Package modernmcp runs the MCP test servers of testdata/modern, written
// with the official TypeScript SDK v2 (@modelcontextprotocol/server),
// which speaks protocol revision 2026-07-28 and, unless told to refuse it,
// the legacy initialize handshake too. Tests read them over stdio and
// streamable HTTP and compare what they read with the definitions the
// servers send (tools.json), keyword for keyword.
//
// The SDK is installed by make testdeps. Without it a test is skipped,
// unless RUBRIC_REQUIRE_SERVERS is set (make test sets it), when it fails.
package modernmcp

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Dir returns the absolute path of testdata/modern, with the SDK
// installed, or skips (or fails) the test.
func Dir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			dir := filepath.Join(d, "testdata", "modern")
			_, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server", "package.json"))
			if err == nil {
				_, err = exec.LookPath("node")
			}
			if err != nil {
				if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
					t.Fatalf("the SDK v2 test servers cannot run: run make testdeps (%v)", err)
				}
				t.Skipf("the SDK v2 test servers cannot run: run make testdeps (%v)", err)
			}
			return dir
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no go.mod above %s", wd)
		}
	}
}

// Command returns the argv that serves the test server over stdio with
// the given options (--modern-only, --page-size N, --tools FILE).
func Command(t testing.TB, options ...string) []string {
	t.Helper()
	return append([]string{"node", filepath.Join(Dir(t), "server.mjs"), "stdio"}, options...)
}

// HTTP starts the test server over streamable HTTP with the given
// options and returns its URL. The server is killed when the test ends.
func HTTP(t testing.TB, options ...string) string {
	t.Helper()
	cmd := exec.Command("node", append([]string{filepath.Join(Dir(t), "server.mjs"), "http"}, options...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		for sc.Scan() {
		}
	}()
	// The server writes its URL once it listens; the wait only bounds a
	// server that never does.
	select {
	case url, ok := <-line:
		if !ok || !strings.HasPrefix(url, "http://") {
			t.Fatalf("the test server did not say where it listens (first line %q)", url)
		}
		return url
	case <-time.After(60 * time.Second):
		t.Fatal("the test server did not say where it listens within 60s")
	}
	return ""
}

// Tools returns the tool definitions the test server sends in the era
// given ("legacy" or "modern"), decoded. They are tools.json's, except
// that in revision 2026-07-28 the SDK leaves out a tool's "execution"
// member (its codec drops the task fields that revision removed).
func Tools(t testing.TB, era string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(t), "tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if era == "modern" {
		for _, tool := range doc.Tools {
			delete(tool, "execution")
		}
	}
	return doc.Tools
}
