package heuristic

import (
	"strings"
	"unicode"
)

// text is a description prepared once for every cue: its words, its
// sentences and a normalised form for phrase matching.
type text struct {
	raw       string
	lower     string   // raw in lower case, made once: siblings and parameters are looked up in it
	words     []string // lower-case words, apostrophes dropped
	norm      string   // " " + words joined by " " + " "
	sentences []string // trimmed sentences, as written
}

// abbreviations would end a sentence early if their dot were read as one.
var abbreviations = strings.NewReplacer("e.g.", "e·g·", "E.g.", "E·g·", "i.e.", "i·e·", "etc.", "etc·", "vs.", "vs·", "approx.", "approx·")

func newText(s string) text {
	t := text{raw: strings.TrimSpace(s)}
	t.lower = strings.ToLower(t.raw)
	t.words = words(t.raw)
	t.norm = " " + strings.Join(t.words, " ") + " "
	t.sentences = sentences(t.raw)
	return t
}

// words splits s into lower-case words of letters and digits. Apostrophes
// are dropped ("don't" is "dont"); any other mark separates words, so
// "read-only" is two words and "search_calls" too.
func words(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range s {
		switch {
		case r == '\'' || r == '’':
		case ideographic(r):
			// Chinese and Japanese write no spaces: each character counts
			// as a word, which keeps word counts in the range of English.
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

func ideographic(r rune) bool {
	return r >= 0x2E80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// sentences splits s at sentence ends (". ", "! ", "? ", and the
// full-width "。", "！", "？") and at line breaks, keeping common
// abbreviations whole.
func sentences(s string) []string {
	s = abbreviations.Replace(s)
	var out []string
	var b strings.Builder
	flush := func() {
		if v := strings.TrimSpace(strings.ReplaceAll(b.String(), "·", ".")); v != "" {
			out = append(out, v)
		}
		b.Reset()
	}
	rs := []rune(s)
	for i, r := range rs {
		b.WriteRune(r)
		switch r {
		case '\n':
			flush()
		case '.', '!', '?':
			if i+1 == len(rs) || unicode.IsSpace(rs[i+1]) {
				flush()
			}
		case '。', '！', '？':
			flush()
		}
	}
	flush()
	return out
}

// has reports whether phrase occurs in t as whole words. A phrase ending
// in "*" matches any word starting with its last word.
func (t text) has(phrase string) bool {
	return t.find(phrase) >= 0
}

// find returns the offset in t.norm where phrase starts, or -1.
func (t text) find(phrase string) int {
	return findPhrase(t.norm, phrase)
}

// findPhrase finds phrase in norm, which starts and ends with a space,
// at word boundaries; it allocates nothing, as it runs for every cue.
func findPhrase(norm, phrase string) int {
	prefix := strings.HasSuffix(phrase, "*")
	phrase = strings.TrimSuffix(phrase, "*")
	for from := 0; ; {
		i := strings.Index(norm[from:], phrase)
		if i < 0 || phrase == "" {
			return -1
		}
		at := from + i
		end := at + len(phrase)
		if at > 0 && norm[at-1] == ' ' && (prefix || end < len(norm) && norm[end] == ' ') {
			return at - 1
		}
		from = at + 1
	}
}

// firstOf returns the first phrase of list found in t, and whether one was.
func (t text) firstOf(list []string) (string, bool) {
	for _, p := range list {
		if t.has(p) {
			return strings.TrimSuffix(p, "*"), true
		}
	}
	return "", false
}

// allOf returns every phrase of list found in t, in list order.
func (t text) allOf(list []string) []string {
	var out []string
	for _, p := range list {
		if t.has(p) {
			out = append(out, strings.TrimSuffix(p, "*"))
		}
	}
	return out
}

// hasUnnegated reports whether phrase occurs in t with no negation among
// the two words before it.
func (t text) hasUnnegated(phrase string) bool {
	norm := t.norm
	base := 0
	for {
		i := findPhrase(norm[base:], phrase)
		if i < 0 {
			return false
		}
		at := base + i
		before := strings.Fields(norm[:at])
		negated := false
		for j := len(before) - 1; j >= 0 && j >= len(before)-2; j-- {
			for _, n := range lists.negations {
				if before[j] == n {
					negated = true
				}
			}
		}
		if !negated {
			return true
		}
		base = at + 1
	}
}

// claims reports whether t states verb of its subject: the verb opens t
// or follows one of lists.claimSubjects ("and overwrites", "it deletes"),
// with no negation before it.
func (t text) claims(verb string) bool {
	for i, w := range t.words {
		if w != verb {
			continue
		}
		if i == 0 || claimSubjectSet[t.words[i-1]] {
			negated := false
			for j := max(0, i-3); j < i; j++ {
				for _, n := range lists.negations {
					negated = negated || t.words[j] == n
				}
			}
			if !negated {
				return true
			}
		}
	}
	return false
}

// stem folds plurals and third-person verbs to one form: "lists" and
// "list", "entries" and "entry", "searches" and "search".
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// verbForm returns the base form of w when w is a known action verb in
// base or third-person form ("Lists" is "list"), or "".
func verbForm(w string) string {
	if actionVerbSet[w] || vagueVerbSet[w] {
		return w
	}
	if s := stem(w); actionVerbSet[s] || vagueVerbSet[s] {
		return s
	}
	if strings.HasSuffix(w, "es") {
		if s := w[:len(w)-2]; actionVerbSet[s] {
			return s
		}
	}
	// "unapprove", "reindex", "disable": a known verb behind a prefix
	// that reverses or repeats it.
	for _, p := range verbPrefixes {
		if rest, ok := strings.CutPrefix(w, p); ok && len(rest) >= 3 {
			if v := verbForm(rest); v != "" && !vagueVerbSet[v] {
				return w
			}
		}
	}
	return ""
}

var verbPrefixes = []string{"un", "re", "dis", "pre", "auto"}

// nameWords splits an identifier into lower-case words: at separators,
// at lower-to-upper case changes ("handleRequest"), before the last
// capital of a run of capitals ("HTMLParser"), and between letters and
// digits ("processV2" is "process", "v2").
func nameWords(name string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, strings.ToLower(b.String()))
			b.Reset()
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if i > 0 && b.Len() > 0 {
			prev := rs[i-1]
			switch {
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush()
			case unicode.IsDigit(r) && unicode.IsLetter(prev) && strings.ToLower(b.String()) != "v":
				// "list2" is "list", "2"; "V2" stays "v2"
				flush()
			}
		}
		b.WriteRune(r)
	}
	flush()
	return out
}

// contentWords returns the stemmed words of ws that carry meaning: no
// stopwords, no single letters.
func contentWords(ws []string) []string {
	var out []string
	for _, w := range ws {
		if len(w) < 2 || stopwordSet[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// quote returns s cut to at most n runes at a word boundary, with an
// ellipsis when cut.
func quote(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	cut := string(rs[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.") + "…"
}
