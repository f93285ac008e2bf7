// Package jsonscan reads plain JSON (what rubric's canonical writers
// produce, and what judges answer) into the values encoding/json decodes
// into an any with UseNumber: map[string]any, []any, string,
// json.Number, bool and nil. It gives up rather than decide anything
// encoding/json might decide otherwise (a surrogate escape, a byte that
// is not UTF-8, nesting past maxDepth, trailing or broken JSON), and the
// caller then hands the document to encoding/json: so a caller's values
// and errors are encoding/json's, got without its reflection where the
// document is plain.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting; deeper documents go to encoding/json, which
// has a limit of its own.
const maxDepth = 1000

// Decode returns the value of the JSON document b (white space around it
// allowed) as encoding/json decodes it into an any with UseNumber; ok is
// false when it leaves b to encoding/json.
func Decode(b []byte) (v any, ok bool) {
	d := scanner{b: b}
	if v, ok = d.value(); !ok {
		return nil, false
	}
	if d.skipSpace(); d.i != len(d.b) {
		return nil, false
	}
	return v, true
}

// scanner reads plain JSON; ok false means "let encoding/json read it".
type scanner struct {
	b     []byte
	i     int
	depth int
}

func (d *scanner) skipSpace() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *scanner) value() (any, bool) {
	d.skipSpace()
	if d.i >= len(d.b) {
		return nil, false
	}
	switch c := d.b[d.i]; {
	case c == '{' || c == '[':
		if d.depth >= maxDepth {
			return nil, false
		}
		d.depth++
		defer func() { d.depth-- }()
		if c == '{' {
			return d.object()
		}
		return d.array()
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.word("true")
	case c == 'f':
		return false, d.word("false")
	case c == 'n':
		return nil, d.word("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, false
}

func (d *scanner) word(w string) bool {
	if !bytes.HasPrefix(d.b[d.i:], []byte(w)) {
		return false
	}
	d.i += len(w)
	return true
}

func (d *scanner) object() (any, bool) {
	d.i++ // {
	m := map[string]any{}
	d.skipSpace()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return m, true
	}
	for {
		d.skipSpace()
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.skipSpace()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return nil, false
		}
		d.i++
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		m[k.(string)] = v
		more, ok := d.next('}')
		if !ok {
			return nil, false
		}
		if !more {
			return m, true
		}
	}
}

// next reads what follows a member or an item: a comma (more follows)
// or close, the object's or array's end; anything else is not ok.
func (d *scanner) next(close byte) (more, ok bool) {
	d.skipSpace()
	if d.i >= len(d.b) {
		return false, false
	}
	switch d.b[d.i] {
	case ',':
		d.i++
		return true, true
	case close:
		d.i++
		return false, true
	}
	return false, false
}

func (d *scanner) array() (any, bool) {
	d.i++ // [
	l := []any{}
	d.skipSpace()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return l, true
	}
	for {
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		l = append(l, v)
		more, ok := d.next(']')
		if !ok {
			return nil, false
		}
		if !more {
			return l, true
		}
	}
}

// str reads a string in UTF-8, with JSON's escapes but a surrogate's.
func (d *scanner) str() (any, bool) {
	start := d.i + 1
	ascii := true
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			s := d.b[start:j]
			if !ascii && !utf8.Valid(s) {
				return nil, false
			}
			d.i = j + 1
			return string(s), true
		case c == '\\':
			return d.escaped(start, j)
		case c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// escaped reads the rest of a string from its first escape, at j.
func (d *scanner) escaped(start, j int) (any, bool) {
	out := make([]byte, 0, j-start+16)
	out = append(out, d.b[start:j]...)
	for j < len(d.b) {
		c := d.b[j]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return nil, false
			}
			d.i = j + 1
			return string(out), true
		case c < 0x20:
			return nil, false
		case c != '\\':
			out = append(out, c)
			j++
			continue
		}
		if j+1 >= len(d.b) {
			return nil, false
		}
		switch e := d.b[j+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if j+6 > len(d.b) {
				return nil, false
			}
			r := rune(0)
			for _, h := range d.b[j+2 : j+6] {
				switch {
				case h >= '0' && h <= '9':
					r = r<<4 | rune(h-'0')
				case h >= 'a' && h <= 'f':
					r = r<<4 | rune(h-'a'+10)
				case h >= 'A' && h <= 'F':
					r = r<<4 | rune(h-'A'+10)
				default:
					return nil, false
				}
			}
			if utf16.IsSurrogate(r) {
				return nil, false
			}
			out = utf8.AppendRune(out, r)
			j += 6
			continue
		default:
			return nil, false
		}
		j += 2
	}
	return nil, false
}

// number reads a JSON number as written.
func (d *scanner) number() (any, bool) {
	start := d.i
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			d.i++
			continue
		}
		break
	}
	s := string(d.b[start:d.i])
	if !ValidNumber(s) {
		return nil, false
	}
	return json.Number(s), true
}

// ValidNumber reports whether s is a JSON number, as encoding/json
// requires of a json.Number it writes.
func ValidNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
