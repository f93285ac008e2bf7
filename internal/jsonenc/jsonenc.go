// Package jsonenc writes the values decoded JSON and formulas hold (maps
// of strings, lists, strings, JSON numbers, integers, booleans, null) as
// encoding/json writes them with HTML escaping off, compact or indented,
// without its reflection: prompts fence parts of every tool's definition
// this way, and reports write every tool's metrics. Any other value is
// left to the caller, who hands it to encoding/json.
package jsonenc

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/internal/jsonstr"
)

// Append appends v as encoding/json writes it (HTML escaping off, map
// keys sorted): on one line when indent is false, else with two spaces of
// indent a level, v at the given depth. ok is false, and dst what it was
// given or longer, for a value of another type or a JSON number that is
// not valid, which the caller writes through encoding/json instead.
func Append(dst []byte, v any, indent bool, depth int) (out []byte, ok bool) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case bool:
		return strconv.AppendBool(dst, x), true
	case string:
		return jsonstr.Append(dst, x, jsonstr.EncodingJSON), true
	case json.Number:
		if !jsonscan.ValidNumber(string(x)) {
			return dst, false
		}
		return append(dst, x...), true
	case int64:
		return strconv.AppendInt(dst, x, 10), true
	case int:
		return strconv.AppendInt(dst, int64(x), 10), true
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
			dst = newline(dst, indent, depth+1)
			if dst, ok = Append(dst, e, indent, depth+1); !ok {
				return dst, false
			}
		}
		return append(newline(dst, indent, depth), ']'), true
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
			dst = newline(dst, indent, depth+1)
			dst = append(jsonstr.Append(dst, k, jsonstr.EncodingJSON), ':')
			if indent {
				dst = append(dst, ' ')
			}
			if dst, ok = Append(dst, x[k], indent, depth+1); !ok {
				return dst, false
			}
		}
		return append(newline(dst, indent, depth), '}'), true
	}
	return dst, false
}

// newline starts a line indented depth times two spaces, when indent.
func newline(dst []byte, indent bool, depth int) []byte {
	if !indent {
		return dst
	}
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}

// AppendFloat appends f, which must be finite, as encoding/json writes a
// float64 (as ECMAScript writes a number): the shortest decimal that
// reads back as f, in exponent form below 1e-6 and from 1e21, the
// exponent without a leading zero (1e-7, not 1e-07); -0 as -0.
func AppendFloat(dst []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if n := len(dst); format == 'e' && n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
		dst[n-2] = dst[n-1]
		dst = dst[:n-1]
	}
	return dst
}
