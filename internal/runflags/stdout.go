package runflags

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
)

// Stdout is standard output as a command writes to it: a reader that
// stops reading early (`| head`, `| grep -q`, a pager quit) closes it,
// and what is written after that is dropped rather than failing the
// command, so that the files its flags name are still written and its
// exit status is still the run's (0, or 1 below --fail-under). Any
// other error (a full disk behind `> file`) is returned, and kept: Err
// gives the first, so that a command that wrote its result without
// looking at each write's error still fails when the result was lost.
// The process must have asked for SIGPIPE (signal.Notify) for a write
// to a closed pipe to return EPIPE instead of killing it.
type Stdout struct {
	File   *os.File
	closed atomic.Bool
	mu     sync.Mutex
	err    error // the first write error that was not EPIPE
}

// Write writes p to s.File, or drops it once the reader has gone.
func (s *Stdout) Write(p []byte) (int, error) {
	if s.closed.Load() {
		return len(p), nil
	}
	n, err := s.File.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		s.closed.Store(true)
		return len(p), nil
	}
	if err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	return n, err
}

// Closed reports whether the reader closed s before all was written.
func (s *Stdout) Closed() bool { return s.closed.Load() }

// Err is the first error a write to s returned ("write /dev/stdout: no
// space left on device"), or nil: what was written after it, if
// anything, is not whole. A reader that closed s is not an error.
func (s *Stdout) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
