package heuristic

import (
	"bytes"
	"strconv"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"
)

// readToolInput fills in from a tdqs.tool question's input reading only
// what the TDQS cues read (tdqs.readFacts): of the tool its name, title,
// annotations, description, output schema and, of its input schema's
// properties, each one's description, type, items and whether its own
// properties are an object (readProperty), each decoded as jsonscan
// decodes it. The rest (a schema's $defs, a parameter's enum or default,
// TDQS's signals beside the tool) is stepped over, only checked
// for what would make the whole decode fail: JSON that jsonscan leaves to
// encoding/json, or a number past float64, which encoding/json refuses.
// It returns false whenever it is not sure, and the caller then decodes
// the input whole; the answer is the same either way.
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
	tool, ok := readObject(toolRaw, toolMember)
	if !ok || !floatNumbers(tool) {
		return false
	}
	in.Tool = tool
	return true
}

var toolName, siblingsName = []byte("tool"), []byte("siblings")

// reader reads one member's value (as written, checked already) into
// what the cues see of it; false when it cannot be sure of it.
type reader func(raw []byte) (any, bool)

// toolMember is how each member of the tool the cues read is read (nil
// for the others): a schema's properties in part, the rest whole.
func toolMember(name []byte) reader {
	switch string(name) {
	case "name", "title", "annotations", "description", "outputSchema":
		return decodeValue
	case "inputSchema":
		return readInputSchema
	}
	return nil
}

// readInputSchema reads an input schema for the cues: its properties
// alone when it is an object, else whatever it is.
func readInputSchema(raw []byte) (any, bool) {
	return readMembers(raw, func(name []byte) reader {
		if string(name) == "properties" {
			return readProperties
		}
		return nil
	})
}

// readProperties reads a schema's properties for the cues: each
// parameter's schema as far as tdqs.readFacts reads it (readProperty).
// A parameter's schema holds most of a tool question's bytes (enums,
// defaults, nested schemas), and decoding it whole into maps was most
// of the judge's allocations.
func readProperties(raw []byte) (any, bool) {
	return readMembers(raw, func([]byte) reader { return readProperty })
}

// readProperty reads one parameter's schema: its description and type,
// whether its properties are an object, and the same of its items
// (tdqs.isNested reads no more).
func readProperty(raw []byte) (any, bool) {
	return readMembers(raw, func(name []byte) reader {
		switch string(name) {
		case "description":
			return decodeValue
		case "type":
			return readType
		case "properties":
			return readShape
		case "items":
			return readItems
		}
		return nil
	})
}

// readItems reads an array schema's items as far as tdqs.isObject reads
// them: their type, and whether their properties are an object.
func readItems(raw []byte) (any, bool) {
	return readMembers(raw, func(name []byte) reader {
		switch string(name) {
		case "type":
			return readType
		case "properties":
			return readShape
		}
		return nil
	})
}

// readType reads a schema's type: one of JSON Schema's type names, as
// nearly every parameter gives, is the constant string (nothing to
// allocate), anything else is decoded.
func readType(raw []byte) (any, bool) {
	switch string(raw) {
	case `"string"`:
		return "string", true
	case `"object"`:
		return "object", true
	case `"array"`:
		return "array", true
	case `"integer"`:
		return "integer", true
	case `"number"`:
		return "number", true
	case `"boolean"`:
		return "boolean", true
	case `"null"`:
		return "null", true
	}
	return decodeValue(raw)
}

// readShape reads a value of which the cues only ask whether it is an
// object: an object is read as an empty one (its numbers checked, as
// for a member stepped over), anything else whole.
func readShape(raw []byte) (any, bool) {
	if raw[0] != '{' {
		return decodeValue(raw)
	}
	if !numbersFit(raw) {
		return nil, false
	}
	return map[string]any{}, true
}

func decodeValue(raw []byte) (any, bool) { return jsonscan.Decode(raw) }

// readMembers reads raw with readObject when it is an object, the
// members pick names read as it says, and whole when it is anything else.
func readMembers(raw []byte, pick func(name []byte) reader) (any, bool) {
	if raw[0] != '{' {
		return decodeValue(raw)
	}
	return readObject(raw, pick)
}

// readObject reads the JSON object raw (checked already), each member
// for which read gives a reader by it; the values of other members are
// checked by numbersFit and left out. false when raw is not an object, a
// member could not be read, or a name repeats: encoding/json keeps the
// last value but fails on a bad one anywhere, which the whole decode
// judges.
func readObject(raw []byte, read func(name []byte) reader) (map[string]any, bool) {
	if raw[0] != '{' {
		return nil, false
	}
	var (
		m    map[string]any
		seen map[string]bool // the names so far, once there are many
		buf  [16][]byte
		some = buf[:0] // the names so far, while there are few
	)
	for it := (memberIter{obj: raw}); ; {
		name, val, more := it.next()
		if !more {
			break
		}
		// A repeated name: looked for among the few names so far, or in
		// seen once they are many.
		if seen != nil {
			if seen[string(name)] {
				return nil, false
			}
			seen[string(name)] = true
		} else {
			for _, s := range some {
				if bytes.Equal(s, name) {
					return nil, false
				}
			}
			if len(some) < len(buf) {
				some = append(some, name)
			} else {
				seen = make(map[string]bool, 2*len(buf))
				for _, s := range some {
					seen[string(s)] = true
				}
				seen[string(name)] = true
			}
		}
		f := read(name)
		if f == nil {
			if !numbersFit(val) {
				return nil, false
			}
			continue
		}
		v, ok := f(val)
		if !ok {
			return nil, false
		}
		if m == nil {
			m = map[string]any{}
		}
		m[string(name)] = v
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, true
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

// numbersFit reports whether every number in the checked JSON value raw
// fits a float64, as encoding/json needs of a number it decodes into an
// any (jsonscan leaves that check to the caller).
func numbersFit(raw []byte) bool {
	for i := 0; i < len(raw); {
		switch c := raw[i]; {
		case c == '"':
			i = jsonscan.SkipString(raw, i)
		case c == '-' || c >= '0' && c <= '9':
			end, _ := jsonscan.NumberEnd(raw, i)
			if _, err := strconv.ParseFloat(string(raw[i:end]), 64); err != nil {
				return false
			}
			i = end
		default:
			i++
		}
	}
	return true
}
