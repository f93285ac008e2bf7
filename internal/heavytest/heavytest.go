// Package heavytest marks the tests that take minutes under the race
// detector and have nothing for it to find that the smaller tests of the
// same code, which stay in the race pass, do not: pure computation (a
// whole corpus scored, asked or graded; a formula driven into its cost or
// size limit) and end-to-end runs of rubric, its plugins and real servers
// as processes. make test runs each of them once, in its pass without
// -race.
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
		t.Skip("nothing for the race detector here: make test runs it once, in its pass without -race")
	case testing.Short():
		t.Skip("a heavy test: skipped under -short")
	}
}
