package heuristic

import (
	"bytes"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/internal/scratch"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"
)

// readToolInput fills in from a tdqs.tool question's input reading only
// what the TDQS cues read, in one pass over its bytes into a
// tdqs.ToolView: of the tool its name, title, annotations' hints and
// title, description, whether its output schema has members and, of its
// input schema's properties, each one's name, whether it is described
// and whether it holds an object (param). No map is built. The rest (a
// schema's $defs, a parameter's enum or default, TDQS's signals beside
// the tool) is stepped over, checked as it goes for what would make the
// whole decode fail: JSON that jsonscan leaves to encoding/json, or a
// number in the tool past float64, which encoding/json refuses. It
// returns false whenever it is not sure (a name repeated in an object it
// reads among them), and the caller then decodes the input whole; the
// answer is the same either way.
func readToolInput(input []byte, in *tdqs.ToolInput) bool {
	s := scan{Checker: jsonscan.Checker{Cursor: jsonscan.Cursor{B: input}}}
	if !s.open() {
		return false
	}
	var tool, siblings bool
	for first := true; ; first = false {
		name, more, ok := s.name(first)
		if !ok {
			return false
		}
		if !more {
			break
		}
		switch string(name) {
		case "tool":
			if tool {
				return false
			}
			tool = true
			if ok = s.tool(in); !ok {
				return false
			}
		case "siblings":
			if siblings {
				return false
			}
			siblings = true
			raw, ok := s.raw(1)
			if !ok || !readSiblings(raw, in) {
				return false
			}
		default:
			// A name encoding/json would match to a field in another
			// case is left to it.
			// Any other member encoding/json skips, and so does this.
			if bytes.EqualFold(name, toolName) || bytes.EqualFold(name, siblingsName) || !s.Skip(1) {
				return false
			}
		}
	}
	// Nothing but white space may follow.
	s.Space()
	return s.I == len(s.B)
}

var toolName, siblingsName = []byte("tool"), []byte("siblings")

// readSiblings reads the siblings' names, null or a list of strings.
func readSiblings(raw []byte, in *tdqs.ToolInput) bool {
	if string(raw) == "null" {
		return true
	}
	v, ok := jsonscan.Decode(raw)
	l, isList := v.([]any)
	if !ok || !isList {
		return false
	}
	names := make([]string, len(l))
	for i, x := range l {
		if names[i], ok = x.(string); !ok {
			return false
		}
	}
	in.Siblings = names
	return true
}

// scan reads a tool question's input: the members the cues read, and
// the others stepped over, checked.
type scan struct{ jsonscan.Checker }

// open steps into the object that starts at s.I after white space;
// false when none does.
func (s *scan) open() bool {
	s.Space()
	if s.I >= len(s.B) || s.B[s.I] != '{' {
		return false
	}
	s.I++
	return true
}

// members reads the object s has just opened (open) member by member:
// member is called with each name, s at its value, which it reads or
// skips, and returns false for broken JSON. A name repeated in the
// object is refused (false), as encoding/json would keep its last value
// where the readers keep the first; true once the object is closed.
func (s *scan) members(member func(name []byte) bool) bool {
	var names nameSet
	for first := true; ; first = false {
		name, more, ok := s.name(first)
		if !ok || !more {
			return ok
		}
		if !names.add(name) || !member(name) {
			return false
		}
	}
}

// name reads the name of the next member of the object s is in (first
// when none has been read) and steps to its value, which the caller
// reads or skips. more is false after the last member, s past the
// object; ok is false for broken JSON. The name is the input's own
// bytes unless it has escapes.
func (s *scan) name(first bool) (name []byte, more, ok bool) {
	s.Space()
	if s.I >= len(s.B) {
		return nil, false, false
	}
	if first {
		if s.B[s.I] == '}' {
			s.I++
			return nil, false, true
		}
	} else {
		if more, ok = s.After('}'); !ok || !more {
			return nil, false, ok
		}
		s.Space()
	}
	start := s.I
	if s.I >= len(s.B) || s.B[s.I] != '"' || !s.SkipString() {
		return nil, false, false
	}
	name = s.B[start+1 : s.I-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		name, _, _ = jsonscan.Unescape(nil, s.B, start+1) // SkipString checked it
	}
	s.Space()
	if s.I >= len(s.B) || s.B[s.I] != ':' {
		return nil, false, false
	}
	s.I++
	s.Space()
	// A value follows: the readers look at its first byte.
	return name, true, s.I < len(s.B)
}

// raw steps over the value at s.I, at nesting depth, and returns it as
// written.
func (s *scan) raw(depth int) ([]byte, bool) {
	start := s.I
	ok := s.Skip(depth)
	return s.B[start:s.I], ok
}

// tool reads the tool, the value at s.I, into in.View, as tdqs.ViewOf
// reads the decoded tool; null leaves it nil.
func (s *scan) tool(in *tdqs.ToolInput) bool {
	if s.I < len(s.B) && s.B[s.I] == 'n' {
		return s.Literal("null")
	}
	if !s.open() {
		return false
	}
	// Every number of the tool must fit a float64, read or not.
	s.Floats = true
	defer func() { s.Floats = false }()
	v := &tdqs.ToolView{}
	var ann, title []byte
	read := s.members(func(name []byte) bool {
		var raw []byte
		ok := true
		switch string(name) {
		case "name":
			if raw, ok = s.raw(2); ok {
				v.Name, ok = stringValue(raw)
			}
		case "title":
			title, ok = s.raw(2)
		case "description":
			if raw, ok = s.raw(2); ok {
				v.Description, ok = stringValue(raw)
			}
		case "annotations":
			ann, ok = s.raw(2)
		case "outputSchema":
			raw, ok = s.raw(2)
			v.HasOutput = ok && hasMembers(raw)
		case "inputSchema":
			ok = s.inputSchema(v)
		default:
			ok = s.Skip(2)
		}
		return ok
	})
	if !read {
		return false
	}
	var ok bool
	if title != nil {
		if v.Title, ok = stringValue(title); !ok {
			return false
		}
	}
	if ann != nil && ann[0] == '{' && !readAnnotations(ann, v) {
		return false
	}
	in.View = v
	return true
}

// readAnnotations reads the hints of the annotations object raw
// (checked already) into v, and its title when the tool has none. A
// repeated name gives its last value, as encoding/json decodes it into a
// map.
func readAnnotations(raw []byte, v *tdqs.ToolView) bool {
	var title []byte
	for it := (memberIter{obj: raw}); ; {
		name, val, more := it.next()
		if !more {
			break
		}
		switch string(name) {
		case "title":
			title = val
		case "readOnlyHint":
			v.ReadOnly = boolValue(val)
		case "destructiveHint":
			v.Destructive = boolValue(val)
		case "idempotentHint":
			v.Idempotent = boolValue(val)
		case "openWorldHint":
			v.OpenWorld = boolValue(val)
		}
	}
	if v.Title == "" && title != nil {
		var ok bool
		if v.Title, ok = stringValue(title); !ok {
			return false
		}
	}
	return true
}

// inputSchema reads the parameters of the input schema at s.I into v:
// none when it or its properties are not an object.
func (s *scan) inputSchema(v *tdqs.ToolView) bool {
	if s.B[s.I] != '{' {
		return s.Skip(2)
	}
	s.open()
	return s.members(func(name []byte) bool {
		if string(name) == "properties" && s.B[s.I] == '{' {
			return s.properties(v)
		}
		return s.Skip(3)
	})
}

// properties reads the input schema's properties at s.I, an object, into
// v's parameters.
func (s *scan) properties(v *tdqs.ToolView) bool {
	s.open()
	// The parameters are gathered on the stack and copied out once.
	var buf [16]tdqs.ParamView
	params := buf[:0]
	read := s.members(func(name []byte) bool {
		p := tdqs.ParamView{Name: string(name)}
		ok := true
		if s.B[s.I] == '{' {
			ok = s.param(&p)
		} else {
			ok = s.Skip(4)
		}
		params = append(params, p)
		return ok
	})
	if read {
		v.Params = append(v.Params, params...)
	}
	return read
}

// param reads of the parameter's schema at s.I, an object, whether it is
// described and whether it holds an object: it is typed "object" or
// declares properties, directly or as the items of an array (as
// tdqs.ViewOf reads a decoded one).
func (s *scan) param(p *tdqs.ParamView) bool {
	s.open()
	return s.members(func(name []byte) bool {
		var raw []byte
		ok := true
		switch string(name) {
		case "description":
			if raw, ok = s.raw(5); ok {
				p.Described, ok = described(raw)
			}
		case "type", "properties":
			var nested bool
			if raw, ok = s.raw(5); ok {
				nested, ok = holdsObject(name, raw)
				p.Nested = p.Nested || nested
			}
		case "items":
			if s.B[s.I] == '{' {
				ok = s.items(p)
			} else {
				ok = s.Skip(5)
			}
		default:
			ok = s.Skip(5)
		}
		return ok
	})
}

// items reads of an array parameter's items at s.I, an object, whether
// they hold an object.
func (s *scan) items(p *tdqs.ParamView) bool {
	s.open()
	return s.members(func(name []byte) bool {
		switch string(name) {
		case "type", "properties":
			raw, ok := s.raw(6)
			if !ok {
				return false
			}
			nested, ok := holdsObject(name, raw)
			p.Nested = p.Nested || nested
			return ok
		}
		return s.Skip(6)
	})
}

// holdsObject reports whether a schema's member name ("type" or
// "properties") with the value raw makes it hold an object: a type that
// names "object", or properties that are an object.
func holdsObject(name, raw []byte) (is, ok bool) {
	if string(name) == "properties" {
		return raw[0] == '{', true
	}
	return typesObject(raw)
}

// typesObject reports whether a schema's type raw names "object": it is
// that string, or a list with that string among its items.
func typesObject(raw []byte) (is, ok bool) {
	switch raw[0] {
	case '"':
		return isString(raw, "object")
	case '[':
		for it := (itemIter{arr: raw}); ; {
			item, more := it.next()
			if !more {
				return false, true
			}
			if item[0] != '"' {
				continue
			}
			if is, ok := isString(item, "object"); !ok || is {
				return is, ok
			}
		}
	}
	return false, true
}

// isString reports whether the JSON string raw is s.
func isString(raw []byte, s string) (is, ok bool) {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body) == s, true
	}
	var buf [64]byte
	out, _, ok := jsonscan.Unescape(buf[:0], raw, 1)
	return string(out) == s, ok
}

// described reports whether a description raw is a string with more than
// white space (strings.TrimSpace's), without making the string.
func described(raw []byte) (d, ok bool) {
	if raw[0] != '"' {
		return false, true
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') >= 0 {
		var buf [128]byte
		if body, _, ok = jsonscan.Unescape(buf[:0], raw, 1); !ok {
			return false, false
		}
	}
	return len(bytes.TrimSpace(body)) > 0, true
}

// stringValue is the JSON value raw as a string, "" when it is not one.
func stringValue(raw []byte) (string, bool) {
	if raw[0] != '"' {
		return "", true
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body), true
	}
	out, _, ok := jsonscan.Unescape(make([]byte, 0, len(body)), raw, 1)
	// The buffer is the string's alone and never written again, so it is
	// handed over, where copying it allocated each escaped string twice.
	return scratch.Owned(out), ok
}

// boolValue is the JSON value raw as a hint, nil when it is not a
// boolean. The pointers are shared: no cue writes through them.
func boolValue(raw []byte) *bool {
	switch string(raw) {
	case "true":
		return &trueHint
	case "false":
		return &falseHint
	}
	return nil
}

var trueHint, falseHint = true, false

// hasMembers reports whether the JSON value raw is an object with a
// member.
func hasMembers(raw []byte) bool {
	return raw[0] == '{' && raw[jsonscan.SkipSpace(raw, 1)] != '}'
}

// nameSet finds a name repeated among an object's members: encoding/json
// keeps the last value but fails on a bad one anywhere, which the whole
// decode judges. It keeps each name's 64-bit hash, the first few in an
// array and the rest in a map: two names with one hash are taken for a
// repeat, which only leaves the input to the whole decode. The array is
// small, as a reader holds one a level of the tool it is in.
type nameSet struct {
	few  [16]uint64
	n    int // how many of few are set
	seen map[uint64]bool
}

// add adds name and reports whether it is new (its hash is).
func (s *nameSet) add(name []byte) bool {
	h := nameHash(name)
	if s.seen != nil {
		if s.seen[h] {
			return false
		}
		s.seen[h] = true
		return true
	}
	for _, x := range s.few[:s.n] {
		if x == h {
			return false
		}
	}
	if s.n < len(s.few) {
		s.few[s.n] = h
		s.n++
		return true
	}
	s.seen = make(map[uint64]bool, 2*len(s.few))
	for _, x := range s.few {
		s.seen[x] = true
	}
	s.seen[h] = true
	return true
}

// nameHash is the 64-bit FNV-1a hash of name.
func nameHash(name []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range name {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// memberIter steps through the members of the JSON object obj, which
// jsonscan.Members has checked, in order.
type memberIter struct {
	obj []byte
	i   int // where the next member starts; 0 before the first
}

// next returns the next member's name, unescaped, and its value as
// written; more is false after the last. The name is obj's own bytes
// unless it has escapes.
func (it *memberIter) next() (name, val []byte, more bool) {
	obj, i := it.obj, it.i
	if i == 0 {
		i = jsonscan.SkipSpace(obj, 0) + 1 // past '{'
	}
	i = jsonscan.SkipSpace(obj, i)
	if obj[i] == '}' {
		it.i = i
		return nil, nil, false
	}
	end := jsonscan.SkipString(obj, i)
	name = obj[i+1 : end-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		name, _, _ = jsonscan.Unescape(nil, obj, i+1)
	}
	i = jsonscan.SkipSpace(obj, end)
	i = jsonscan.SkipSpace(obj, i+1) // past ':'
	end = jsonscan.SkipValue(obj, i)
	val = obj[i:end]
	i = jsonscan.SkipSpace(obj, end)
	if obj[i] == ',' {
		i++
	}
	it.i = i
	return name, val, true
}

// itemIter steps through the items of the JSON array arr, which
// jsonscan.Members has checked, in order.
type itemIter struct {
	arr []byte
	i   int // where the next item starts; 0 before the first
}

// next returns the next item as written; more is false after the last.
func (it *itemIter) next() (item []byte, more bool) {
	arr, i := it.arr, it.i
	if i == 0 {
		i = jsonscan.SkipSpace(arr, 0) + 1 // past '['
	}
	i = jsonscan.SkipSpace(arr, i)
	if arr[i] == ']' {
		it.i = i
		return nil, false
	}
	end := jsonscan.SkipValue(arr, i)
	item = arr[i:end]
	i = jsonscan.SkipSpace(arr, end)
	if arr[i] == ',' {
		i++
	}
	it.i = i
	return item, true
}
