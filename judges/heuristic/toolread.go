package heuristic

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"
)

// readToolInput fills in from a tdqs.tool question's input reading only
// what the TDQS cues read (tdqs.readFacts): of the tool its name, title,
// annotations, description, output schema and its input schema's
// properties, each decoded as jsonscan decodes it. The rest (a schema's
// $defs, TDQS's signals beside the tool) is stepped over, only checked
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
	ok := eachMember(input, func(name string, val []byte) bool {
		switch name {
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
			return !strings.EqualFold(name, "tool") && !strings.EqualFold(name, "siblings")
		}
		return true
	})
	if !ok {
		return false
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
	tool, ok := readObject(toolRaw, map[string]func([]byte) (any, bool){
		"name": decodeValue, "title": decodeValue, "annotations": decodeValue,
		"description": decodeValue, "outputSchema": decodeValue, "inputSchema": readInputSchema,
	})
	if !ok || !floatNumbers(tool) {
		return false
	}
	in.Tool = tool
	return true
}

// readInputSchema reads an input schema for the cues: its properties
// alone when it is an object, else whatever it is.
func readInputSchema(raw []byte) (any, bool) {
	if raw[0] != '{' {
		return decodeValue(raw)
	}
	m, ok := readObject(raw, map[string]func([]byte) (any, bool){"properties": decodeValue})
	return m, ok
}

func decodeValue(raw []byte) (any, bool) { return jsonscan.Decode(raw) }

// readObject reads the JSON object raw (checked already), each member
// named in read by its function; the values of other members are checked
// by numbersFit and left out. false when raw is not an object, a member
// could not be read, or a name repeats: encoding/json keeps the last
// value but fails on a bad one anywhere, which the whole decode judges.
func readObject(raw []byte, read map[string]func([]byte) (any, bool)) (map[string]any, bool) {
	if raw[0] != '{' {
		return nil, false
	}
	vals := map[string][]byte{}
	var order []string
	if !eachMember(raw, func(name string, val []byte) bool {
		if _, seen := vals[name]; seen {
			return false
		}
		order = append(order, name)
		vals[name] = val
		return true
	}) {
		return nil, false
	}
	m := make(map[string]any, len(read))
	for _, name := range order {
		val := vals[name]
		f, ok := read[name]
		if !ok {
			if !numbersFit(val) {
				return nil, false
			}
			continue
		}
		if m[name], ok = f(val); !ok {
			return nil, false
		}
	}
	return m, true
}

// eachMember calls fn with each member of the JSON object obj, which
// jsonscan.Members has checked, in order: its name unescaped and its
// value as written. It stops at fn's first false and returns it.
func eachMember(obj []byte, fn func(name string, val []byte) bool) bool {
	i := jsonscan.SkipSpace(obj, 0) + 1 // past '{'
	for {
		i = jsonscan.SkipSpace(obj, i)
		if obj[i] == '}' {
			return true
		}
		end := jsonscan.SkipString(obj, i)
		name := obj[i+1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name, _, _ = jsonscan.Unescape(nil, obj, i+1)
		}
		i = jsonscan.SkipSpace(obj, end)
		i = jsonscan.SkipSpace(obj, i+1) // past ':'
		end = jsonscan.SkipValue(obj, i)
		if !fn(string(name), obj[i:end]) {
			return false
		}
		i = jsonscan.SkipSpace(obj, end)
		if obj[i] == ',' {
			i++
		}
	}
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
