package procgroup

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestKillMarked starts two processes in sessions of their own (setsid),
// one with the mark and one with another: only the marked one is killed.
func TestKillMarked(t *testing.T) {
	mark, other := Mark(), Mark()
	if mark == other || !strings.HasPrefix(mark, MarkEnv+"=") {
		t.Fatalf("marks %q and %q", mark, other)
	}
	start := func(entry string) *exec.Cmd {
		cmd := exec.Command("sleep", "3600")
		cmd.Env = append(os.Environ(), entry)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			t.Skipf("cannot start sleep: %v", err)
		}
		return cmd
	}
	marked, spared := start(mark), start(other)
	defer spared.Process.Kill()
	defer marked.Process.Kill()

	if n := KillMarked(mark); n != 1 {
		t.Errorf("KillMarked killed %d processes, want 1", n)
	}
	if err := marked.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the marked process ended with %v, want killed", err)
	}
	if err := spared.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the process with another mark is gone: %v", err)
	}
	if n := KillMarked(mark); n != 0 {
		t.Errorf("a second KillMarked killed %d", n)
	}
}
