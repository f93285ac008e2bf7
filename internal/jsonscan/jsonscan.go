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
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/internal/jsonstr"
)

// Cursor is a place in a JSON text, with the steps between values that
// rubric's JSON readers share (this package's and engine/surface's).
type Cursor struct {
	B []byte // the text
	I int    // the index of the next byte to read
}

// Space skips JSON's white space.
func (c *Cursor) Space() {
	for c.I < len(c.B) {
		switch c.B[c.I] {
		case ' ', '\t', '\n', '\r':
			c.I++
		default:
			return
		}
	}
}

// Next reads what follows a member or an item, after white space: a
// comma (more follows) or close, the object's or array's end; anything
// else is not ok.
func (c *Cursor) Next(close byte) (more, ok bool) {
	c.Space()
	return c.After(close)
}

// After is Next with no white space allowed before the comma or close,
// as in canonical JSON.
func (c *Cursor) After(close byte) (more, ok bool) {
	if c.I >= len(c.B) {
		return false, false
	}
	switch c.B[c.I] {
	case ',':
		c.I++
		return true, true
	case close:
		c.I++
		return false, true
	}
	return false, false
}

// Literal reads word (true, false or null) if the text goes on with it.
func (c *Cursor) Literal(word string) bool {
	if len(c.B)-c.I < len(word) || string(c.B[c.I:c.I+len(word)]) != word {
		return false
	}
	c.I += len(word)
	return true
}

// maxDepth bounds nesting; deeper documents go to encoding/json, which
// has a limit of its own.
const maxDepth = 1000

// Decode returns the value of the JSON document b (white space around it
// allowed) as encoding/json decodes it into an any with UseNumber; ok is
// false when it leaves b to encoding/json.
func Decode(b []byte) (v any, ok bool) {
	d := scanner{Cursor: Cursor{B: b}}
	if v, ok = d.value(); !ok {
		return nil, false
	}
	if d.Space(); d.I != len(d.B) {
		return nil, false
	}
	return v, true
}

// scanner reads plain JSON; ok false means "let encoding/json read it".
type scanner struct {
	Cursor
	depth int
	// text is B copied into a string, once, at the first string or number
	// read: every key, string without escapes and number is a slice of
	// it, where each was a copy of its own (an answer's 21 keys, 7 strings
	// and 6 numbers were 34 allocations).
	text string
	// buf holds an escaped string's text while it is unescaped, reused
	// by the next.
	buf []byte
}

// slice is B[i:j] as a string, a slice of text.
func (d *scanner) slice(i, j int) string {
	if d.text == "" {
		d.text = string(d.B)
	}
	return d.text[i:j]
}

func (d *scanner) value() (any, bool) {
	d.Space()
	if d.I >= len(d.B) {
		return nil, false
	}
	switch c := d.B[d.I]; {
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
		// A string is boxed here only: a key is not.
		s, ok := d.str()
		return s, ok
	case c == 't':
		return true, d.Literal("true")
	case c == 'f':
		return false, d.Literal("false")
	case c == 'n':
		return nil, d.Literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, false
}

func (d *scanner) object() (any, bool) {
	d.I++ // {
	m := map[string]any{}
	d.Space()
	if d.I < len(d.B) && d.B[d.I] == '}' {
		d.I++
		return m, true
	}
	for {
		d.Space()
		if d.I >= len(d.B) || d.B[d.I] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.Space()
		if d.I >= len(d.B) || d.B[d.I] != ':' {
			return nil, false
		}
		d.I++
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		m[k] = v
		more, ok := d.Next('}')
		if !ok {
			return nil, false
		}
		if !more {
			return m, true
		}
	}
}

func (d *scanner) array() (any, bool) {
	d.I++ // [
	l := []any{}
	d.Space()
	if d.I < len(d.B) && d.B[d.I] == ']' {
		d.I++
		return l, true
	}
	for {
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		l = append(l, v)
		more, ok := d.Next(']')
		if !ok {
			return nil, false
		}
		if !more {
			return l, true
		}
	}
}

// str reads a string in UTF-8, with JSON's escapes but a surrogate's.
func (d *scanner) str() (string, bool) {
	start := d.I + 1
	ascii := true
	for j := start; j < len(d.B); j++ {
		if j = jsonstr.SafeRun(d.B, j); j == len(d.B) {
			break
		}
		switch c := d.B[j]; {
		case c == '"':
			if !ascii && !utf8.Valid(d.B[start:j]) {
				return "", false
			}
			d.I = j + 1
			return d.slice(start, j), true
		case c == '\\':
			return d.escaped(start, j)
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// escaped reads the rest of a string from its first escape, at j.
func (d *scanner) escaped(start, j int) (string, bool) {
	// Unescaping never lengthens a text: room for the string's bytes up
	// to its closing quote is room enough, where appending grew it twice
	// for a justification.
	if n := SkipString(d.B, start-1) - start; cap(d.buf) < n {
		d.buf = make([]byte, 0, n)
	}
	out, end, ok := Unescape(append(d.buf[:0], d.B[start:j]...), d.B, j)
	d.buf = out
	if !ok {
		return "", false
	}
	d.I = end
	return string(out), true
}

// Unescape reads the rest of a JSON string in b from i, inside it, up to
// and with its closing quote: it appends the text to dst with JSON's
// escapes replaced and returns it and the index after the quote. ok is
// false for what this package leaves to encoding/json: an escaped
// surrogate (which encoding/json pairs or replaces), text that is not
// UTF-8, a control character, a broken escape, no closing quote.
func Unescape(dst, b []byte, i int) (out []byte, end int, ok bool) {
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			if !utf8.Valid(dst) {
				return dst, 0, false
			}
			return dst, i + 1, true
		case c < 0x20:
			return dst, 0, false
		case c != '\\':
			dst = append(dst, c)
			i++
			continue
		}
		if i+1 >= len(b) {
			return dst, 0, false
		}
		switch e := b[i+1]; e {
		case '"', '\\', '/':
			dst = append(dst, e)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hexRune(b, i+2)
			if !ok {
				return dst, 0, false
			}
			dst = utf8.AppendRune(dst, r)
			i += 6
			continue
		default:
			return dst, 0, false
		}
		i += 2
	}
	return dst, 0, false
}

// hexRune reads the four hex digits of a \u escape at b[i:]: false
// when they are not four hex digits, or name half of a surrogate pair
// (which this package leaves to encoding/json).
func hexRune(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	r := rune(0)
	for _, h := range b[i : i+4] {
		switch {
		case h >= '0' && h <= '9':
			r = r<<4 | rune(h-'0')
		case h >= 'a' && h <= 'f':
			r = r<<4 | rune(h-'a'+10)
		case h >= 'A' && h <= 'F':
			r = r<<4 | rune(h-'A'+10)
		default:
			return 0, false
		}
	}
	return r, !utf16.IsSurrogate(r)
}

// number reads a JSON number as written.
func (d *scanner) number() (any, bool) {
	start := d.I
	for d.I < len(d.B) {
		switch c := d.B[d.I]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			d.I++
			continue
		}
		break
	}
	if end, ok := NumberEnd(d.B, start); !ok || end != d.I {
		return nil, false
	}
	return json.Number(d.slice(start, d.I)), true
}

// ValidNumber reports whether s is a JSON number, as encoding/json
// requires of a json.Number it writes.
func ValidNumber(s string) bool {
	end, ok := NumberEnd(s, 0)
	return ok && end == len(s)
}

// NumberEnd reads the JSON number that starts at b[i] by JSON's grammar
// (a sign, an integer part without leading zeros, a fraction, an
// exponent) and returns the index after it; ok is false when no number
// starts there.
func NumberEnd[T ~string | ~[]byte](b T, i int) (end int, ok bool) {
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return 0, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, false
		}
	}
	return i, true
}

// Member finds the member called key in the JSON object obj (white space
// around and inside it allowed) without decoding the other members:
// their values are only skipped. It returns the member's value as
// written, and found false when obj has no such member; a name repeated
// gives its last value, as encoding/json decodes it. ok is false when
// obj is not an object this package reads (the cases Decode gives up
// on), and the caller then decodes obj whole.
func Member(obj []byte, key string) (val []byte, found, ok bool) {
	var vals [1][]byte
	if !Members(obj, []string{key}, vals[:]) {
		return nil, false, false
	}
	return vals[0], vals[0] != nil, true
}

// Members is Member for several names in one pass over obj: vals[i] is
// set to the value of the member called keys[i], nil when there is none.
func Members(obj []byte, keys []string, vals [][]byte) (ok bool) {
	clear(vals)
	c := memberScan{Checker: Checker{Cursor: Cursor{B: obj}}}
	c.Space()
	if c.I >= len(c.B) || c.B[c.I] != '{' {
		return false
	}
	c.I++
	c.Space()
	if c.I < len(c.B) && c.B[c.I] == '}' {
		c.I++
		return c.end()
	}
	for {
		c.Space()
		if c.I >= len(c.B) || c.B[c.I] != '"' {
			return c.fail(vals)
		}
		k, ok := c.name(keys)
		if !ok {
			return c.fail(vals)
		}
		c.Space()
		if c.I >= len(c.B) || c.B[c.I] != ':' {
			return c.fail(vals)
		}
		c.I++
		c.Space()
		start := c.I
		if !c.skip(1) {
			return c.fail(vals)
		}
		if k >= 0 {
			vals[k] = c.B[start:c.I]
		}
		more, ok := c.Next('}')
		if !ok || !more && !c.end() {
			return c.fail(vals)
		}
		if !more {
			return true
		}
	}
}

// fail forgets what Members found.
func (c *memberScan) fail(vals [][]byte) bool {
	clear(vals)
	return false
}

// end reports whether only white space is left.
func (c *memberScan) end() bool {
	c.Space()
	return c.I == len(c.B)
}

// name reads the member name at c.I and returns its index in keys, -1
// when it is none of them.
func (c *memberScan) name(keys []string) (k int, ok bool) {
	start := c.I
	if !c.skipString() {
		return -1, false
	}
	name := c.B[start+1 : c.I-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		c.buf, _, _ = Unescape(c.buf[:0], c.B, start+1) // skipString checked it
		name = c.buf
	}
	for i, key := range keys {
		if string(name) == key {
			return i, true
		}
	}
	return -1, true
}

// memberScan is a Checker that finds members, for Member.
type memberScan struct {
	Checker
	// buf holds a member name with escapes, unescaped.
	buf []byte
}

// Checker is a Cursor that steps over values checking each as Decode
// reads it, without building it: a reader that takes a few members of a
// document and steps over the others checks the whole document in one
// pass.
type Checker struct {
	Cursor
	// Floats, when set, also refuses a number past float64's range, as
	// encoding/json refuses one it decodes into an any (Decode leaves
	// that to its caller).
	Floats bool
}

// Skip steps over the value at c.I, checking its grammar as Decode does
// (strings as Unescape reads them, numbers by NumberEnd), without
// building it; false when Decode would give it up. depth is the nesting
// the value is at: 1 for a member or item of the document's own object
// or array.
func (c *Checker) Skip(depth int) bool { return c.skip(depth) }

// SkipString steps over the string at c.I, its opening quote, checked as
// Skip checks one.
func (c *Checker) SkipString() bool { return c.skipString() }

// skip is Skip.
func (c *Checker) skip(depth int) bool {
	if c.I >= len(c.B) {
		return false
	}
	switch b := c.B[c.I]; b {
	case '{', '[':
		if depth >= maxDepth {
			return false
		}
		c.I++
		c.Space()
		if c.I < len(c.B) && c.B[c.I] == b+2 { // '}' is '{'+2, ']' is '['+2
			c.I++
			return true
		}
		for {
			c.Space()
			if b == '{' {
				if c.I >= len(c.B) || c.B[c.I] != '"' || !c.skipString() {
					return false
				}
				c.Space()
				if c.I >= len(c.B) || c.B[c.I] != ':' {
					return false
				}
				c.I++
				c.Space()
			}
			if !c.skip(depth + 1) {
				return false
			}
			more, ok := c.Next(b + 2)
			if !ok {
				return false
			}
			if !more {
				return true
			}
		}
	case '"':
		return c.skipString()
	case 't':
		return c.Literal("true")
	case 'f':
		return c.Literal("false")
	case 'n':
		return c.Literal("null")
	}
	start := c.I
	end, ok := NumberEnd(c.B, c.I)
	c.I = end
	return ok && (!c.Floats || FitsFloat(c.B[start:end]))
}

// FitsFloat reports whether the JSON number n is within float64's range,
// as encoding/json needs of a number it decodes into a float64. A number
// with no exponent and fewer than 300 bytes is below float64's largest
// (about 1.8e308) and is not parsed.
func FitsFloat(n []byte) bool {
	if len(n) < 300 && !bytes.ContainsAny(n, "eE") {
		return true
	}
	_, err := strconv.ParseFloat(string(n), 64)
	return err == nil
}

// skipString steps over the string at c.I, checked as Unescape reads
// one, without writing its text: an escape stands for a whole character
// of its own, so the text is UTF-8 when the bytes outside escapes are.
func (c *Checker) skipString() bool {
	ascii := true
	for j := c.I + 1; j < len(c.B); j++ {
		if j = jsonstr.SafeRun(c.B, j); j >= len(c.B) {
			return false
		}
		switch b := c.B[j]; {
		case b == '"':
			if !ascii && !utf8.Valid(c.B[c.I+1:j]) {
				return false
			}
			c.I = j + 1
			return true
		case b == '\\':
			if j+1 >= len(c.B) {
				return false
			}
			switch c.B[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				if _, ok := hexRune(c.B, j+2); !ok {
					return false
				}
				j += 5
			default:
				return false
			}
		case b < 0x20:
			return false
		case b >= utf8.RuneSelf:
			ascii = false
		}
	}
	return false
}
