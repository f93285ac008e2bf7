package stdio

import (
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/internal/termtext"
)

// tailSize is how much of a server's stderr is kept for error messages.
const tailSize = 4 << 10

// tail keeps the last tailSize bytes written to it.
type tail struct {
	mu      sync.Mutex
	buf     []byte
	dropped bool // older bytes were discarded
}

// Write implements io.Writer; it never fails.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailSize; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.dropped = true
	}
	return len(p), nil
}

// lastLines returns up to n of the last non-blank lines, made safe to
// print; none when nothing was written.
func (t *tail) lastLines(n int) []string {
	t.mu.Lock()
	text, dropped := string(t.buf), t.dropped
	t.mu.Unlock()
	lines := strings.Split(termtext.Printable(text), "\n")
	if dropped && len(lines) > 1 {
		lines = lines[1:] // begins mid-line
	}
	var out []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out[max(len(out)-n, 0):]
}
