package collector

import (
	"runtime/debug"
	"sync"
	"testing"
)

// keepTarget sets the collector's target back to what it is now once t
// is over: the test binary's GOGC (make test runs the tests at 400) holds
// for the package's other tests.
func keepTarget(t *testing.T) {
	before := Target()
	t.Cleanup(func() { debug.SetGCPercent(before) })
}

func TestRaise(t *testing.T) {
	keepTarget(t)
	debug.SetGCPercent(100)
	steps := []struct {
		name string
		do   func() func()
		want int
	}{
		{"first raise", func() func() { return raise(400, "") }, 400},
		{"second raise keeps the first's", func() func() { return raise(200, "") }, 400},
		{"GOGC set: nothing", func() func() { return raise(800, "150") }, 400},
		{"no target: nothing", func() func() { return raise(0, "") }, 400},
	}
	var restores []func()
	for _, s := range steps {
		restores = append(restores, s.do())
		if got := Target(); got != s.want {
			t.Fatalf("after %s: target %d, want %d", s.name, got, s.want)
		}
	}
	// Restored last to first: the target stays raised until the first
	// raise's restore, called twice to show the second call does nothing.
	wantAfter := []int{400, 400, 400, 100}
	for i := len(restores) - 1; i >= 0; i-- {
		restores[i]()
		restores[i]()
		if got := Target(); got != wantAfter[len(restores)-1-i] {
			t.Fatalf("after restoring %q: target %d, want %d", steps[i].name, got, wantAfter[len(restores)-1-i])
		}
	}
}

func TestRaiseNeverLowers(t *testing.T) {
	keepTarget(t)
	for _, c := range []struct{ before, pct, during int }{
		{before: 150, pct: 400, during: 400},
		{before: 400, pct: 200, during: 400}, // a start's raised target stays
		{before: -1, pct: 200, during: -1},   // off stays off
	} {
		debug.SetGCPercent(c.before)
		restore := raise(c.pct, "")
		if got := Target(); got != c.during {
			t.Errorf("raise(%d) from %d: target %d, want %d", c.pct, c.before, got, c.during)
		}
		restore()
		if got := Target(); got != c.before {
			t.Errorf("raise(%d) from %d, restored: target %d, want %d", c.pct, c.before, got, c.before)
		}
	}
}

// TestRaiseFromManyGoroutines raises and restores from goroutines at
// once (scores of an MCP server's sessions): while any raise holds, the
// target is raised, and once all are restored it is what it was.
func TestRaiseFromManyGoroutines(t *testing.T) {
	keepTarget(t)
	debug.SetGCPercent(100)
	hold := raise(300, "") // held across the goroutines' raises
	var wg sync.WaitGroup
	lowered := make(chan int, 64)
	for range 64 {
		wg.Go(func() {
			restore := raise(300, "")
			if got := Target(); got != 300 {
				lowered <- got
			}
			restore()
		})
	}
	wg.Wait()
	close(lowered)
	for got := range lowered {
		t.Errorf("target %d while raised, want 300", got)
	}
	if got := Target(); got != 300 {
		t.Errorf("target %d with the first raise held, want 300", got)
	}
	hold()
	if got := Target(); got != 100 {
		t.Errorf("target %d once all are restored, want 100", got)
	}
}
