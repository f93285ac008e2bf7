//go:build unix

package jobqueue

import (
	"context"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// fileLocks tells, for a SQLite queue, whether other Queues have it open,
// with two lock files beside the database: PATH.open, held exclusively
// while one Queue sets up, and PATH.lock, held shared by every open Queue
// for its lifetime. The kernel drops both when a process dies, however it
// dies, which is what lets a reopened queue take back a killed worker's
// jobs at once.
type fileLocks struct {
	open, live *os.File
}

func lockFiles(path string) (presence, error) {
	open, err := os.OpenFile(path+".open", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening queue %s: %w (is its directory there and writable?)", path, err)
	}
	live, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		open.Close()
		return nil, fmt.Errorf("opening queue %s: %w", path, err)
	}
	return &fileLocks{open: open, live: live}, nil
}

func (l *fileLocks) enter(ctx context.Context) (bool, error) {
	if err := unix.Flock(int(l.open.Fd()), unix.LOCK_EX); err != nil {
		return false, fmt.Errorf("locking queue %s: %w", l.open.Name(), err)
	}
	alone := unix.Flock(int(l.live.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil
	// Holding the open lock, no other Queue can be between these two
	// calls: the switch from exclusive to shared loses nothing.
	if err := unix.Flock(int(l.live.Fd()), unix.LOCK_SH); err != nil {
		return false, fmt.Errorf("locking queue %s: %w", l.live.Name(), err)
	}
	return alone, nil
}

func (l *fileLocks) opened() { unix.Flock(int(l.open.Fd()), unix.LOCK_UN) }

func (l *fileLocks) close() {
	l.open.Close()
	l.live.Close()
}
