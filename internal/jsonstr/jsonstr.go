// Package jsonstr writes JSON strings, in the two forms rubric needs: the
// canonical form a surface is hashed in, and the form encoding/json
// writes, which formulas' canonical_json must match byte for byte. One
// escaper serves both; they differ only where the Form says.
package jsonstr

import (
	"slices"
	"unicode/utf8"
)

// Form is how a string is escaped beyond what JSON requires.
type Form int

const (
	// Canonical escapes only what JSON requires (RFC 8785): a byte that
	// is not UTF-8 becomes U+FFFD itself.
	Canonical Form = iota
	// EncodingJSON is what encoding/json writes with HTML escaping off:
	// U+2028 and U+2029 escaped too, and a byte that is not UTF-8 written
	// as the escape \ufffd.
	EncodingJSON
)

const hexDigits = "0123456789abcdef"

// safeASCII marks the ASCII bytes that stand for themselves in a JSON string.
var safeASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Word-at-a-time tests of eight bytes: ones has 1 in every byte, highs
// the top bit of every byte.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// SafeRun returns the index of the first byte of s at or after i that
// does not stand for itself in a JSON string (a quote, a backslash, a
// control character, a byte past ASCII), or len(s): it steps eight bytes
// at a time over plain ASCII text, which is most of what a definition's
// strings hold. Decoders find a string's end with it too.
func SafeRun[T ~string | ~[]byte](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// A byte from 0x80 up has its top bit set in w; one under 0x20,
		// a quote or a backslash has it set in below's results.
		if (w|below(w, 0x20)|below(w^'"'*ones, 1)|below(w^'\\'*ones, 1))&highs != 0 {
			break
		}
	}
	for i < len(s) && s[i] < utf8.RuneSelf && safeASCII[s[i]] {
		i++
	}
	return i
}

// below sets the top bit of some byte when a byte of w is under n (n at
// most 0x80), and of none when no byte is: (w - n·ones) &^ w, the
// classic test for a zero byte when n is 1. A byte from 0x80 up may set
// one too, which costs only a step of the byte loop.
func below(w uint64, n uint64) uint64 { return (w - n*ones) &^ w }

// Append appends s to dst as a quoted JSON string in form f.
func Append(dst []byte, s string, f Form) []byte {
	// Room for s and its quotes at once: a long text otherwise grows a
	// small buffer several times, copying and clearing it each time.
	dst = slices.Grow(dst, len(s)+2)
	dst = append(dst, '"')
	start := 0 // s[start:i] is pending, to be copied as it is
	for i := 0; i < len(s); {
		if i = SafeRun(s, i); i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if safeASCII[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			if f == EncodingJSON {
				dst = append(dst, `\ufffd`...)
			} else {
				dst = append(dst, "\ufffd"...)
			}
		case f == EncodingJSON && (r == '\u2028' || r == '\u2029'):
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Len is len(Append(nil, s, f)), counted without writing: the length of s
// quoted as a JSON string in form f.
func Len(s string, f Form) int {
	n := len(s) + 2
	for i := 0; i < len(s); {
		if i = SafeRun(s, i); i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if !safeASCII[c] {
				switch c {
				case '"', '\\', '\b', '\f', '\n', '\r', '\t':
					n++ // a backslash before the byte or its letter
				default:
					n += 5 // \u00XX for the one byte
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			if f == EncodingJSON {
				n += len(`\ufffd`) - 1
			} else {
				n += len("\ufffd") - 1
			}
		case f == EncodingJSON && (r == '\u2028' || r == '\u2029'):
			n += len(`\u2028`) - size
		}
		i += size
	}
	return n
}
