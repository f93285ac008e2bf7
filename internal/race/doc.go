// Package race says whether the binary was built with the race detector,
// so that a test of pure computation over a very large input can leave
// that input to the run without it.
package race
