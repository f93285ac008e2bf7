package surface

import (
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/internal/jsonstr"
)

// A tool's JSON is decoded here into the values encoding/json's Unmarshal
// into an any gives (map[string]any, []any, string, float64, bool, nil),
// in one pass instead of encoding/json's two (it checks the whole text,
// then decodes it), with each map and slice made at its final size, and
// with member names and short strings shared between the tools a
// decoder reads: a large surface repeats "type", "description" and
// "string" hundreds of thousands of times. Whatever it is not sure to
// decode exactly as encoding/json does (an escaped surrogate, invalid
// UTF-8, a number out of float64's range, a syntax error, deep nesting)
// it gives up on, and the caller decodes that text with encoding/json,
// which also words the error.

// decoder decodes tools one after the other, on one goroutine.
type decoder struct {
	jsonscan.Cursor
	// stack holds the members and items of the objects and arrays being
	// read, the innermost last, until each is made at its size.
	keys []string
	vals []any
	// names shares member names and short strings between tools.
	names map[string]string
	// buf holds a string's text while its escapes are replaced.
	buf []byte
	// inPlace, when set, makes each string without escapes share the
	// bytes of the text decoded rather than be copied or shared through
	// names: see Tool.DefinitionInPlace.
	inPlace bool
}

// Bounds on what a decoder shares and how deep it reads: past them it
// allocates as encoding/json does, or gives up.
const (
	shareMax   = 24   // the longest string shared
	shareCount = 8192 // the most strings a decoder shares
	decodeMax  = 512  // the deepest nesting read here; MaxDepth refuses less
)

func newDecoder() *decoder { return &decoder{names: make(map[string]string, 256)} }

// decode returns the value data holds, and false when it cannot be sure
// to decode it as encoding/json would.
func (d *decoder) decode(data []byte) (v any, ok bool) {
	d.B, d.I = data, 0
	d.keys, d.vals = d.keys[:0], d.vals[:0]
	v, ok = d.value(0)
	if !ok {
		return nil, false
	}
	d.Space()
	if d.I != len(d.B) {
		return nil, false
	}
	return v, true
}

func (d *decoder) value(depth int) (any, bool) {
	d.Space()
	if d.I >= len(d.B) {
		return nil, false
	}
	switch c := d.B[d.I]; c {
	case '{':
		if depth >= decodeMax {
			return nil, false
		}
		return d.object(depth + 1)
	case '[':
		if depth >= decodeMax {
			return nil, false
		}
		return d.array(depth + 1)
	case '"':
		s, ok := d.str(true)
		return s, ok
	case 't':
		return true, d.Literal("true")
	case 'f':
		return false, d.Literal("false")
	case 'n':
		return nil, d.Literal("null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return d.number()
		}
	}
	return nil, false
}

func (d *decoder) object(depth int) (any, bool) {
	d.I++ // {
	base := len(d.keys)
	d.Space()
	if d.I < len(d.B) && d.B[d.I] == '}' {
		d.I++
		return map[string]any{}, true
	}
	for {
		d.Space()
		if d.I >= len(d.B) || d.B[d.I] != '"' {
			return nil, false
		}
		k, ok := d.str(true)
		if !ok {
			return nil, false
		}
		d.Space()
		if d.I >= len(d.B) || d.B[d.I] != ':' {
			return nil, false
		}
		d.I++
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		d.keys, d.vals = append(d.keys, k), append(d.vals, v)
		more, ok := d.Next('}')
		if !ok {
			return nil, false
		}
		if !more {
			break
		}
	}
	keys := d.keys[base:]
	vals := d.vals[len(d.vals)-len(keys):] // nested values have left the stack as they found it
	m := make(map[string]any, len(keys))
	for j, k := range keys {
		m[k] = vals[j] // a repeated name: the last one counts, as in encoding/json
	}
	clear(vals) // let go of what the stack held
	d.keys, d.vals = d.keys[:base], d.vals[:len(d.vals)-len(keys)]
	return m, true
}

func (d *decoder) array(depth int) (any, bool) {
	d.I++ // [
	base := len(d.vals)
	d.Space()
	if d.I < len(d.B) && d.B[d.I] == ']' {
		d.I++
		return []any{}, true
	}
	for {
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		d.vals = append(d.vals, v)
		more, ok := d.Next(']')
		if !ok {
			return nil, false
		}
		if !more {
			break
		}
	}
	items := make([]any, len(d.vals)-base)
	copy(items, d.vals[base:])
	clear(d.vals[base:])
	d.vals = d.vals[:base]
	return items, true
}

// str reads the string at d.I. A string without escapes is shared when
// short and share is set.
func (d *decoder) str(share bool) (string, bool) {
	start := d.I + 1
	j := start
	ascii := true
	for ; j < len(d.B); j++ {
		if j = jsonstr.SafeRun(d.B, j); j == len(d.B) {
			break
		}
		c := d.B[j]
		if c == '"' {
			break
		}
		if c == '\\' {
			return d.escaped(start)
		}
		if c < 0x20 {
			return "", false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if j >= len(d.B) {
		return "", false
	}
	raw := d.B[start:j]
	d.I = j + 1
	if !ascii && !utf8.Valid(raw) {
		return "", false // encoding/json replaces each invalid byte
	}
	if d.inPlace {
		if len(raw) == 0 {
			return "", true
		}
		return unsafe.String(&raw[0], len(raw)), true
	}
	if share && len(raw) <= shareMax {
		if s, ok := d.names[string(raw)]; ok {
			return s, true
		}
		s := string(raw)
		if len(d.names) < shareCount {
			d.names[s] = s
		}
		return s, true
	}
	return string(raw), true
}

// escaped reads a string with escapes, from start, its first byte.
func (d *decoder) escaped(start int) (string, bool) {
	b, end, ok := jsonscan.Unescape(d.buf[:0], d.B, start)
	d.buf = b
	if !ok {
		return "", false
	}
	d.I = end
	return string(b), true
}

// number reads a number as encoding/json does into an any: checked
// against JSON's grammar, then a float64.
func (d *decoder) number() (any, bool) {
	j, ok := jsonscan.NumberEnd(d.B, d.I)
	if !ok {
		return nil, false
	}
	f, err := strconv.ParseFloat(string(d.B[d.I:j]), 64)
	if err != nil {
		return nil, false // out of range: encoding/json fails, and says where
	}
	d.I = j
	return f, true
}
