package stdio

import (
	"os"
	"testing"

	"github.com/rubricmcp/rubric/internal/fakemcp"
)

// fakeEnv names the misbehaviour the test binary plays when re-executed as
// a server (see internal/fakemcp).
const fakeEnv = fakemcp.Env

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		fakemcp.Serve(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
