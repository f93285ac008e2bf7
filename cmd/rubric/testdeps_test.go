package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// testdepsCmd is "testdeps DIR...": each DIR of the repository (one of
// the Makefile's NPM_DIRS, or testdeps/sarif-multitool) holds the npm
// packages make testdeps installs from its lock file, or the script
// fails saying to run make testdeps (without them it would fail on
// something obscure, a node module not found). Transcripts skip before
// it, as the Go tests needing installed servers do, unless
// RUBRIC_REQUIRE_SERVERS is set (make test sets it), so that where the
// install failed (in CI) they fail rather than pass unread:
//
//	[!env:RUBRIC_REQUIRE_SERVERS] [!testdeps:testdata/modern] skip '...'
//	testdeps testdata/modern
func testdepsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: testdeps DIR...")
	}
	for _, dir := range args {
		if msg := testdepsMissing(ts.Getenv("REPO"), dir); msg != "" {
			ts.Fatalf("%s", msg)
		}
	}
}

// testdepsCondition is the scripts' condition [testdeps:DIR]: make
// testdeps has installed DIR's npm packages in the repository the
// tests run in.
func testdepsCondition(dir string) (bool, error) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return false, err
	}
	return testdepsMissing(repo, dir) == "", nil
}

// testdepsMissing says what make testdeps has yet to do for dir, a
// directory of the repository at repo, or "" when nothing: as the
// Makefile's rule, the install is done when node_modules/.package-lock.json
// (which npm writes last) is not older than dir's package-lock.json.
func testdepsMissing(repo, dir string) string {
	lock, err := os.Stat(filepath.Join(repo, dir, "package-lock.json"))
	if err != nil {
		return fmt.Sprintf("testdeps %s: %v: name a directory of the repository that make testdeps installs", dir, err)
	}
	done, err := os.Stat(filepath.Join(repo, dir, "node_modules", ".package-lock.json"))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("the npm packages of %s are not installed: run make testdeps in the repository", dir)
	case err != nil:
		return fmt.Sprintf("the npm packages of %s cannot be told installed (%v): run make testdeps in the repository", dir, err)
	case done.ModTime().Before(lock.ModTime()):
		return fmt.Sprintf("the npm packages of %s were installed from an older package-lock.json: run make testdeps in the repository", dir)
	}
	return ""
}

// TestTestdepsMissing: a transcript that needs npm packages make
// testdeps installs fails saying to run it when they are missing or
// were installed from an older lock file (modern.txtar failed on a node
// module not found), and goes on once they are installed.
func TestTestdepsMissing(t *testing.T) {
	lockTime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		name string
		// installed is when node_modules/.package-lock.json was
		// written, relative to the lock file; nil: never.
		installed *time.Duration
		want      string
	}{
		{"never installed", nil, "the npm packages of pkgs are not installed: run make testdeps in the repository"},
		{"installed from an older lock", new(-time.Hour), "the npm packages of pkgs were installed from an older package-lock.json: run make testdeps in the repository"},
		{"installed as the lock was written", new(time.Duration(0)), ""},
		{"installed since", new(time.Hour), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := t.TempDir()
			dir := filepath.Join(repo, "pkgs")
			lock := filepath.Join(dir, "package-lock.json")
			writeLock(t, lock)
			if err := os.Chtimes(lock, lockTime, lockTime); err != nil {
				t.Fatal(err)
			}
			if c.installed != nil {
				done := filepath.Join(dir, "node_modules", ".package-lock.json")
				writeLock(t, done)
				at := lockTime.Add(*c.installed)
				if err := os.Chtimes(done, at, at); err != nil {
					t.Fatal(err)
				}
			}
			if got := testdepsMissing(repo, "pkgs"); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	if got := testdepsMissing(t.TempDir(), "nosuch"); !strings.Contains(got, "name a directory of the repository that make testdeps installs") {
		t.Errorf("a directory with no lock file: got %q", got)
	}
}

// writeLock makes the lock file at path, and its directory, holding "{}".
func writeLock(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
}
