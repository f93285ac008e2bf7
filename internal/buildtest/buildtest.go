// Package buildtest builds this module's programs for tests that need them
// as real executables: example servers to spawn, example plugins to start.
package buildtest

import (
	"debug/buildinfo"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
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
	return build(root, nil, []string{"-trimpath", "-ldflags=-s -w"}, pkg, out)
}

// build builds the main package pkg with the build flags flags, in the
// directory dir and with the environment env (nil: the process's), into
// the file out. It builds with go run, which keeps the linked program in
// Go's build cache, and has cp copy it to out in place of starting it:
// go build links afresh every time, go run links a program only once
// for each content of its sources and flags, so that a test binary that
// builds the same helper program in each run of make test takes about a
// quarter of a CPU-second, no longer the second or more of its link.
func build(dir string, env, flags []string, pkg, out string) error {
	args := append([]string{"run"}, flags...)
	cmd := exec.Command("go", append(args, "-exec", "cp", pkg, out)...)
	cmd.Dir, cmd.Env = dir, env
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(cmd.Args[1:], " "), err, b)
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

// BuildAsSelf builds the package pkg (a path from the module root) into
// the file out with the build settings the running binary was made with
// (-race, -trimpath, -tags, the compiler and linker flags go build
// records, CGO_ENABLED, the target), and without VCS stamping, which a
// test binary has none of. Two binaries built so from one source have
// the same internal/buildinfo.ID, as a rubric and its companion plugins
// built by one go build do: a test binary can then start a companion
// (plugins/protocol.BuildEnv) as an installed rubric does. It fails,
// naming the difference, when the built file's recorded settings are not
// the running binary's.
func BuildAsSelf(pkg, out string) error {
	self, ok := debug.ReadBuildInfo()
	if !ok {
		return errors.New("the running binary has no build information (built without module support?)")
	}
	args, env := []string{"-buildvcs=false"}, os.Environ()
	for _, s := range self.Settings {
		switch {
		case s.Key == "-race" || s.Key == "-msan" || s.Key == "-asan" || s.Key == "-trimpath":
			if s.Value == "true" {
				args = append(args, s.Key)
			}
		case s.Key == "-tags" || s.Key == "-gcflags" || s.Key == "-ldflags" || s.Key == "-asmflags" || s.Key == "-buildmode" || s.Key == "-compiler" || s.Key == "-pgo":
			args = append(args, s.Key+"="+s.Value)
		case s.Key == "DefaultGODEBUG", strings.HasPrefix(s.Key, "vcs"):
			// Derived from the module and the source, not a flag.
		case strings.HasPrefix(s.Key, "-"):
			return fmt.Errorf("the running binary was built with %s=%s, which BuildAsSelf does not know how to repeat", s.Key, s.Value)
		default:
			// CGO_ENABLED, CGO_CFLAGS..., GOARCH, GOOS, GOAMD64...
			env = append(env, s.Key+"="+s.Value)
		}
	}
	root, err := ModuleRoot()
	if err != nil {
		return err
	}
	if err := build(root, env, args, pkg, out); err != nil {
		return err
	}
	built, err := buildinfo.ReadFile(out)
	if err != nil {
		return err
	}
	if got, want := settings(built), settings(self); got != want || built.GoVersion != self.GoVersion || built.Main.Version != self.Main.Version {
		return fmt.Errorf("%s was built as %s %s\n%s\nnot as this binary, %s %s\n%s", out, built.GoVersion, built.Main.Version, got, self.GoVersion, self.Main.Version, want)
	}
	return nil
}

// settings is a build's recorded settings, one KEY=VALUE a line.
func settings(bi *debug.BuildInfo) string {
	var b strings.Builder
	for _, s := range bi.Settings {
		fmt.Fprintf(&b, "%s=%s\n", s.Key, s.Value)
	}
	return b.String()
}
