// Package cputime reads the CPU time the process has used, user and
// system together, for benchmarks that must hold on a shared machine:
// other processes' load stretches a run's wall time by however long it
// waits for a core, but not the CPU time it spends.
package cputime

import "time"

// Process is the CPU time (user plus system) that every thread of this
// process has used since it started, and whether the platform tells it
// (false, with 0, where it does not).
func Process() (time.Duration, bool) { return process() }
