package runflags

import (
	"errors"
	"os"
	"sync/atomic"
	"syscall"
)

// Stdout is standard output as a command writes to it: a reader that
// stops reading early (`| head`, `| grep -q`, a pager quit) closes it,
// and what is written after that is dropped rather than failing the
// command, so that the files its flags name are still written and its
// exit status is still the run's (0, or 1 below --fail-under). Any
// other error (a full disk behind `> file`) is returned. The process
// must have asked for SIGPIPE (signal.Notify) for a write to a closed
// pipe to return EPIPE instead of killing it.
type Stdout struct {
	File   *os.File
	closed atomic.Bool
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
	return n, err
}

// Closed reports whether the reader closed s before all was written.
func (s *Stdout) Closed() bool { return s.closed.Load() }
