// Package proctest helps tests that start real processes: it tells whether
// a process still runs, collects a process's output safely while other
// goroutines write it and signals when a given text has arrived, and waits
// for the goroutines a call started to end.
package proctest

import (
	"bytes"
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// running reports whether pid is a process that has not ended. A zombie,
// ended but not yet reaped by its parent, counts as ended.
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command name may hold anything
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// Guard bounds the waits of tests for a stage that a correct run always
// reaches: long enough that no load makes a correct run miss it, so that
// it only ends a test that would otherwise hang.
const Guard = 2 * time.Minute

// Gone waits for pid to end, as the kernel reports it through a pidfd,
// for at most within, and reports whether it did. A zombie counts as
// ended. Tests pass Guard to wait for a process that must end, or 0 to
// ask whether it has already.
func Gone(pid int, within time.Duration) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		// No such process, or no pidfds: what /proc says now.
		return !running(pid)
	}
	defer unix.Close(fd)
	deadline := time.Now().Add(within)
	for {
		left := max(time.Until(deadline), 0)
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(left.Milliseconds()))
		switch {
		case err == nil && n > 0:
			return true
		case err == nil || !errors.Is(err, unix.EINTR):
			return !running(pid)
		}
	}
}

// Buffer is a bytes.Buffer that writers on several goroutines may share.
// Seen tells when a text has arrived, so that a test can act at the stage
// a process reached instead of after a guessed delay.
type Buffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	waits []wait
}

type wait struct {
	text string
	ch   chan struct{}
}

// Write implements io.Writer.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.buf.Write(p)
	b.wake()
	return n, err
}

// wake closes the channels of the texts now written; b.mu is held.
func (b *Buffer) wake() {
	kept := b.waits[:0]
	for _, w := range b.waits {
		if bytes.Contains(b.buf.Bytes(), []byte(w.text)) {
			close(w.ch)
			continue
		}
		kept = append(kept, w)
	}
	b.waits = kept
}

// Seen returns a channel closed once text has been written (at once if it
// already has).
func (b *Buffer) Seen(text string) <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := make(chan struct{})
	b.waits = append(b.waits, wait{text, ch})
	b.wake()
	return ch
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Goroutines waits until at most before goroutines run, which is how a
// test checks that a call left none of its goroutines behind. A goroutine
// that has been told to end may need a moment to be scheduled, so it
// polls; the outcome does not depend on the machine's speed, since it
// gives up only when the test's own deadline is close (go test -timeout),
// and then fails with every goroutine's stack.
func Goroutines(t testing.TB, before int) {
	t.Helper()
	giveUp := time.Now().Add(time.Minute)
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := d.Deadline(); ok {
			giveUp = end.Add(-5 * time.Second)
		}
	}
	for runtime.NumGoroutine() > before {
		if time.Now().After(giveUp) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d still running:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond) // a poll interval, not a guess at a stage
	}
}
