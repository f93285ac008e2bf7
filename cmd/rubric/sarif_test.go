package main

import (
	"os"
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
	copyExampleServer(ts, dir, "sloppy")
	gitCommitAll(ts, dir, "sloppy")
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
