package lang

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The text functions of the language over spans of strings: every match
// of a regular expression with where it is, decoding base64 and hex into
// text, and every string of a JSON value with its path. They take and
// return plain Go values; text.go declares them to CEL.

// Span is one match of a regular expression: Start and End are offsets in
// characters (Unicode code points, as CEL's size and substring count
// them), End exclusive, and Text the matched text.
type Span struct {
	Start, End int
	Text       string
}

// regexps caches compiled expressions by source: a formula's pattern is
// almost always a literal, compiled once and matched against every tool.
// It holds at most maxCachedRegexps; past that a pattern is compiled
// each time.
var regexps sync.Map

const maxCachedRegexps = 1024

var regexpsCached struct {
	sync.Mutex
	n int
}

func compileCached(pattern string) (*regexp.Regexp, error) {
	if re, ok := regexps.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	regexpsCached.Lock()
	if regexpsCached.n < maxCachedRegexps {
		if _, loaded := regexps.LoadOrStore(pattern, re); !loaded {
			regexpsCached.n++
		}
	}
	regexpsCached.Unlock()
	return re, nil
}

// FindAll is every non-overlapping match of the RE2 expression pattern in
// s, leftmost first, with its span in characters. The work is linear in
// the length of s (RE2 never backtracks), and there are at most
// len(s)+1 matches.
func FindAll(s, pattern string) ([]Span, error) {
	re, err := compileCached(pattern)
	if err != nil {
		return nil, err
	}
	locs := re.FindAllStringIndex(s, -1)
	out := make([]Span, 0, len(locs))
	// Byte offsets to character offsets in one pass over s.
	chars, at := 0, 0
	toChars := func(b int) int {
		chars += utf8.RuneCountInString(s[at:b])
		at = b
		return chars
	}
	for _, l := range locs {
		start := toChars(l[0])
		end := toChars(l[1])
		out = append(out, Span{Start: start, End: end, Text: s[l[0]:l[1]]})
	}
	return out, nil
}

// printableText reports whether b is UTF-8 text a person could read:
// every character printable (letters, marks, numbers, punctuation,
// symbols, the ASCII space) or a tab, line feed or carriage return, and
// at least one letter.
func printableText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	letter := false
	for _, r := range string(b) {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case unicode.IsLetter(r):
			letter = true
		case !unicode.IsPrint(r):
			return false
		}
	}
	return letter
}

// DecodeBase64 decodes s as base64 (the standard or the URL alphabet,
// padded or not; white space is ignored) and returns the text and true
// only when the bytes are printable UTF-8 text (see printableText);
// anything else, including random bytes, is false.
func DecodeBase64(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	trimmed := strings.TrimRight(s, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(trimmed); err == nil && printableText(b) {
			return string(b), true
		}
	}
	return "", false
}

// DecodeHex decodes s as hexadecimal digits (either case; white space is
// ignored; an optional 0x prefix) and returns the text and true only when
// the bytes are printable UTF-8 text.
func DecodeHex(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	b, err := hex.DecodeString(s)
	if err != nil || !printableText(b) {
		return "", false
	}
	return string(b), true
}

// Text is one string of a JSON value: Path is its JSON pointer (RFC
// 6901), Text the string, and Key true when the string is an object's
// key (its path is then the member's).
type Text struct {
	Path string
	Text string
	Key  bool
}

// maxTextsDepth bounds the nesting Texts descends into; deeper values
// are not visited.
const maxTextsDepth = 64

// Texts is every string of v, keys and values, depth first with an
// object's keys in sorted order and a list's elements in order, so the
// same value yields the same list every time.
func Texts(v any) []Text {
	var out []Text
	var walk func(v any, path string, depth int)
	walk = func(v any, path string, depth int) {
		if depth > maxTextsDepth {
			return
		}
		switch x := v.(type) {
		case string:
			out = append(out, Text{Path: path, Text: x})
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := path + "/" + escapePointer(k)
				out = append(out, Text{Path: p, Text: k, Key: true})
				walk(x[k], p, depth+1)
			}
		case []any:
			for i, e := range x {
				walk(e, fmt.Sprintf("%s/%d", path, i), depth+1)
			}
		}
	}
	walk(v, "", 0)
	return out
}

func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
