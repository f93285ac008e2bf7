//go:build race

package rubrics_test

// raceEnabled is true when the tests run under the race detector, which
// slows the pure computation of a large scan several times over.
const raceEnabled = true
