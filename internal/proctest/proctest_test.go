package proctest

import (
	"os/exec"
	"runtime"
	"testing"
)

func TestBufferSeen(t *testing.T) {
	var b Buffer
	early := b.Seen("ready")
	b.Write([]byte("pid 7\nrea"))
	select {
	case <-early:
		t.Fatal("Seen fired before the whole text arrived")
	default:
	}
	b.Write([]byte("dy\n"))
	<-early // closed by the write that completed the text
	<-b.Seen("pid 7")
	if got := b.String(); got != "pid 7\nready\n" {
		t.Errorf("String() = %q", got)
	}
}

func TestGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { <-stop; close(done) }()
	close(stop)
	Goroutines(t, before) // returns once the goroutine has ended
	select {
	case <-done:
	default:
		t.Error("Goroutines returned while the goroutine ran")
	}
}

// TestGone: a running process is not gone; once killed it is, as soon as
// the kernel has it exit, whether or not its parent has reaped it yet
// (a zombie counts as ended), and after it is reaped.
func TestGone(t *testing.T) {
	cmd := exec.Command("sleep", "600")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if Gone(pid, 0) {
		t.Fatal("a sleeping process counts as gone")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if !Gone(pid, Guard) {
		t.Fatal("a killed process, not yet reaped, does not count as gone")
	}
	cmd.Wait()
	if !Gone(pid, 0) {
		t.Fatal("a reaped process does not count as gone")
	}
}
