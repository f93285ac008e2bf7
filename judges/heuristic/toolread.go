package heuristic

import (
	"bytes"
	"strconv"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"
)

// readToolInput fills in from a tdqs.tool question's input reading only
// what the TDQS cues read, straight from its bytes into a tdqs.ToolView:
// of the tool its name, title, annotations' hints and title,
// description, whether its output schema has members and, of its input
// schema's properties, each one's name, whether it is described and
// whether it holds an object (readParam). No map is built. The rest (a
// schema's $defs, a parameter's enum or default, TDQS's signals beside
// the tool) is stepped over, only checked for what would make the whole
// decode fail: JSON that jsonscan leaves to encoding/json, or a number
// past float64, which encoding/json refuses. It returns false whenever
// it is not sure (a name repeated in an object it reads among them), and
// the caller then decodes the input whole; the answer is the same either
// way.
func readToolInput(input []byte, in *tdqs.ToolInput) bool {
	// Members checks the whole input as jsonscan.Decode would.
	if !jsonscan.Members(input, nil, nil) {
		return false
	}
	var toolRaw, sibRaw []byte
	for it := (memberIter{obj: input}); ; {
		name, val, more := it.next()
		if !more {
			break
		}
		switch string(name) {
		case "tool":
			if toolRaw != nil {
				return false
			}
			toolRaw = val
		case "siblings":
			if sibRaw != nil {
				return false
			}
			sibRaw = val
		default:
			// A name encoding/json would match to a field in another
			// case is left to it.
			// Any other member encoding/json skips, and so does this.
			if bytes.EqualFold(name, toolName) || bytes.EqualFold(name, siblingsName) {
				return false
			}
		}
	}
	if sibRaw != nil && string(sibRaw) != "null" {
		v, ok := jsonscan.Decode(sibRaw)
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
	}
	if toolRaw == nil || string(toolRaw) == "null" {
		return true
	}
	// Every number of the tool is checked here once, read or not.
	if toolRaw[0] != '{' || !numbersFit(toolRaw) {
		return false
	}
	v := &tdqs.ToolView{}
	if !readTool(toolRaw, v) {
		return false
	}
	in.View = v
	return true
}

var toolName, siblingsName = []byte("tool"), []byte("siblings")

// readTool reads the tool object raw into v, as tdqs.ViewOf reads the
// decoded tool.
func readTool(raw []byte, v *tdqs.ToolView) bool {
	var names nameSet
	var ann, title []byte
	for it := (memberIter{obj: raw}); ; {
		name, val, more := it.next()
		if !more {
			break
		}
		if !names.add(name) {
			return false
		}
		var ok bool
		switch string(name) {
		case "name":
			v.Name, ok = stringValue(val)
		case "title":
			title, ok = val, true
		case "description":
			v.Description, ok = stringValue(val)
		case "annotations":
			ann, ok = val, true
		case "outputSchema":
			v.HasOutput, ok = hasMembers(val), true
		case "inputSchema":
			ok = readInputSchema(val, v)
		default:
			ok = true
		}
		if !ok {
			return false
		}
	}
	var ok bool
	if title != nil {
		if v.Title, ok = stringValue(title); !ok {
			return false
		}
	}
	if ann != nil && ann[0] == '{' {
		return readAnnotations(ann, v)
	}
	return true
}

// readAnnotations reads the hints of the annotations object raw into v,
// and its title when the tool has none. A repeated name gives its last
// value, as encoding/json decodes it into a map.
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

// readInputSchema reads the parameters of the input schema raw into v:
// nothing when it or its properties are not an object.
func readInputSchema(raw []byte, v *tdqs.ToolView) bool {
	if raw[0] != '{' {
		return true
	}
	var names nameSet
	var props []byte
	for it := (memberIter{obj: raw}); ; {
		name, val, more := it.next()
		if !more {
			break
		}
		if !names.add(name) {
			return false
		}
		if string(name) == "properties" {
			props = val
		}
	}
	if props == nil || props[0] != '{' {
		return true
	}
	names.reset()
	for it := (memberIter{obj: props}); ; {
		name, val, more := it.next()
		if !more {
			break
		}
		if !names.add(name) {
			return false
		}
		p := tdqs.ParamView{Name: string(name)}
		if val[0] == '{' && !readParam(val, &p) {
			return false
		}
		v.Params = append(v.Params, p)
	}
	return true
}

// readParam reads of a parameter's schema object raw whether it is
// described and whether it holds an object: it is typed "object" or
// declares properties, directly or as the items of an array (as
// tdqs.ViewOf reads a decoded one).
func readParam(raw []byte, p *tdqs.ParamView) bool {
	var names nameSet
	var items []byte
	for it := (memberIter{obj: raw}); ; {
		name, val, more := it.next()
		if !more {
			break
		}
		if !names.add(name) {
			return false
		}
		switch string(name) {
		case "description":
			d, ok := described(val)
			if !ok {
				return false
			}
			p.Described = d
		case "type":
			t, ok := typesObject(val)
			if !ok {
				return false
			}
			p.Nested = p.Nested || t
		case "properties":
			p.Nested = p.Nested || val[0] == '{'
		case "items":
			items = val
		}
	}
	if p.Nested || items == nil || items[0] != '{' {
		return true
	}
	names.reset()
	for it := (memberIter{obj: items}); ; {
		name, val, more := it.next()
		if !more {
			break
		}
		if !names.add(name) {
			return false
		}
		switch string(name) {
		case "type":
			t, ok := typesObject(val)
			if !ok {
				return false
			}
			p.Nested = p.Nested || t
		case "properties":
			p.Nested = p.Nested || val[0] == '{'
		}
	}
	return true
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
	return string(out), ok
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
// decode judges. The names are looked for among the few so far, or in a
// map once they are many.
type nameSet struct {
	few  [16][]byte // the first names
	n    int        // how many of few are set
	seen map[string]bool
}

// add adds name and reports whether it is new.
func (s *nameSet) add(name []byte) bool {
	if s.seen != nil {
		if s.seen[string(name)] {
			return false
		}
		s.seen[string(name)] = true
		return true
	}
	for _, n := range s.few[:s.n] {
		if bytes.Equal(n, name) {
			return false
		}
	}
	if s.n < len(s.few) {
		s.few[s.n] = name
		s.n++
		return true
	}
	s.seen = make(map[string]bool, 2*len(s.few))
	for _, n := range s.few {
		s.seen[string(n)] = true
	}
	s.seen[string(name)] = true
	return true
}

// reset empties s for another object.
func (s *nameSet) reset() { s.n, s.seen = 0, nil }

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

// numbersFit reports whether every number in the checked JSON value raw
// fits a float64, as encoding/json needs of a number it decodes into an
// any (jsonscan leaves that check to the caller). A number with no
// exponent and fewer than 300 digits is below float64's largest (about
// 1.8e308) and is not parsed.
func numbersFit(raw []byte) bool {
	for i := 0; i < len(raw); {
		switch c := raw[i]; {
		case c == '"':
			i = jsonscan.SkipString(raw, i)
		case c == '-' || c >= '0' && c <= '9':
			end, _ := jsonscan.NumberEnd(raw, i)
			n := raw[i:end]
			if len(n) >= 300 || bytes.IndexAny(n, "eE") >= 0 {
				if _, err := strconv.ParseFloat(string(n), 64); err != nil {
					return false
				}
			}
			i = end
		default:
			i++
		}
	}
	return true
}
