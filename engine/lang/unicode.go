package lang

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
)

// The Unicode functions of the language: what script and general category
// a character has, which scripts a string mixes, the confusable skeleton of
// Unicode's Technical Standard #39, and a string with its invisible
// characters written out. They take and return plain Go values; text.go
// declares them to CEL.

// scriptNames are Unicode's scripts by name, sorted, so that lookups are
// the same on every run.
var scriptNames = func() []string {
	out := make([]string, 0, len(unicode.Scripts))
	for n := range unicode.Scripts {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}()

// categoryNames are the two-letter general categories (Lu, Cf, ...),
// sorted.
var categoryNames = func() []string {
	var out []string
	for n := range unicode.Categories {
		if len(n) == 2 && n != "LC" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}()

// RuneScript is the Unicode script of r ("Latin", "Cyrillic", "Common"
// for punctuation and digits shared by every script, "Inherited" for
// combining marks that take their base's), or "Unknown" for a code point
// no script claims.
func RuneScript(r rune) string {
	// Common and Latin first: they are what most text is made of.
	if unicode.Is(unicode.Common, r) {
		return "Common"
	}
	if unicode.Is(unicode.Latin, r) {
		return "Latin"
	}
	for _, n := range scriptNames {
		if unicode.Is(unicode.Scripts[n], r) {
			return n
		}
	}
	return "Unknown"
}

// RuneCategory is the two-letter Unicode general category of r ("Lu",
// "Cf", "Zs", ...), or "Cn" for an unassigned code point.
func RuneCategory(r rune) string {
	for _, n := range categoryNames {
		if unicode.Is(unicode.Categories[n], r) {
			return n
		}
	}
	return "Cn"
}

// Scripts are the distinct scripts of the characters of s, in the order
// they first occur, without Common and Inherited (which go with any
// script): "reаd" with a Cyrillic а is [Latin, Cyrillic]; "v2.0" is
// [Latin]; "2.0" is [].
func Scripts(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range s {
		sc := RuneScript(r)
		if sc == "Common" || sc == "Inherited" || seen[sc] {
			continue
		}
		seen[sc] = true
		out = append(out, sc)
	}
	return out
}

// Skeleton is the confusable skeleton of s as Unicode's Technical
// Standard #39 defines it (NFD, each character replaced by its prototype
// in confusables.txt, NFD again): two strings a reader may take for one
// another have the same skeleton ("pаypal" with a Cyrillic а and
// "paypal"). The data is confusables.txt of 2020-02-13 (Unicode 13), as
// github.com/mtibben/confusables ships it. A skeleton is for comparing,
// not for showing: it may map a letter to another letter of the same
// script (the digit 0 and the letter O share one).
func Skeleton(s string) string { return confusables.Skeleton(s) }

// Invisible reports whether a reader of rendered text cannot see r, or
// cannot see where it is: control characters other than tab and line
// feed, format characters (zero-width spaces and joiners, bidirectional
// controls, the tag characters U+E0000 to U+E007F), variation selectors,
// private use and unassigned code points, line and paragraph separators,
// and every space but the ASCII one.
func Invisible(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == ' ':
		return false
	case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Zl, unicode.Zp, unicode.Zs):
		return true
	case unicode.Is(unicode.Variation_Selector, r):
		return true
	case !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C):
		return true // unassigned
	}
	return false
}

// Visible is s with every invisible character (see Invisible), and every
// byte that is not UTF-8, written out as \u{HEX} (U+E0041, the tag
// letter A, becomes \u{E0041}; an invalid byte 0xFF becomes \x{FF}), and
// every backslash doubled, and line feeds and tabs as \n and \t, so the
// result is one line that shows all there is and reads back
// unambiguously.
func Visible(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x{%02X}`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case Invisible(r):
			fmt.Fprintf(&b, `\u{%X}`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
