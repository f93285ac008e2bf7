package stdio

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/internal/buildtest"
	"github.com/rubricmcp/rubric/internal/fakemcp"
)

// fakeEnv names the misbehaviour the fake server plays (see
// internal/fakemcp).
const fakeEnv = fakemcp.Env

// fakeServer is the path of a build of internal/fakemcp/cmd/fakemcp,
// which TestMain makes once for every test that starts a fake server.
// The build has no race detector in either pass of make test: the fakes
// misbehave on purpose and are never what a test checks for races, and
// re-executing this test binary instead, which links the transport and
// its tests and under -race the race runtime, cost the race pass a
// start of it for each of the fifty or so servers (stdio's race-built
// tests: 17.2 CPU-s, most of it those starts).
var fakeServer string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rubric-stdio-fake-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeServer = filepath.Join(dir, "fakemcp")
	if err := buildtest.Build("./internal/fakemcp/cmd/fakemcp", fakeServer); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
