package proctest

import (
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
