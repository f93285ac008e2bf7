package progress

import (
	"bytes"
	"testing"
	"time"
)

// TestProgressLine: each step's bytes on the terminal. The line fits
// the width, is erased with spaces (no escape sequence a dumb terminal
// would print), is redrawn below a log line, is throttled to ten draws
// a second but for the last, and is erased by end for good.
func TestLine(t *testing.T) {
	var out bytes.Buffer
	at := time.Unix(0, 0)
	p := &Line{w: &out, width: func() int { return 30 }, now: func() time.Time { return at }}
	steps := []struct {
		name string
		do   func()
		want string
	}{
		{"first", func() { p.Show("scan: 0/4 servers · 0 failed · 2 in flight", false) }, "\rscan: 0/4 servers · 0 failed…"},
		{"throttled", func() {
			at = at.Add(50 * time.Millisecond)
			p.Show("scan: 1/4 servers · 0 failed · 2 in flight", false)
		}, ""},
		{"log", func() { p.Write([]byte("[WARN] x\n")) }, "\r" + spaces(30-1) + "\r[WARN] x\n\rscan: 0/4 servers · 0 failed…"},
		{"wider terminal", func() {
			at = at.Add(100 * time.Millisecond)
			p.width = func() int { return 0 }
			p.Show("scan: 4/4 servers · 0 failed · 0 in flight", true)
		}, "\rscan: 4/4 servers · 0 failed · 0 in flight"},
		{"end", p.End, "\r" + spaces(42) + "\r"},
		{"after end", func() { p.Show("scan: 4/4 servers · 0 failed · 0 in flight", true); p.Write([]byte("bye\n")) }, "bye\n"},
	}
	for _, s := range steps {
		out.Reset()
		s.do()
		if got := out.String(); got != s.want {
			t.Errorf("%s: %q, want %q", s.name, got, s.want)
		}
	}
}

func spaces(n int) string { return string(bytes.Repeat([]byte(" "), n)) }
