// Package buildtest builds this module's programs for tests that need them
// as real executables: example servers to spawn, example plugins to start.
package buildtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Binary builds the package pkg (a path from the module root, such as
// "./examples/servers/tidy") with go build into dir, or a temporary
// directory when dir is empty, names it name, and returns its path.
//
// The binary has no symbol table and no DWARF (-ldflags=-s -w): a test
// runs it and never debugs it, and without them rubric links in a
// seventh less time and is a quarter smaller to copy and archive.
func Binary(tb testing.TB, pkg, dir, name string) string {
	tb.Helper()
	if dir == "" {
		dir = tb.TempDir()
	}
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", out, pkg)
	cmd.Dir = moduleRoot(tb)
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// moduleRoot is the nearest directory above the working directory that
// holds go.mod.
func moduleRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}
