// Package heavytest marks the tests that are pure computation over a
// whole corpus (every captured server scored, asked or graded), so that
// make test runs each of them once, in a pass of its own without the
// race detector: under it they take several times as long, and they have
// nothing to find that the smaller tests of the same code, which stay in
// the race pass, do not.
package heavytest

import (
	"os"
	"testing"
)

// Env is the variable make test's race pass sets to "later" to leave the
// heavy tests to its pass without -race.
const Env = "RUBRIC_HEAVY_TESTS"

// Later skips t when the heavy tests run elsewhere: when Env is "later",
// and under -short (a quick run that does without them). Any other run,
// go test -race on the package included, runs them.
func Later(t testing.TB) {
	t.Helper()
	switch {
	case os.Getenv(Env) == "later":
		t.Skip("pure computation over the whole corpus: make test runs it once, in its pass without -race")
	case testing.Short():
		t.Skip("pure computation over the whole corpus: skipped under -short")
	}
}
