package report

import "github.com/rubricmcp/rubric/internal/jsonscan"

// compactJSON reports whether b is one JSON value with no space outside
// its strings: what encoding/json writes for a json.RawMessage holding b,
// HTML escaping off, is then b itself, so b can be written as it is. A
// rubric's report values are canonical JSON, thousands of them a report,
// and encoding/json would check and copy each byte by byte. It says no
// to anything it is not sure of (nesting deeper than maxCompactDepth
// included), which then goes through encoding/json as before.
func compactJSON(b []byte) bool {
	end, ok := compactValue(b, 0, 0)
	return ok && end == len(b)
}

// maxCompactDepth bounds the nesting compactJSON follows.
const maxCompactDepth = 1000

// compactValue reads the value that starts at b[i] and returns where it
// ends.
func compactValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) || depth > maxCompactDepth {
		return i, false
	}
	switch c := b[i]; {
	case c == '"':
		return compactString(b, i)
	case c == '{':
		i++
		if i < len(b) && b[i] == '}' {
			return i + 1, true
		}
		for {
			var ok bool
			if i >= len(b) || b[i] != '"' {
				return i, false
			}
			if i, ok = compactString(b, i); !ok || i >= len(b) || b[i] != ':' {
				return i, false
			}
			if i, ok = compactValue(b, i+1, depth+1); !ok || i >= len(b) {
				return i, false
			}
			switch b[i] {
			case ',':
				i++
			case '}':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '[':
		i++
		if i < len(b) && b[i] == ']' {
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = compactValue(b, i, depth+1); !ok || i >= len(b) {
				return i, false
			}
			switch b[i] {
			case ',':
				i++
			case ']':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == 't':
		return compactWord(b, i, "true")
	case c == 'f':
		return compactWord(b, i, "false")
	case c == 'n':
		return compactWord(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return jsonscan.NumberEnd(b, i)
	}
	return i, false
}

// compactWord reads the literal w at b[i].
func compactWord(b []byte, i int, w string) (int, bool) {
	if len(b)-i < len(w) || string(b[i:i+len(w)]) != w {
		return i, false
	}
	return i + len(w), true
}

// compactString reads the string that starts at b[i] (a quote): its
// escapes must be JSON's, and no byte in it a control character.
func compactString(b []byte, i int) (int, bool) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			i++
			if i >= len(b) {
				return i, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(b)-i < 5 {
					return i, false
				}
				for _, h := range b[i+1 : i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return i, false
					}
				}
				i += 4
			default:
				return i, false
			}
		}
	}
	return i, false
}
