package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/rubricmcp/rubric/internal/buildtest"
)

// installCompanions puts a build of each built-in's companion binary
// (cmd/rubric-transport-file) beside the rubric that testscript.Main set
// up on $PATH as a copy of this test binary, once, for the tests that run
// rubric there (the transcripts, the secrets transcripts, rubric mcp's
// tests), as make build puts it beside an installed rubric. It is
// built with this test binary's settings, so that its build
// (internal/buildinfo.ID) is the test binary's and the host starts it in
// place of the test binary for each file the transcripts read: the small
// program starts in about a third of the CPU the test binary takes, which
// links all of rubric and runs every package's init, and a make test
// reads some 180 files so. The host's rule for a companion is the
// user's, unchanged: a companion of another build is refused.
var installCompanions = sync.OnceValue(func() error {
	rubric, err := exec.LookPath("rubric")
	if err != nil {
		return fmt.Errorf("rubric is not on $PATH, where TestMain's testscript.Main puts it: %w", err)
	}
	for _, b := range builtins {
		if b.Companion == "" {
			continue
		}
		path := filepath.Join(filepath.Dir(rubric), b.Companion)
		if err := installBuilt(path, "./cmd/"+b.Companion, buildtest.BuildAsSelf); err != nil {
			return err
		}
	}
	return nil
})
