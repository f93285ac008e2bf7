package piddir

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// deadPID is the id of a process that has ended and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestSweep(t *testing.T) {
	parent := t.TempDir()
	dead := deadPID(t)
	// The parent of this test process outlives it: a running process
	// that is not this one.
	live := os.Getppid()
	for _, c := range []struct {
		name    string
		removed bool
	}{
		{fmt.Sprintf("rubric-x-%d-1", dead), true},
		{fmt.Sprintf("rubric-x-%d-2", live), false},
		{fmt.Sprintf("rubric-x-%d-3", os.Getpid()), false},
		{"rubric-x-notapid-4", false},
		{fmt.Sprintf("rubric-y-%d-5", dead), false},
		{fmt.Sprintf("rubric-x-%d", dead), false},
	} {
		if err := os.MkdirAll(filepath.Join(parent, c.name, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	var seen []string
	removed := Sweep(parent, "rubric-x-", func(dir string) { seen = append(seen, filepath.Base(dir)) })
	want := []string{filepath.Join(parent, fmt.Sprintf("rubric-x-%d-1", dead))}
	if !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	if !slices.Equal(seen, []string{fmt.Sprintf("rubric-x-%d-1", dead)}) {
		t.Errorf("before saw %v", seen)
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 5 {
		t.Errorf("%d entries left, want 5", len(entries))
	}
}

func TestMakeOwner(t *testing.T) {
	dir, err := Make(t.TempDir(), "rubric-x-")
	if err != nil {
		t.Fatal(err)
	}
	if pid, ok := Owner(filepath.Base(dir), "rubric-x-"); !ok || pid != os.Getpid() {
		t.Errorf("%s: owner %d %v, want %d", dir, pid, ok, os.Getpid())
	}
	// Made by this process, it is never swept while it runs.
	if removed := Sweep(filepath.Dir(dir), "rubric-x-", nil); removed != nil {
		t.Errorf("swept %v", removed)
	}
}
