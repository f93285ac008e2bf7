// Package termtext makes text another program wrote safe to quote on the
// user's terminal, and keeps the end of such text to quote (Tail).
package termtext

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Printable returns text a program wrote (a server, a plugin, a command
// line) with its terminal escape sequences removed and other control
// characters (except newlines and tabs), NUL and the C1 controls
// included, shown as U+FFFD, as are the bidirectional controls (such as
// U+202E, right-to-left override) that would make the text read in
// another order than it is written, so that quoting it in a message cannot
// rewrite the user's terminal or disguise what it says.
func Printable(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == 0x1b:
			i += escapeLen(text[i:])
			continue
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r':
			// Dropped: CRLF line ends are common and carry nothing.
		case r == utf8.RuneError && size == 1, unicode.IsControl(r), bidi(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// bidi reports whether r is a bidirectional formatting control: the
// marks, embeddings, overrides and isolates of Unicode's bidirectional
// algorithm.
func bidi(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// escapeLen is the length of the escape sequence at the start of s: up to
// the final byte of a CSI sequence (ESC [), up to the BEL or ESC \ that
// ends an OSC one (ESC ], a window title say), ESC and one byte otherwise.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			}
		}
	case ']':
		for i := 2; i < len(s); i++ {
			if s[i] == '\a' {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
	default:
		return 2
	}
	return len(s)
}

// Tail keeps the last Max bytes written to it (a program's stderr, say),
// to quote the end in an error message. It is safe for concurrent use.
type Tail struct {
	Max int

	mu      sync.Mutex
	buf     []byte
	dropped bool // older bytes were discarded
}

// Write implements io.Writer; it never fails.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.Max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.dropped = true
	}
	return len(p), nil
}

// Lines returns up to n of the last lines that are not blank, made
// Printable and trimmed; none when nothing was written.
func (t *Tail) Lines(n int) []string {
	t.mu.Lock()
	text, dropped := string(t.buf), t.dropped
	t.mu.Unlock()
	lines := strings.Split(Printable(text), "\n")
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

// Quote ends an error message with up to n of the last lines written to
// a program's stderr: "; its stderr ended with: LINE", or the lines
// indented below it; "" when nothing was written.
func (t *Tail) Quote(n int) string {
	switch lines := t.Lines(n); len(lines) {
	case 0:
		return ""
	case 1:
		return "; its stderr ended with: " + lines[0]
	default:
		return "; its stderr ended with:\n    " + strings.Join(lines, "\n    ")
	}
}

// QuoteStart is the start of what another program wrote, Go-quoted (so
// printable) and cut at n bytes on a character boundary, with "…" when
// it was cut.
func QuoteStart(b []byte, n int) string {
	more := ""
	if len(b) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		b, more = b[:cut], "…"
	}
	return fmt.Sprintf("%q%s", b, more)
}
