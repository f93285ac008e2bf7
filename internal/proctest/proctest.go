// Package proctest helps tests that start real processes: it tells whether
// a process still runs, and collects a process's output safely while
// other goroutines write it.
package proctest

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
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

// Gone waits up to within for pid to end and reports whether it did.
func Gone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for running(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// Buffer is a bytes.Buffer that writers on several goroutines may share.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write implements io.Writer.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
