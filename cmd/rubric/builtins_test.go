package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/buildtest"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/plugins/host"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

const (
	serversDir = "../../testdata/servers/node_modules/.bin"
	corpusDir  = "../../engine/score/testdata/corpus"
)

// servers returns the path of the npm-installed test servers, or skips
// the test when they are not installed, unless RUBRIC_REQUIRE_SERVERS is
// set (make test sets it, so CI never skips).
func servers(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(serversDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "mcp-server-everything")); err != nil {
		if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
			t.Fatalf("the published test servers are not installed: run make testdeps (%v)", err)
		}
		t.Skip("the published test servers are not installed: run make testdeps")
	}
	return dir
}

// exportBuiltin reads a target through a built-in transport plugin: the test
// binary re-executed, spoken to over the plugin protocol.
func exportBuiltin(t *testing.T, name string, target transport.Target) *surface.Surface {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := host.Discover(host.Builtins(exe, builtins), nil, nil)
	p, err := c.Find(protocol.KindTransport, name)
	if err != nil {
		t.Fatal(err)
	}
	// Neither bound is what is tested: they stop a run that hangs, and
	// on a loaded machine a plugin's start and a published server's
	// (node, under npm's package) take seconds.
	h := host.New(host.Options{StartTimeout: 2 * time.Minute})
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	tr, err := h.Transport(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tr.Export(ctx, target)
	if err != nil {
		t.Fatalf("%s %s: %v", name, target, err)
	}
	return s
}

// sameAsCapture checks that a live surface is, tool for tool and keyword
// for keyword, the corpus capture of the same server version.
func sameAsCapture(t *testing.T, got *surface.Surface, capture string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, capture))
	if err != nil {
		t.Fatal(err)
	}
	want, err := surface.Parse(capture, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tools) != len(want.Tools) {
		t.Fatalf("%d tools, the capture has %d", len(got.Tools), len(want.Tools))
	}
	for i, w := range want.Tools {
		g := got.Tools[i]
		if g.Name != w.Name {
			t.Errorf("tool %d is %s, the capture's is %s", i, g.Name, w.Name)
			continue
		}
		if g.Hash != w.Hash {
			t.Errorf("%s differs from the capture:\n got %s\nwant %s", g.Name, g.Canonical, w.Canonical)
		}
	}
	if got.Hash() != want.Hash() {
		t.Errorf("surface hash %s, the capture's %s", got.Hash(), want.Hash())
	}
	for _, k := range []string{"name", "version"} {
		if got.Server[k] != want.Server[k] {
			t.Errorf("server %s %v, the capture's %v", k, got.Server[k], want.Server[k])
		}
	}
}

// TestPublishedServersOverStdio spawns three published servers, pinned by
// testdata/servers/package-lock.json to the captured versions, and checks
// that what rubric reads is exactly what was captured.
func TestPublishedServersOverStdio(t *testing.T) {
	heavytest.Later(t)
	t.Parallel()
	bin := servers(t)
	tmp := t.TempDir()
	for _, tc := range []struct {
		capture string
		target  transport.Target
	}{
		{"everything.tools.json", transport.Target{Location: filepath.Join(bin, "mcp-server-everything"), Args: []string{"stdio"}}},
		{"memory.tools.json", transport.Target{Location: filepath.Join(bin, "mcp-server-memory"), Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(tmp, "memory.jsonl")}}},
		{"filesystem.tools.json", transport.Target{Location: filepath.Join(bin, "mcp-server-filesystem"), Args: []string{"."}, Dir: tmp}},
	} {
		t.Run(strings.TrimSuffix(tc.capture, ".tools.json"), func(t *testing.T) {
			t.Parallel()
			s := exportBuiltin(t, "stdio", tc.target)
			sameAsCapture(t, s, tc.capture)
			if s.Format != surface.FormatToolsList || s.Server["protocolVersion"] == nil {
				t.Errorf("format %q, server %v", s.Format, s.Server)
			}
		})
	}
}

// startHTTP starts a server command that listens on an address it prints
// on stderr, and returns that address (matched by re's first group).
func startHTTP(t *testing.T, cmd *exec.Cmd, re *regexp.Regexp) string {
	t.Helper()
	stderr, err := cmd.StderrPipe()
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
	// The server says where it listens once it does, however long a
	// loaded machine takes to start it; a server that ends first ends its
	// stderr, and a server that hangs is go test's -timeout to stop.
	found := make(chan string, 1)
	ended := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var seen []string
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				for sc.Scan() {
				}
				return
			}
			seen = append(seen, sc.Text())
		}
		ended <- strings.Join(seen, "\n")
	}()
	select {
	case addr := <-found:
		return addr
	case seen := <-ended:
		t.Fatalf("the server's stderr ended before it said where it listens:\n%s", seen)
	}
	return ""
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestPublishedServerOverHTTP reads server-everything in its streamable
// HTTP and its legacy SSE modes.
func TestPublishedServerOverHTTP(t *testing.T) {
	heavytest.Later(t)
	t.Parallel()
	bin := servers(t)
	for _, tc := range []struct{ mode, transport, path string }{
		{"streamableHttp", "http", "/mcp"},
		{"sse", "sse", "/sse"},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			port := freePort(t)
			cmd := exec.Command(filepath.Join(bin, "mcp-server-everything"), tc.mode)
			cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
			startHTTP(t, cmd, regexp.MustCompile(`(?i)(listening|running) on port (\d+)`))
			url := fmt.Sprintf("http://127.0.0.1:%d%s", port, tc.path)
			s := exportBuiltin(t, tc.transport, transport.Target{Location: url, Headers: map[string]string{"X-Rubric-Test": "1"}})
			sameAsCapture(t, s, "everything.tools.json")
			if s.Server["url"] != url {
				t.Errorf("server url %v", s.Server["url"])
			}
		})
	}
}

// TestExampleServerOverHTTP reads examples/servers/tidy over streamable
// HTTP and over stdio, paginated both ways: the two surfaces are one.
func TestExampleServerOverHTTP(t *testing.T) {
	heavytest.Later(t)
	t.Parallel()
	exe := buildtest.Binary(t, "./examples/servers/tidy", "", "tidy")
	addr := startHTTP(t, exec.Command(exe, "--http", "127.0.0.1:0", "--page-size", "2"), regexp.MustCompile(`listening on (http://\S+)`))
	overHTTP := exportBuiltin(t, "http", transport.Target{Location: addr})
	overStdio := exportBuiltin(t, "stdio", transport.Target{Location: exe, Args: []string{"--page-size", "3"}})
	if len(overHTTP.Tools) < 6 || overHTTP.Hash() != overStdio.Hash() {
		t.Errorf("http: %d tools %s; stdio: %d tools %s", len(overHTTP.Tools), overHTTP.Hash(), len(overStdio.Tools), overStdio.Hash())
	}
	if overHTTP.Server["name"] != "tidy" || overStdio.Server["name"] != "tidy" {
		t.Errorf("server names %v, %v", overHTTP.Server["name"], overStdio.Server["name"])
	}
}
