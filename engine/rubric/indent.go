package rubric

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/internal/jsonstr"
)

// indentJSON writes v as encoding/json writes it with two spaces of
// indent and HTML escaping off, without the final newline. Prompts fence
// parts of every tool's definition this way (an input schema, its
// annotations), so it is written here for the values decoded JSON holds
// (maps, lists, strings, json.Number, booleans, null) without
// encoding/json's reflection and buffers; any other value goes through
// encoding/json. TestIndentJSONMatchesEncodingJSON holds the two to the
// same bytes.
func indentJSON(v any) (string, error) {
	if b, ok := appendIndented(nil, v, 0); ok {
		return string(b), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// appendIndented appends v at the given depth; ok is false for a value
// it leaves to encoding/json.
func appendIndented(dst []byte, v any, depth int) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case bool:
		if x {
			return append(dst, "true"...), true
		}
		return append(dst, "false"...), true
	case string:
		return jsonstr.Append(dst, x, jsonstr.EncodingJSON), true
	case json.Number:
		if !jsonscan.ValidNumber(string(x)) {
			return dst, false
		}
		return append(dst, x...), true
	case []any:
		if x == nil {
			return append(dst, "null"...), true
		}
		if len(x) == 0 {
			return append(dst, "[]"...), true
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, depth+1)
			var ok bool
			if dst, ok = appendIndented(dst, e, depth+1); !ok {
				return dst, false
			}
		}
		dst = newline(dst, depth)
		return append(dst, ']'), true
	case map[string]any:
		if x == nil {
			return append(dst, "null"...), true
		}
		if len(x) == 0 {
			return append(dst, "{}"...), true
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, depth+1)
			dst = jsonstr.Append(dst, k, jsonstr.EncodingJSON)
			dst = append(dst, ": "...)
			var ok bool
			if dst, ok = appendIndented(dst, x[k], depth+1); !ok {
				return dst, false
			}
		}
		dst = newline(dst, depth)
		return append(dst, '}'), true
	}
	return dst, false
}

// newline starts a line indented depth times two spaces.
func newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}
