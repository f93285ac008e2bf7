package lex

import (
	"regexp"
	"strings"
)

// Hint returns an annotation's boolean hint, or nil when it is not set
// (or not a boolean).
func Hint(ann map[string]any, key string) *bool {
	if b, ok := ann[key].(bool); ok {
		return &b
	}
	return nil
}

// StripNamePrefix removes a leading "tool_name:" or "tool_name -" from a
// sentence, which some servers put before the purpose.
func StripNamePrefix(s, name string) string {
	if len(s) > len(name) && strings.EqualFold(s[:len(name)], name) {
		rest := strings.TrimLeft(s[len(name):], " ")
		if strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "-") || strings.HasPrefix(rest, "—") {
			return strings.TrimLeft(rest, ":-— ")
		}
	}
	return s
}

// Mentions reports whether a text names a parameter called name, whose
// words are ws: its exact name, or all of its words in order
// ("max_bytes" as "max bytes"), or its one word with plurals folded. A
// name that is one stop word ("all", "to", "from"; not a word for a
// tool such as "tool", a noun in prose too) is named only where
// written or used as a name (WrittenAsName, usedAsName: "all=true",
// "the to parameter", "from and to are dates"): in prose it is the word
// ("Returns all console messages").
func Mentions(d Text, name string, ws []string) bool {
	if len(d.Words) == 0 {
		return false
	}
	if len(ws) == 1 && StopwordSet[ws[0]] && !toolNounSet[ws[0]] && PlainWord(name) {
		return identifierWhere(d.Lower, name, func(at, end int) bool {
			return WrittenAsName(d.Lower, at, end) || usedAsName(ws[0], d.Lower[:at], d.Lower[end:])
		})
	}
	if IdentifierIn(d.Lower, name) {
		return true
	}
	if len(ws) > 1 {
		// The words joined by spaces, on the stack when short.
		var buf [32]byte
		b := buf[:0]
		for i, w := range ws {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, w...)
		}
		return d.Has(string(b))
	}
	if len(ws) == 1 {
		w := Stem(ws[0])
		for _, x := range d.Words {
			if stemIs(x, w) {
				return true
			}
		}
	}
	return false
}

// stemIs reports whether Stem(x) is w, without making the stem of a word
// in "ies" (the one form Stem builds rather than cuts): a parameter's
// word is compared with every word of a description.
func stemIs(x, w string) bool {
	// Stem cuts at most two bytes (or writes "y" for three), so a word
	// of another length or first byte has another stem: most words of a
	// description are passed over here.
	if len(x) < len(w) || len(x) > len(w)+2 || len(w) > 0 && x[0] != w[0] {
		return false
	}
	if len(x) > 4 && strings.HasSuffix(x, "ies") {
		return len(w) == len(x)-2 && w[len(w)-1] == 'y' && w[:len(w)-1] == x[:len(x)-3]
	}
	return Stem(x) == w
}

// IdentifierIn reports whether id occurs in ls, a text already in lower
// case, as a whole identifier, ignoring case: not inside a longer run of
// letters, digits and underscores.
func IdentifierIn(ls, id string) bool {
	return identifierWhere(ls, id, nil)
}

// ToolNameIn reports whether ls, a text already in lower case, names the
// tool called id. It is IdentifierIn, but a name that is one plain word
// of letters ("find", "count", "search") counts only where it is written
// as a name: between backticks or quotes, before "(" or before the word
// "tool". In prose such a word is the word ("to find a connection"), not
// a pointer to a sibling.
func ToolNameIn(ls, id string) bool {
	if !PlainWord(id) {
		return IdentifierIn(ls, id)
	}
	return identifierWhere(ls, id, func(at, end int) bool { return WrittenAsName(ls, at, end) })
}

// identifierWhere reports whether id occurs in ls as a whole identifier,
// ignoring case, at a place [at, end) that also accepts; a nil also
// accepts every place.
func identifierWhere(ls, id string, also func(at, end int) bool) bool {
	if id == "" {
		return false
	}
	lid := strings.ToLower(id)
	for from := 0; ; {
		at := IdentifierAt(ls, lid, from)
		if at < 0 {
			return false
		}
		if also == nil || also(at, at+len(lid)) {
			return true
		}
		from = at + 1
	}
}

// IdentifierAt returns the first offset at or after from where lid, in
// lower case, stands in ls, a lower-case text, as a whole identifier
// (no IdentByte on either side), or -1.
func IdentifierAt(ls, lid string, from int) int {
	for from <= len(ls) {
		i := strings.Index(ls[from:], lid)
		if i < 0 {
			return -1
		}
		at := from + i
		end := at + len(lid)
		if (at == 0 || !IdentByte(ls[at-1])) && (end == len(ls) || !IdentByte(ls[end])) {
			return at
		}
		from = at + 1
	}
	return -1
}

// PlainWord reports whether a tool name is one word of ASCII letters, a
// name prose can hold as an ordinary word.
func PlainWord(id string) bool {
	if id == "" {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !asciiLetter(id[i]) {
			return false
		}
	}
	return true
}

// WrittenAsName reports whether the word ls[at:end] is written as a
// name rather than as prose: quoted or back-ticked, called ("find("), or
// followed by "tool" ("the find tool").
func WrittenAsName(ls string, at, end int) bool {
	if at > 0 && end < len(ls) && strings.IndexByte("`'\"", ls[at-1]) >= 0 && ls[end] == ls[at-1] {
		return true
	}
	rest := ls[end:]
	if strings.HasPrefix(rest, "(") {
		return true
	}
	after, ok := strings.CutPrefix(rest, " tool")
	return ok && (after == "" || after[0] == 's' || !asciiLetter(after[0]))
}

// usedAsName reports whether function word w, with the text before
// and rest the text after it, is used as a parameter's name: set,
// labelled or typed ("all=true", "all: every message", "to (string)"),
// followed by a word for a parameter ("the to parameter"), or the
// subject of a form of "be" or a modal, maybe with one more name joined
// by "and" or "or" ("from and to are ISO dates"), where the word in its
// own sense never stands. A plural word for a parameter after a lone
// function word is what it determines ("all fields", not "from and to
// fields"), and a word that is a verb too after "to" its infinitive
// ("to flag spam").
//
// A quantifier (quantifierSet: "all", "each", "any") stands in prose
// before a plural noun and as the subject of "is", "are" or a modal
// ("All parameters are optional", "then all is done", "all can be
// filtered"), so it is a name there only when set, labelled or typed,
// or before a singular word for a parameter ("the all flag").
func usedAsName(w, before, rest string) bool {
	rest = strings.TrimLeft(rest, " ")
	if rest == "" {
		return false
	}
	if rest[0] == '=' || rest[0] == ':' || rest[0] == '(' {
		return true
	}
	next := Words(rest[:min(len(rest), 40)])
	if quantifierSet[w] {
		return len(next) > 0 && ParamNounSet[next[0]] && !strings.HasSuffix(next[0], "s")
	}
	joined := strings.HasSuffix(before, " and ") || strings.HasSuffix(before, " or ")
	if len(next) >= 3 && (next[0] == "and" || next[0] == "or") {
		next, joined = next[2:], true
	}
	if len(next) == 0 {
		return false
	}
	if n := next[0]; ParamNounSet[n] {
		return joined || !strings.HasSuffix(n, "s") && !(w == "to" && verbNounSet[n])
	}
	return subjectVerbSet[next[0]]
}

// quantifierSet holds the quantifiers among the stop words, which
// usedAsName reads apart.
var quantifierSet = Set([]string{"all", "any", "each", "every", "some", "both", "few", "many", "most", "none", "no"})

// IdentByte reports whether b may be part of an identifier in
// lower-cased text (IdentifierIn's reading): a letter, digit,
// underscore or a byte of a multi-byte character.
func IdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 0x80
}

// backticked finds identifiers written between backticks; Snake finds
// identifiers joined by underscores ("search_calls").
var (
	backticked = regexp.MustCompile("`([A-Za-z][A-Za-z0-9_-]*)`")
	Snake      = regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b`)
)

// Identifiers returns the words of s that look like tool names: written
// between backticks, or joined by underscores ("search_calls"). A hyphen
// alone does not make a name: "read-only" and "rate-limit" are English.
func Identifiers(s string) []string {
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return append(out, Snake.FindAllString(s, -1)...)
}

// Namespace returns the first word that most tool names share as a
// prefix ("browser" in browser_click, browser_type, ...), or "", given
// the words of each name. A verb shared by many names ("get") is not a
// namespace.
func Namespace(names [][]string) string {
	if len(names) < 3 {
		return ""
	}
	first := map[string]int{}
	for _, ws := range names {
		if len(ws) > 1 {
			first[ws[0]]++
		}
	}
	w, n := Dominant(first)
	if 2*n < len(names) || VerbForm(w) != "" {
		return ""
	}
	return w
}

// WithoutNamespace drops the namespace from the front of a name's words.
func WithoutNamespace(ws []string, ns string) []string {
	if ns != "" && len(ws) > 1 && ws[0] == ns {
		return ws[1:]
	}
	return ws
}

// Dominant returns the most frequent key (ties broken by name) and its
// count.
func Dominant(m map[string]int) (string, int) {
	best, n := "", 0
	for _, k := range SortedKeys(m) {
		if m[k] > n {
			best, n = k, m[k]
		}
	}
	return best, n
}
