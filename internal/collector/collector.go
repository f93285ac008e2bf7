// Package collector raises the Go garbage collector's target for a
// stretch of work whose live heap is large and long-lived: a judged
// score keeps every tool's decoded definition and checks until its
// answers are in, so each collection at the default target marks all of
// them again for little garbage freed.
package collector

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

var (
	mu     sync.Mutex
	raised int  // how many Raise calls are not yet restored
	before int  // the target before the first of them
	set    bool // whether the first of them set the target
)

// Raise sets the collector's target to pct (see runtime/debug.SetGCPercent)
// until restore is called, unless the GOGC variable sets a target of its
// own, which is then kept, or the target is already higher (or off).
// Calls may overlap (two scores in one process): the target is raised by
// the first and set back by the last restore. Calling restore more than
// once does nothing more.
func Raise(pct int) (restore func()) {
	return raise(pct, os.Getenv("GOGC"))
}

func raise(pct int, gogc string) (restore func()) {
	if gogc != "" || pct <= 0 {
		return func() {}
	}
	mu.Lock()
	if raised == 0 {
		before = Target()
		if set = before >= 0 && before < pct; set {
			debug.SetGCPercent(pct)
		}
	}
	raised++
	mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			mu.Lock()
			// A target Raise left alone is not set back: whatever set it
			// since (prestart, lowering its start-up target) stands.
			if raised--; raised == 0 && set {
				debug.SetGCPercent(before)
			}
			mu.Unlock()
		})
	}
}

// Target is the collector's target now (-1 when it is off), read without
// changing it.
func Target() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}
