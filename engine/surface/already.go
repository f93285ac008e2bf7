package surface

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/internal/jsonstr"
)

// A tool's text is often already canonical: a surface rubric wrote (what
// a transport plugin sends, a report's embedded surface) and many
// machine-written files are. A lean parse then need not build the tool's
// tree to write its canonical form: it checks that the text is exactly
// what Canonical would write of it, and keeps a copy. Whatever the check
// is not sure of (an escape it would write otherwise, a key out of
// order, a number in another form, -0, a missing name), the tool is
// decoded and written as any other.

// canonicalCheck walks one tool's text.
type canonicalCheck struct {
	jsonscan.Cursor
	// name and server are the tool object's own "name" and ServerKey
	// members, when strings written without escapes.
	name, server string
	hasServer    bool
	// text and again hold a string unescaped and written again.
	text, again []byte
}

// alreadyCanonical reports whether raw is a tool object in canonical form,
// no deeper than MaxDepth, with a non-empty name, and returns the name and
// the ServerKey member (nil when it has none).
func (c *canonicalCheck) alreadyCanonical(raw []byte) (name string, server *string, ok bool) {
	c.B, c.I = raw, 0
	c.name, c.server, c.hasServer = "", "", false
	ok = c.I < len(c.B) && c.B[0] == '{' && c.value(1) && c.I == len(c.B) && c.name != ""
	c.B = nil
	if c.hasServer {
		server = &c.server
	}
	return c.name, server, ok
}

func (c *canonicalCheck) value(depth int) bool {
	if c.I >= len(c.B) {
		return false
	}
	switch b := c.B[c.I]; b {
	case '{':
		return depth <= MaxDepth && c.object(depth)
	case '[':
		return depth <= MaxDepth && c.array(depth)
	case '"':
		_, ok := c.str()
		return ok
	case 't':
		return c.Literal("true")
	case 'f':
		return c.Literal("false")
	case 'n':
		return c.Literal("null")
	default:
		return c.number()
	}
}

func (c *canonicalCheck) object(depth int) bool {
	c.I++ // {
	if c.I < len(c.B) && c.B[c.I] == '}' {
		c.I++
		return true
	}
	var prev []byte
	for first := true; ; first = false {
		if c.I >= len(c.B) || c.B[c.I] != '"' {
			return false
		}
		start := c.I + 1
		plain, ok := c.str()
		// Keys are compared as written: one with an escape is left to
		// the decoder, as is one not after the one before it.
		if !ok || !plain {
			return false
		}
		key := c.B[start : c.I-1]
		if !first && bytes.Compare(prev, key) >= 0 {
			return false
		}
		prev = key
		if c.I >= len(c.B) || c.B[c.I] != ':' {
			return false
		}
		c.I++
		vstart := c.I
		if !c.value(depth + 1) {
			return false
		}
		if depth == 1 && c.B[vstart] != '"' && c.B[vstart] != 'n' && (string(key) == "description" || string(key) == "title") {
			// A text member that is not a string (nor null): the decoder
			// reads the tool, and parse warns of it.
			return false
		}
		if depth == 1 && len(c.B[vstart:c.I]) >= 2 && c.B[vstart] == '"' {
			// A member of the tool itself: its name, its server.
			v := c.B[vstart+1 : c.I-1]
			switch string(key) {
			case "name":
				if bytes.IndexByte(v, '\\') >= 0 {
					return false
				}
				c.name = string(v)
			case ServerKey:
				if bytes.IndexByte(v, '\\') >= 0 {
					return false
				}
				c.server, c.hasServer = string(v), true
			}
		}
		if more, ok := c.After('}'); !more {
			return ok
		}
	}
}

func (c *canonicalCheck) array(depth int) bool {
	c.I++ // [
	if c.I < len(c.B) && c.B[c.I] == ']' {
		c.I++
		return true
	}
	for {
		if !c.value(depth + 1) {
			return false
		}
		if more, ok := c.After(']'); !more {
			return ok
		}
	}
}

// str checks the string at c.I: plain when it holds no escape. A string
// with escapes is canonical when it is written back as it stands.
func (c *canonicalCheck) str() (plain, ok bool) {
	start := c.I + 1
	ascii := true
	j := start
	for ; j < len(c.B); j++ {
		b := c.B[j]
		if b == '"' {
			break
		}
		if b == '\\' {
			return false, c.escaped(start)
		}
		if b < 0x20 {
			return false, false
		}
		if b >= utf8.RuneSelf {
			ascii = false
		}
	}
	if j >= len(c.B) || (!ascii && !utf8.Valid(c.B[start:j])) {
		return false, false
	}
	c.I = j + 1
	return true, true
}

func (c *canonicalCheck) escaped(start int) bool {
	var end int
	var ok bool
	if c.text, end, ok = jsonscan.Unescape(c.text[:0], c.B, start); !ok {
		return false
	}
	c.again = jsonstr.Append(c.again[:0], string(c.text), jsonstr.Canonical)
	if !bytes.Equal(c.again, c.B[start-1:end]) {
		return false
	}
	c.I = end
	return true
}

// number checks that the number at c.I is written as Canonical writes
// it: an integer of up to 15 digits stands for itself, anything else is
// read and written again.
func (c *canonicalCheck) number() bool {
	j, ok := jsonscan.NumberEnd(c.B, c.I)
	if !ok {
		return false
	}
	text := c.B[c.I:j]
	c.I = j
	digits := text
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) > 0 && len(digits) <= 15 && (digits[0] != '0' || (len(digits) == 1 && len(text) == 1)) {
		integer := true
		for _, d := range digits {
			if d < '0' || d > '9' {
				integer = false
				break
			}
		}
		if integer {
			return true
		}
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		return false
	}
	var tmp [32]byte
	return bytes.Equal(appendNumber(tmp[:0], f), text)
}
