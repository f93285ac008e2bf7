package main

import "testing"

// TestBuiltinsServeAtTheDefaultTarget: no built-in raises its process's
// collector target; the heuristic judge's heap stays small (a raised
// target made its process fault in twice the pages for no CPU saved).
func TestBuiltinsServeAtTheDefaultTarget(t *testing.T) {
	for _, b := range builtins {
		if b.GCPercent != 0 {
			t.Errorf("built-in %s serves with a collector target of %d, want the default", b.Name, b.GCPercent)
		}
	}
}
