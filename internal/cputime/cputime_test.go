package cputime

import (
	"crypto/sha256"
	"testing"
)

// TestProcessGrows: work on the CPU makes the figure grow, and it never
// goes back. The loop ends on the measure itself, not on a timer.
func TestProcessGrows(t *testing.T) {
	start, ok := Process()
	if !ok {
		t.Skip("this platform does not tell a process's CPU time")
	}
	sum := sha256.Sum256(nil)
	last := start
	for rounds := 0; ; rounds++ {
		for range 1000 {
			sum = sha256.Sum256(sum[:])
		}
		now, _ := Process()
		if now < last {
			t.Fatalf("CPU time went back from %s to %s", last, now)
		}
		last = now
		if now > start {
			t.Logf("grew by %s after %d rounds of hashing", now-start, rounds+1)
			return
		}
	}
}
