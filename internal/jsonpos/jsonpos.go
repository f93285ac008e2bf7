// Package jsonpos reads a JSON document and keeps where each value and
// each object member starts: its byte offset, line and column. The SARIF
// writer uses it to point a finding at the line of a file target that
// holds the tool, parameter or description the finding is about.
//
// Values are named by JSON Pointer (RFC 6901): "" is the document,
// "/tools/0/name" the name member of the first tool. A member's position
// is where its name starts (the opening quote); an array element's is
// where the element starts. Where an object repeats a member name, the
// last one's span counts, as encoding/json keeps the last value (the
// members of an earlier copy keep their entries).
package jsonpos

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/internal/jsonpointer"
)

// MaxDepth bounds how deeply arrays and objects may nest.
const MaxDepth = 10000

// Pos is a place in a document. Line and Column count from 1; Column
// counts Unicode code points (a broken byte counts as one).
type Pos struct {
	Offset int
	Line   int
	Column int
}

// Span is where one value lies: At is where it is named (a member's name,
// or the value itself for an array element or the document), Start and
// End the bytes of the value itself.
type Span struct {
	At         Pos
	Start, End int
}

// Index is a document with the places of its values.
type Index struct {
	data  []byte
	spans map[string]Span
	// lines are the offsets at which lines start.
	lines []int
}

// Parse reads data, which must be one JSON value (white space around it
// allowed), and records where each value is.
func Parse(data []byte) (*Index, error) {
	ix := &Index{data: data, spans: map[string]Span{}, lines: []int{0}}
	for i, b := range data {
		if b == '\n' {
			ix.lines = append(ix.lines, i+1)
		}
	}
	p := &parser{ix: ix, data: data}
	p.space()
	if err := p.value("", p.i, 0); err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(data) {
		return nil, p.errorf("unexpected %s after the document", p.what())
	}
	return ix, nil
}

// Lookup returns the span of the value at pointer.
func (ix *Index) Lookup(pointer string) (Span, bool) {
	s, ok := ix.spans[pointer]
	return s, ok
}

// Raw returns the bytes of the value at pointer.
func (ix *Index) Raw(pointer string) (json.RawMessage, bool) {
	s, ok := ix.spans[pointer]
	if !ok {
		return nil, false
	}
	return json.RawMessage(ix.data[s.Start:s.End]), true
}

// String returns the value at pointer when it is a string.
func (ix *Index) String(pointer string) (string, bool) {
	raw, ok := ix.Raw(pointer)
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// Pointers returns every pointer the index holds, in no order.
func (ix *Index) Pointers() []string {
	out := make([]string, 0, len(ix.spans))
	for p := range ix.spans {
		out = append(out, p)
	}
	return out
}

// Pos returns the line and column of a byte offset.
func (ix *Index) Pos(offset int) Pos {
	lo, hi := 0, len(ix.lines)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ix.lines[mid] <= offset {
			lo = mid
		} else {
			hi = mid
		}
	}
	start := ix.lines[lo]
	return Pos{Offset: offset, Line: lo + 1, Column: utf8.RuneCount(ix.data[start:offset]) + 1}
}

// Join appends one reference token to a pointer, escaped as RFC 6901
// says.
func Join(pointer string, token string) string {
	return pointer + "/" + jsonpointer.Escape(token)
}

type parser struct {
	ix   *Index
	data []byte
	i    int
}

func (p *parser) errorf(format string, a ...any) error {
	pos := p.ix.Pos(min(p.i, len(p.data)))
	return fmt.Errorf("line %d, column %d: %s", pos.Line, pos.Column, fmt.Sprintf(format, a...))
}

func (p *parser) what() string {
	if p.i >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[p.i:])
	return strconv.QuoteRune(r)
}

func (p *parser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value reads the value at p.i, named pointer, whose name starts at at.
func (p *parser) value(pointer string, at, depth int) error {
	if depth > MaxDepth {
		return p.errorf("arrays and objects nest more than %d deep", MaxDepth)
	}
	start := p.i
	if p.i >= len(p.data) {
		return p.errorf("unexpected end of input, want a value")
	}
	var err error
	switch c := p.data[p.i]; {
	case c == '{':
		err = p.object(pointer, depth)
	case c == '[':
		err = p.array(pointer, depth)
	case c == '"':
		err = p.str()
	case c == 't':
		err = p.literal("true")
	case c == 'f':
		err = p.literal("false")
	case c == 'n':
		err = p.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		err = p.number()
	default:
		return p.errorf("unexpected %s, want a value", p.what())
	}
	if err != nil {
		return err
	}
	p.ix.spans[pointer] = Span{At: p.ix.Pos(at), Start: start, End: p.i}
	return nil
}

func (p *parser) object(pointer string, depth int) error {
	p.i++ // {
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return nil
	}
	for {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return p.errorf("unexpected %s, want a member name", p.what())
		}
		at := p.i
		if err := p.str(); err != nil {
			return err
		}
		var name string
		if err := json.Unmarshal(p.data[at:p.i], &name); err != nil {
			return p.errorf("member name: %v", err)
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return p.errorf("unexpected %s, want ':'", p.what())
		}
		p.i++
		p.space()
		if err := p.value(Join(pointer, name), at, depth+1); err != nil {
			return err
		}
		p.space()
		if p.i >= len(p.data) {
			return p.errorf("unexpected end of input, want ',' or '}'")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return nil
		default:
			return p.errorf("unexpected %s, want ',' or '}'", p.what())
		}
	}
}

func (p *parser) array(pointer string, depth int) error {
	p.i++ // [
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return nil
	}
	for n := 0; ; n++ {
		p.space()
		if err := p.value(pointer+"/"+strconv.Itoa(n), p.i, depth+1); err != nil {
			return err
		}
		p.space()
		if p.i >= len(p.data) {
			return p.errorf("unexpected end of input, want ',' or ']'")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return nil
		default:
			return p.errorf("unexpected %s, want ',' or ']'", p.what())
		}
	}
}

// str reads a string, checking its escapes and that it holds no control
// character; it accepts bytes that are not UTF-8, as encoding/json does
// (which replaces them).
func (p *parser) str() error {
	p.i++ // "
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return nil
		case c == '\\':
			p.i++
			if p.i >= len(p.data) {
				return p.errorf("unexpected end of input in a string")
			}
			switch p.data[p.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i++
			case 'u':
				p.i++
				for k := 0; k < 4; k++ {
					if p.i >= len(p.data) || !isHex(p.data[p.i]) {
						return p.errorf("unexpected %s in a \\u escape", p.what())
					}
					p.i++
				}
			default:
				return p.errorf("unknown escape \\%s in a string", p.what())
			}
		case c < 0x20:
			return p.errorf("control character %U in a string: escape it", rune(c))
		default:
			p.i++
		}
	}
	return p.errorf("unexpected end of input in a string")
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func (p *parser) literal(word string) error {
	if !strings.HasPrefix(string(p.data[p.i:min(p.i+len(word), len(p.data))]), word) {
		return p.errorf("unexpected %s, want %s", p.what(), word)
	}
	p.i += len(word)
	return nil
}

func (p *parser) digits() int {
	n := 0
	for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

func (p *parser) number() error {
	if p.data[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.data) && p.data[p.i] == '0' {
		p.i++
	} else if p.digits() == 0 {
		return p.errorf("unexpected %s in a number", p.what())
	}
	if p.i < len(p.data) && p.data[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return p.errorf("unexpected %s in a number, want a digit", p.what())
		}
	}
	if p.i < len(p.data) && (p.data[p.i] == 'e' || p.data[p.i] == 'E') {
		p.i++
		if p.i < len(p.data) && (p.data[p.i] == '+' || p.data[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return p.errorf("unexpected %s in a number, want a digit", p.what())
		}
	}
	return nil
}
