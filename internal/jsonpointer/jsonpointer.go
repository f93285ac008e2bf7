// Package jsonpointer writes and follows JSON Pointers (RFC 6901), such
// as "/properties/a~1b/items/0", over JSON decoded into Go values
// (map[string]any, []any).
package jsonpointer

import (
	"strconv"
	"strings"
)

// Escape writes token as one reference token of a pointer: "~" becomes
// "~0" and "/" becomes "~1".
func Escape(token string) string {
	if !strings.ContainsAny(token, "~/") {
		return token
	}
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}

// Unescape reads one reference token back: "~1" becomes "/" and then
// "~0" becomes "~", in that order, so that "~01" stays "~1".
func Unescape(token string) string {
	if !strings.Contains(token, "~") {
		return token
	}
	return strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
}

// Resolve follows ptr from doc: "" is doc itself, and every other
// pointer starts with "/". A token names a member of an object, or an
// index of an array written in decimal. It reports false when ptr is not
// a pointer or leads nowhere.
func Resolve(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	rest, ok := strings.CutPrefix(ptr, "/")
	if !ok {
		return nil, false
	}
	cur := doc
	for tok := range strings.SplitSeq(rest, "/") {
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[Unescape(tok)]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) || tok != strconv.Itoa(i) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
