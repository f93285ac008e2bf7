package rubric

import "github.com/hashicorp/hcl/v2"

// MaxNesting bounds how deeply braces, brackets, parentheses and template
// interpolations nest in a rubric file. The HCL parser recurses once a
// level, so a file of 100,000 nested objects would overflow its stack; a
// real rubric nests a dozen levels.
const MaxNesting = 200

// tooDeep scans src for nesting deeper than MaxNesting before the HCL
// parser sees it, and returns the position of the first opening past it.
// The scan skips comments outside quoted strings and counts every opening
// and closing elsewhere, in strings and heredocs too (an interpolation
// nests there), so it can only over-count an unbalanced text, never miss
// a real level.
func tooDeep(src []byte) (hcl.Pos, bool) {
	depth, line, col := 0, 1, 1
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inString && c == '\\' && i+1 < len(src):
			i++
			col++
		case c == '"':
			inString = !inString
		case c == '\n':
			inString = false // a quoted string never spans lines
		case !inString && (c == '#' || c == '/' && i+1 < len(src) && src[i+1] == '/'):
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case !inString && c == '/' && i+1 < len(src) && src[i+1] == '*':
			for i += 2; i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/'); i++ {
				if src[i] == '\n' {
					line, col = line+1, 0
				}
				col++
			}
			i++
		case c == '{' || c == '[' || c == '(':
			if depth++; depth > MaxNesting {
				return hcl.Pos{Line: line, Column: col, Byte: i}, true
			}
		case c == '}' || c == ']' || c == ')':
			depth = max(depth-1, 0)
		}
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return hcl.Pos{}, false
}
