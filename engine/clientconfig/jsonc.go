package clientconfig

// stripJSONC blanks out the comments (// to the end of the line, and
// /* ... */) and the trailing commas (a comma before } or ]) of JSON with
// comments, as VS Code writes its settings, outside strings. Every byte
// removed becomes a space (a line break inside a block comment is kept),
// so that a position in the result is the same line and column in data.
func stripJSONC(data []byte) []byte {
	out := make([]byte, len(data))
	copy(out, data)
	inString, escaped := false, false
	lastComma := -1 // a comma that may yet turn out to be trailing
	for i := 0; i < len(out); i++ {
		c := out[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString, lastComma = true, -1
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out); i++ {
				if out[i] == '*' && i+1 < len(out) && out[i+1] == '/' {
					out[i], out[i+1] = ' ', ' '
					i++
					break
				}
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				out[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return out
}
