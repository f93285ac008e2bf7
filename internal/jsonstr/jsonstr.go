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

// Append appends s to dst as a quoted JSON string in form f.
func Append(dst []byte, s string, f Form) []byte {
	// Room for s and its quotes at once: a long text otherwise grows a
	// small buffer several times, copying and clearing it each time.
	dst = slices.Grow(dst, len(s)+2)
	dst = append(dst, '"')
	start := 0 // s[start:i] is pending, to be copied as it is
	for i := 0; i < len(s); {
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
