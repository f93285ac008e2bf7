package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
)

// TestPublishedServersInSandbox spawns the published servers of
// TestPublishedServersOverStdio under --sandbox bwrap, through the built-in
// stdio plugin: each reads exactly as captured, with its packages shown as
// the working directory or by --sandbox-ro, and nothing else of the host.
func TestPublishedServersInSandbox(t *testing.T) {
	t.Parallel()
	bin := servers(t)
	if err := exec.Command("bwrap", "--unshare-all", "--ro-bind", "/", "/", "true").Run(); err != nil {
		if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
			t.Fatalf("bwrap does not run here (%v): apt-get install bubblewrap", err)
		}
		t.Skipf("bwrap does not run here (%v): apt-get install bubblewrap", err)
	}
	pkgs := filepath.Dir(filepath.Dir(bin)) // testdata/servers, holding node_modules
	tmp := t.TempDir()
	box := transport.Sandbox{Kind: transport.SandboxBwrap}
	for _, tc := range []struct {
		capture string
		target  transport.Target
	}{
		{"everything.tools.json", transport.Target{Location: "node", Args: []string{"node_modules/.bin/mcp-server-everything", "stdio"}, Dir: pkgs, Sandbox: box}},
		{"memory.tools.json", transport.Target{Location: filepath.Join(bin, "mcp-server-memory"), Dir: pkgs, Sandbox: box,
			Env: map[string]string{"MEMORY_FILE_PATH": "/tmp/memory.jsonl"}}},
		{"filesystem.tools.json", transport.Target{Location: filepath.Join(bin, "mcp-server-filesystem"), Args: []string{"."}, Dir: tmp,
			Sandbox: transport.Sandbox{Kind: transport.SandboxBwrap, Cwd: transport.CwdWritable, ReadOnly: []string{pkgs}}}},
	} {
		t.Run(strings.TrimSuffix(tc.capture, ".tools.json"), func(t *testing.T) {
			t.Parallel()
			sameAsCapture(t, exportBuiltin(t, "stdio", tc.target), tc.capture)
		})
	}
}
