package prestart

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestWanted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a companion is started ahead on Linux only")
	}
	for _, tc := range []struct {
		args string
		want bool
	}{
		{"rubric score tools.json", true},
		{"rubric score --rubric tdqs --no-cache tools.json", true},
		{"rubric score --transport=file tools.json", false},
		{"rubric score --transport file tools.json", false},
		{"rubric score --config-file servers.json", false},
		{"rubric score --server one tools.json", false},
		{"rubric score https://example.com/mcp", false},
		{"rubric score -- npx server", false},
		{"rubric score --help", false},
		{"rubric score", false},
		{"rubric --log-level debug score tools.json", false},
		{"rubric rubrics list", false},
		{"rubric scan tools.json", false},
	} {
		if got := Wanted(strings.Fields(tc.args)); got != tc.want {
			t.Errorf("Wanted(%s) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// TestTake starts a process ahead (a shell script that waits for its
// orders' end, standing in for a companion) and takes it only for its
// own path: a start of another binary leaves it for later.
func TestTake(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a companion is started ahead on Linux only")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, Companion)
	// cat reads the orders (descriptor 3) to their end and echoes them.
	if err := os.WriteFile(path, []byte("#!/bin/sh\ncat <&3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Start(path, false); err != nil {
		t.Fatal(err)
	}
	defer Discard()
	if err := Start(path, false); err == nil {
		t.Error("a second start ahead was not refused")
	}
	if p := Take(filepath.Join(dir, "other"), false); p != nil {
		t.Fatal("took the process started ahead for another path")
	}
	if p := Take(path, true); p != nil {
		t.Fatal("took the process started ahead for a start that leads a group")
	}
	p := Take(path, false)
	if p == nil {
		t.Fatal("the process started ahead was not taken for its own path")
	}
	if again := Take(path, false); again != nil {
		t.Error("the process started ahead was taken twice")
	}
	if err := p.Send([]string{"A=1", "B=two"}); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, 64)
	n, _ := p.Stdout.Read(out)
	if got := string(out[:n]); got != "A=1\x00B=two" {
		t.Errorf("the process read %q", got)
	}
	if st, err := p.Wait(); err != nil || !st.Success() {
		t.Errorf("the process ended with %v, %v", st, err)
	}
}

// TestStarted sets the collector's target back to the one before the
// start, once.
func TestStarted(t *testing.T) {
	before := debug.SetGCPercent(startGCPercent)
	defer debug.SetGCPercent(before)
	mu.Lock()
	gcPercent, raised = 123, true
	mu.Unlock()
	Started()
	if got := debug.SetGCPercent(startGCPercent); got != 123 {
		t.Errorf("the target after Started is %d, want 123", got)
	}
	Started() // a second call leaves the target alone
	if got := debug.SetGCPercent(before); got != startGCPercent {
		t.Errorf("a second Started set the target to %d", got)
	}
}
