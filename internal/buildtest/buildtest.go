// Package buildtest builds this module's programs for tests that need them
// as real executables: example servers to spawn, example plugins to start.
package buildtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Binary builds the package pkg (a path from the module root, such as
// "./examples/servers/tidy") with go build into dir, or a temporary
// directory when dir is empty, names it name, and returns its path.
//
// The binary is built with -trimpath, so that its compiled packages are
// shared with any checkout's, and has no symbol table and no DWARF
// (-ldflags=-s -w): a test
// runs it and never debugs it, and without them rubric links in a
// seventh less time and is a quarter smaller to copy and archive.
func Binary(tb testing.TB, pkg, dir, name string) string {
	tb.Helper()
	if dir == "" {
		dir = tb.TempDir()
	}
	out := filepath.Join(dir, name)
	if err := Build(pkg, out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// Build builds the package pkg (a path from the module root) into the
// file out as Binary does, for callers without a testing.TB (a TestMain).
// The error carries go build's output.
func Build(pkg, out string) error {
	root, err := ModuleRoot()
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// ModuleRoot is the nearest directory at or above the working directory
// that holds a go.mod: for a test, which go test runs in its package's
// folder, the module's root. Tests find the repository's files from it
// rather than from their own source path, which make test's -trimpath
// leaves relative.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod at or above the working directory: run the tests with go test from inside the module")
		}
		dir = up
	}
}
