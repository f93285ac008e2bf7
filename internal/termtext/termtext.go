// Package termtext makes text another program wrote safe to quote on the
// user's terminal.
package termtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns text a program wrote (a server, a plugin, a command
// line) with its terminal escape sequences
// removed and other control characters (except newlines and tabs) shown as
// U+FFFD, so that quoting it in a message cannot rewrite the user's
// terminal.
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
		case r == utf8.RuneError && size == 1, unicode.IsControl(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
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
