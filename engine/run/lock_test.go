package run_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/run"
)

// TestLockAndVerifyServers locks a set of servers, then verifies other
// sets against that lock: unchanged, a server added, removed, changed
// and unreadable.
func TestLockAndVerifyServers(t *testing.T) {
	s := run.New(run.Options{Plugins: &gated{bound: 1, release: make(chan struct{})}})
	defer s.Close()
	path := t.TempDir() + "/rubric.lock.json"
	memory := run.Server{Name: "memory", Source: source("memory.tools.json")}
	git := run.Server{Name: "git", Source: source("git.tools.json")}
	gone := run.Server{Name: "gone", Source: source("nosuch.tools.json")}

	var out, errOut bytes.Buffer
	if err := s.LockServers(t.Context(), "mcp.json", []run.Server{memory, gone}, path, run.ServersOptions{}, &out, &errOut); err == nil || !strings.Contains(err.Error(), "nothing is locked") || !strings.HasPrefix(errOut.String(), "unreadable: gone: ") {
		t.Fatalf("an unreadable server locked: error %v, stderr %q", err, errOut.String())
	}
	out.Reset()
	if err := s.LockServers(t.Context(), "mcp.json", []run.Server{memory, git}, path, run.ServersOptions{}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "locked ") || !strings.HasSuffix(out.String(), " of 2 servers in "+path+"\n") {
		t.Errorf("lock said %q", out.String())
	}
	locked, err := lock.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	changedGit := run.Server{Name: "git", Source: source("memory.tools.json")}
	for _, c := range []struct {
		name    string
		servers []run.Server
		changed int
		unread  bool
		says    string
	}{
		{"unchanged", []run.Server{memory, git}, 0, false, "verified: every tool of every server is as locked\n"},
		{"added", []run.Server{memory, git, {Name: "extra", Source: source("git.tools.json")}}, 1, false, "added server: extra\n"},
		{"removed", []run.Server{memory}, 1, false, "removed server: git\n"},
		{"changed", []run.Server{memory, changedGit}, 1, false, "server git:\n  "},
		{"unreadable", []run.Server{memory, {Name: "git", Source: source("nosuch.tools.json")}}, 0, true, "unreadable: git: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			changed, err := s.VerifyServers(t.Context(), c.servers, locked, run.ServersOptions{}, &out)
			if changed != c.changed || (err != nil) != c.unread {
				t.Errorf("changed %d, error %v; want %d, unreadable %t", changed, err, c.changed, c.unread)
			}
			if !strings.Contains(out.String(), c.says) {
				t.Errorf("said %q, want %q in it", out.String(), c.says)
			}
		})
	}
}

// TestLockAndVerifyServer locks one server, then verifies it unchanged
// and changed.
func TestLockAndVerifyServer(t *testing.T) {
	s := run.New(run.Options{Plugins: &gated{bound: 1, release: make(chan struct{})}})
	defer s.Close()
	path := t.TempDir() + "/rubric.lock.json"
	var out bytes.Buffer
	if err := s.LockServer(t.Context(), source("memory.tools.json"), path, &out); err != nil || out.String() != "locked 9 tools in "+path+"\n" {
		t.Fatalf("lock: error %v, said %q", err, out.String())
	}
	locked, err := lock.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		src     run.Source
		changed bool
	}{
		{"unchanged", source("memory.tools.json"), false},
		{"changed", source("git.tools.json"), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			changed, err := s.VerifyServer(t.Context(), c.src, run.Verify{Lock: locked}, &out)
			if err != nil || (changed > 0) != c.changed || out.Len() == 0 {
				t.Errorf("changed %d, error %v, said %q", changed, err, out.String())
			}
		})
	}
	if _, err := s.VerifyServer(t.Context(), source("nosuch.tools.json"), run.Verify{Lock: locked}, &out); err == nil {
		t.Error("an unreadable server verified")
	}
}
