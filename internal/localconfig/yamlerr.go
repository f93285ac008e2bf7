package localconfig

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// yamlLine is the form of yaml.v3's syntax errors: "yaml: line N: what"
// or "yaml: what". They carry no column.
var yamlLine = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// The search for the column parses the file's prefixes, which is
// quadratic: it is made in a file of up to maxColumnFile bytes, over
// maxColumnSearch prefixes from the start of the line yaml names.
const (
	maxColumnFile   = 16 << 10
	maxColumnSearch = 2048
)

// syntaxError words err, yaml.v3's error parsing data, the config file
// at path, as "config PATH:LINE:COL: not valid YAML: what (hint)". yaml
// names only a line, and that of the block a problem is in rather than
// the problem's own; the position is found as the shortest prefix of
// the file that fails with the same error, which ends at the character
// the parser stopped at.
func syntaxError(path string, data []byte, err error) error {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	what := m[2]
	at := "config " + path
	if m[1] != "" {
		at += ":" + m[1]
	}
	var char rune
	from := 0
	if m[1] != "" {
		n, _ := strconv.Atoi(m[1])
		from = lineStart(data, n)
	}
	if line, col, ok := problemAt(data, from, err.Error()); ok {
		if text := []rune(strings.Split(string(data), "\n")[line-1]); col <= len(text) {
			char = text[col-1]
		}
		at = fmt.Sprintf("config %s:%d:%d", path, line, col)
		if col0 := opener(data, line, col, what); col0 > 0 {
			at = fmt.Sprintf("config %s:%d:%d", path, line, col0)
		}
	}
	msg := fmt.Sprintf("%s: not valid YAML: %s", at, what)
	if h := yamlHint(what, char); h != "" {
		msg += " (" + h + ")"
	}
	return fmt.Errorf("%s", msg)
}

// lineStart is the offset of the 1-based line n of data.
func lineStart(data []byte, n int) int {
	off := 0
	for ; n > 1; n-- {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return off
		}
		off += i + 1
	}
	return off
}

// problemAt is the line and column (1-based, in characters) where the
// shortest prefix of data longer than from bytes that fails with the
// error text want ends.
func problemAt(data []byte, from int, want string) (line, col int, ok bool) {
	if len(data) > maxColumnFile {
		return 0, 0, false
	}
	for k := from + 1; k <= min(len(data), from+maxColumnSearch); k++ {
		if k < len(data) && !utf8.RuneStart(data[k]) {
			continue // end prefixes on whole characters
		}
		var n yaml.Node
		if err := yaml.Unmarshal(data[:k], &n); err == nil || err.Error() != want {
			continue
		}
		start := strings.LastIndexByte(string(data[:k-1]), '\n') + 1
		line = strings.Count(string(data[:start]), "\n") + 1
		return line, utf8.RuneCount(data[start:k]), true
	}
	return 0, 0, false
}

// opener is, for a flow list or map that is not closed, the column of
// its opening bracket on the line, left of col; 0 otherwise.
func opener(data []byte, line, col int, what string) int {
	var open string
	switch {
	case strings.HasSuffix(what, "or ']'"):
		open = "["
	case strings.HasSuffix(what, "or '}'"):
		open = "{"
	default:
		return 0
	}
	text := strings.Split(string(data), "\n")[line-1]
	runes := []rune(text)
	i := strings.LastIndex(string(runes[:min(col, len(runes))]), open)
	if i < 0 {
		return 0
	}
	return utf8.RuneCountInString(text[:i]) + 1
}

// yamlHint says what usually causes the YAML error what, found at the
// character char (0 when not known), and how to mend it.
func yamlHint(what string, char rune) string {
	switch {
	case char == '\t':
		return "indent with spaces, not tabs"
	case strings.Contains(what, "mapping values are not allowed"):
		return `a second ": " on one line, or a key indented deeper than the keys above it: quote a value that holds ": ", or line the key up with the others`
	case strings.Contains(what, "unexpected end of stream"):
		return "a quote opened here is not closed"
	case strings.Contains(what, "tab character"):
		return "indent with spaces, not tabs"
	case strings.HasSuffix(what, "or ']'"):
		return "a list opened with [ is not closed with ]"
	case strings.HasSuffix(what, "or '}'"):
		return "a map opened with { is not closed with }"
	case strings.Contains(what, "did not find expected key"):
		return "a line indented differently from the keys of its map, or a list item where a key should be"
	case strings.Contains(what, "cannot start any token"):
		return "quote a value that begins with @ or `"
	}
	return ""
}
