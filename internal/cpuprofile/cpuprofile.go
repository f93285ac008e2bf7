// Package cpuprofile writes a CPU profile of rubric, and of each
// built-in plugin it starts, when RUBRIC_CPUPROFILE names a file, and
// beside it a profile of what the process allocated (the file's name
// with ".allocs" added): the benchmarks under bench/ read them. When
// RUBRIC_TRACE names a file, it also writes an execution trace there
// (go tool trace FILE), which shows when each stage ran and waited.
package cpuprofile

import (
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// Env is the variable that names the profile's file.
const Env = "RUBRIC_CPUPROFILE"

// TraceEnv is the variable that names the execution trace's file.
const TraceEnv = "RUBRIC_TRACE"

// Start profiles the process into the file Env names with suffix added
// ("" for rubric itself, ".KIND-NAME" for a built-in plugin); stop ends
// the profile, closes the file and writes the allocations profile.
// Without Env, stop does nothing.
func Start(suffix string) (stop func(), err error) {
	stopTrace, err := startTrace(suffix)
	if err != nil {
		return nil, err
	}
	stopCPU, err := startCPU(suffix)
	if err != nil {
		stopTrace()
		return nil, err
	}
	return func() { stopCPU(); stopTrace() }, nil
}

// startTrace writes an execution trace into the file TraceEnv names with
// suffix added.
func startTrace(suffix string) (stop func(), err error) {
	path := os.Getenv(TraceEnv)
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path + suffix)
	if err != nil {
		return nil, err
	}
	if err := trace.Start(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { trace.Stop(); f.Close() }, nil
}

// startCPU is Start's CPU and allocations profile.
func startCPU(suffix string) (stop func(), err error) {
	path := os.Getenv(Env)
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path + suffix)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		// The profile holds what was allocated up to the last finished
		// collection: without one here, a run's last stretch (the
		// report's writing, and everything since the heap last reached
		// its goal, often a third of a large run) would be left out.
		runtime.GC()
		if a, err := os.Create(path + suffix + ".allocs"); err == nil {
			pprof.Lookup("allocs").WriteTo(a, 0)
			a.Close()
		}
	}, nil
}
