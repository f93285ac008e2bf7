package runflags

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// TestStdoutErr: a write that fails is returned and kept (Err), the
// first one; a reader that closed the pipe is no error.
func TestStdoutErr(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	s := &Stdout{File: full}
	if s.Err() != nil {
		t.Fatalf("Err before a write: %v", s.Err())
	}
	if _, err := s.Write([]byte("a")); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Write: %v, want ENOSPC", err)
	}
	first := s.Err()
	if !errors.Is(first, syscall.ENOSPC) {
		t.Fatalf("Err: %v, want ENOSPC", first)
	}
	s.Write([]byte("b"))
	if s.Err() != first {
		t.Errorf("Err after a second failed write: %v, want the first, %v", s.Err(), first)
	}

	// A write to a closed pipe that is not fd 1 or 2 returns EPIPE (as
	// one to stdout does once main asks for SIGPIPE).
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.Close()
	p := &Stdout{File: w}
	if n, err := p.Write([]byte("abc")); n != 3 || err != nil {
		t.Fatalf("Write to a closed pipe: %d, %v; want 3, nil", n, err)
	}
	if !p.Closed() || p.Err() != nil {
		t.Errorf("Closed %v, Err %v; want true, nil", p.Closed(), p.Err())
	}
}
