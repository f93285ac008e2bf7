package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/rubricmcp/rubric/internal/buildtest"
)

// installFakeMCP puts a build of internal/fakemcp/cmd/fakemcp in place of
// the fakemcp that testscript.Main set up on $PATH as a copy of this test
// binary, once, for the tests that start fakemcp servers. The servers
// misbehave on purpose and are never what a test checks for races, so
// the build has no race detector in either pass of make test. A start
// of the small program costs about 0.04 CPU-s; the test binary, which
// links all of rubric and runs every package's init, took 0.10, and 0.27
// race-built, for each of the hundred or so servers the transcripts start.
var installFakeMCP = sync.OnceValue(func() error {
	path, err := exec.LookPath("fakemcp")
	if err != nil {
		return fmt.Errorf("fakemcp is not on $PATH, where TestMain's testscript.Main puts it: %w", err)
	}
	return installBuilt(path, "./internal/fakemcp/cmd/fakemcp", buildtest.Build)
})

// installBuilt builds pkg with build under a temporary name beside path,
// then renames it to path: a test starting the program meanwhile runs
// the one file or the other, never half a file.
func installBuilt(path, pkg string, build func(pkg, out string) error) error {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".build")
	if err := build(pkg, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
