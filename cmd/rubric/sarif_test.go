package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rubricmcp/rubric/engine/report/reporttest"
)

// sloppyRepoCmd is "sloppyrepo DIR": a git repository of its own at DIR
// holding the example server sloppy (its source without tests, and the
// example servers' internal packages it imports), committed, so that a
// transcript scores a live server from inside a work tree.
func sloppyRepoCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sloppyrepo DIR")
	}
	dir := ts.MkAbs(args[0])
	root := filepath.Join("..", "..")
	copyGo := func(from, to string) {
		files, err := filepath.Glob(filepath.Join(root, from, "*.go"))
		ts.Check(err)
		ts.Check(os.MkdirAll(filepath.Join(dir, to), 0o755))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			ts.Check(err)
			b = importPath.ReplaceAll(b, []byte(`"example.com/sloppy/internal/`))
			ts.Check(os.WriteFile(filepath.Join(dir, to, filepath.Base(f)), b, 0o644))
		}
	}
	copyGo("examples/servers/sloppy", ".")
	copyGo("examples/servers/internal/serve", "internal/serve")
	copyGo("examples/servers/internal/store", "internal/store")
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	ts.Check(err)
	mod = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(mod, []byte("module example.com/sloppy"))
	ts.Check(os.WriteFile(filepath.Join(dir, "go.mod"), mod, 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	ts.Check(err)
	ts.Check(os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"commit", "-q", "-m", "sloppy"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = gitEnv(ts)
		if out, err := cmd.CombinedOutput(); err != nil {
			ts.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// sarifCheckCmd is "sarifcheck FILE...": the SARIF validator's GitHub
// rules (GH1001, physical locations, on) report no error on any FILE.
// Without the validator installed it fails saying to run make testdeps
// (the transcript's testdeps says so first).
func sarifCheckCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: sarifcheck FILE...")
	}
	files := make([]string, len(args))
	for i, a := range args {
		files[i] = ts.MkAbs(a)
	}
	scratch, err := os.MkdirTemp(ts.Getenv("WORK"), "sarifcheck")
	ts.Check(err)
	found, err := reporttest.GitHubErrors(scratch, files...)
	ts.Check(err)
	if len(found) > 0 {
		ts.Fatalf("GitHub would refuse:\n%s", strings.Join(found, "\n"))
	}
}
