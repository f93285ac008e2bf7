package lex

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/internal/scratch"
)

// Text is a description prepared once for every cue: its words, its
// sentences and a normalised form for phrase matching.
type Text struct {
	Raw       string
	Lower     string   // raw in lower case, made once: siblings and parameters are looked up in it
	Words     []string // lower-case words, apostrophes dropped
	norm      string   // " " + words joined by " " + " "
	Sentences []string // trimmed sentences, as written
	// sentenceAt[k] is where sentence k's words begin in Words and
	// norm, and sentenceAt[len(Sentences)] where the last one's end:
	// Sentence cuts a sentence's words out of the text's own.
	sentenceAt []wordAt
	// bounded makes a phrase of more than one word match only within
	// a sentence (WithinSentences).
	bounded bool
}

// wordAt is a place between words: the index in Words of the word after
// it, and the offset in norm of the space before that word. raw is, at
// the start of a sentence of an ASCII text, where the sentence starts in
// Raw (and Lower, which lines up with it), and -1 elsewhere. ends says
// that the words before it end a sentence: false at the start of a
// sentence that goes on a line the one before broke (wraps).
type wordAt struct {
	word, norm, raw int
	ends            bool
}

// NewText prepares s for the cues. Its words are read sentence by
// sentence, so that each sentence's are a run of them (Sentence); they
// are the words of the whole text, as no sentence ends inside a word
// (every cut Sentences makes follows a byte that separates words).
func NewText(s string) Text {
	t := Text{Raw: strings.TrimSpace(s)}
	t.Lower = Lower(t.Raw)
	t.Sentences = Sentences(t.Raw)
	buf := wordBuffer(len(t.Raw))
	t.sentenceAt = make([]wordAt, len(t.Sentences)+1)
	// In an ASCII text every sentence is cut out of Raw as written, in
	// order, with only white space between: each is found where the one
	// before it ends, and its lower case is cut out of Lower.
	ascii := isASCII(t.Raw)
	n, raw := 0, 0
	for k, sentence := range t.Sentences {
		at := -1
		if ascii {
			at = raw + strings.Index(t.Raw[raw:], sentence)
			raw = at + len(sentence)
		}
		t.sentenceAt[k] = wordAt{n, len(buf) - 1, at, k == 0 || !wraps(t.Sentences[k-1], sentence)}
		var m int
		buf, m = appendWords(buf, sentence)
		n += m
	}
	t.sentenceAt[len(t.Sentences)] = wordAt{n, len(buf) - 1, -1, true}
	// The buffer is handed over (scratch.Owned), not copied: the lowered
	// text and the words of every description were each copied whole
	// into a string (7 of the 82 MB the heuristic judge allocates
	// answering a 5,000-tool TDQS run).
	t.norm, t.Words = cutWords(scratch.Owned(buf), n)
	return t
}

// wraps reports whether sentence next, which Sentences cut from prev at
// a line break, goes on with prev's sentence: prev ends in a letter, a
// digit or a comma and next opens with a lower-case letter ("The
// snapshot lists page elements along with a unique" and "identifier
// (uid)."), as a text broken into lines of a width reads.
func wraps(prev, next string) bool {
	last, _ := utf8.DecodeLastRuneInString(prev)
	first, _ := utf8.DecodeRuneInString(next)
	return (unicode.IsLetter(last) || unicode.IsDigit(last) || last == ',') && unicode.IsLower(first)
}

// GoesOn reports whether sentence k of t, a Text from NewText, goes on
// with sentence k-1: Sentences cut them at a line break in the middle of
// one sentence (see wraps).
func (t Text) GoesOn(k int) bool {
	return k > 0 && k < len(t.sentenceAt) && !t.sentenceAt[k].ends
}

// WithinSentences returns t, a Text from NewText, matching a phrase of
// more than one word only where its words are in one sentence: "Do
// not. Use this when ..." says no "do not use", and "oldest first. Use
// it" no "first use". A sentence that a line break cut in the middle
// (wraps) is one sentence still. Has, Find, Matching, Contexts,
// HasUnnegated, FirstIn, AllIn and Matched read it so; the words and
// sentences are t's.
func (t Text) WithinSentences() Text {
	t.bounded = true
	return t
}

// Crosses reports whether the n words of t from word i on run across the
// end of a sentence, in a Text from WithinSentences; in any other, false.
func (t Text) Crosses(i, n int) bool {
	return n >= 2 && t.endsWithin(i, i+n, func(s wordAt) int { return s.word })
}

// crossesAt reports whether phrase, found at offset at of t.norm (the
// space before it), runs across the end of a sentence: Crosses read on
// norm.
func (t Text) crossesAt(at int, phrase string) bool {
	return strings.IndexByte(phrase, ' ') >= 0 &&
		t.endsWithin(at, at+1+len(strings.TrimSuffix(phrase, "*")), func(s wordAt) int { return s.norm })
}

// endsWithin reports whether, in a Text from WithinSentences, a sentence
// ends (wordAt.ends) at a place between sentences after from and before
// end, read where pos puts the place: its word for Crosses, its offset
// in norm for crossesAt.
func (t Text) endsWithin(from, end int, pos func(wordAt) int) bool {
	if !t.bounded || len(t.sentenceAt) < 3 {
		return false
	}
	for _, s := range t.sentenceAt[1 : len(t.sentenceAt)-1] {
		if p := pos(s); p >= end {
			return false
		} else if p > from && s.ends {
			return true
		}
	}
	return false
}

// find returns the offset in t.norm, at from or after it, where phrase
// starts (the space before it), or -1: findPhrase, passing over an
// occurrence that runs across the end of a sentence (crossesAt).
func (t Text) find(from int, phrase string) int {
	for {
		i := findPhrase(t.norm[from:], phrase)
		if i < 0 {
			return -1
		}
		if at := from + i; !t.crossesAt(at, phrase) {
			return at
		}
		from += i + 1
	}
}

// Lower is strings.ToLower(s), lowered in place in a copy of s: nearly
// every description is lowered, some more than once, and strings.ToLower
// copies an ASCII text in runs between its capitals and maps every rune
// of any other (an em dash, a curly quote) through unicode.ToLower,
// writing each on its own: that was a tenth of the judge's instructions
// on a tool. A rune whose lower case is written in another number of
// bytes, and a byte that is not UTF-8 (written U+FFFD, as
// strings.ToLower writes it), send the text to lowerRunes.
func Lower(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s // nothing to lower
	}
	b := []byte(s)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		l := unicode.ToLower(r)
		switch {
		case l == r && size > 1:
			// Unchanged (U+FFFD as written too).
		case utf8.RuneLen(l) == size:
			utf8.EncodeRune(b[i:], l)
		default:
			return lowerRunes(s)
		}
		i += size
	}
	return scratch.Owned(b)
}

// lowerRunes is strings.ToLower(s) for any s, rune by rune.
func lowerRunes(s string) string {
	b := make([]byte, 0, len(s)+utf8.UTFMax)
	for _, r := range s {
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return string(b)
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// SnakeNameWords reports, for each word of t (t.Words), whether it is
// part of a name written in snake_case with a lower-case letter
// ("group_limit_type", "timeout_ms", "clear_cache", with a dotted part
// "execution_plan.json"): the name of a field, a parameter, a tool or a
// file, whose words say nothing as prose does.
// A name in capitals ("GITHUB_TOKEN", "NOT_FOUND") is a constant the
// text means, and is not marked; nor is a name whose words said reports
// say what they name as prose would (a nil said reports none). It
// returns nil when no word is marked.
func (t Text) SnakeNameWords(said func(name []string) bool) []bool {
	raw := t.Raw
	if strings.IndexByte(raw, '_') < 0 {
		return nil
	}
	var mask []bool
	n := 0 // words read so far, as appendWords reads them
	// The token being read: a run of word characters, underscores and
	// apostrophes; its words are its parts between underscores that
	// hold a word character.
	words, part, under, lower := 0, false, false, false
	end := func() {
		if part {
			words++
		}
		if under && lower && words > 1 && !(said != nil && n+words <= len(t.Words) && said(t.Words[n:n+words])) {
			if mask == nil {
				mask = make([]bool, len(t.Words))
			}
			for k := n; k < n+words && k < len(mask); k++ {
				mask[k] = true
			}
		}
		n += words
		words, part, under, lower = 0, false, false, false
	}
	for _, r := range raw {
		switch {
		case r < utf8.RuneSelf && (asciiLetter(byte(r)) || asciiDigit(byte(r))):
			// Most bytes are letters: they are read first.
			part = true
			lower = lower || asciiLower(byte(r))
		case r == '_':
			if part {
				words++
			}
			part, under = false, true
		case r == '.' && part:
			// A dot inside a name goes on with it: a file's name and
			// its extension ("execution_plan.json") are one name.
			words++
			part = false
		case r == '\'' || r == '’':
			// Dropped inside a word, as appendWords drops it.
		case r >= utf8.RuneSelf && ideographic(r):
			end()
			n++
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			part = true
		default:
			end()
		}
	}
	end()
	if n != len(t.Words) {
		return nil // not lined up: read every word
	}
	return mask
}

// NewSentence prepares one sentence of a text for the cues: NewText
// without splitting it into sentences again, so its Sentences is nil.
func NewSentence(s string) Text {
	t := Text{Raw: strings.TrimSpace(s)}
	t.Lower = Lower(t.Raw)
	t.norm, t.Words = words(t.Raw)
	return t
}

// Sentence returns sentence k of t, a Text from NewText, as
// NewSentence(t.Sentences[k]) prepares it, its words cut out of t's
// rather than read again: every cue that reads sentences one by one
// would otherwise split each description twice.
func (t Text) Sentence(k int) Text {
	s := Text{Raw: t.Sentences[k]} // trimmed already
	from, to := t.sentenceAt[k], t.sentenceAt[k+1]
	if from.raw >= 0 {
		s.Lower = t.Lower[from.raw : from.raw+len(s.Raw)]
	} else {
		s.Lower = Lower(s.Raw)
	}
	if from.word == to.word {
		s.norm = "  "
		return s
	}
	s.Words = t.Words[from.word:to.word:to.word]
	s.norm = t.norm[from.norm : to.norm+1]
	return s
}

// SentenceHas reports whether sentence k of t, a Text from NewText, has
// phrase, as t.Sentence(k).Has(phrase) does, without preparing the
// sentence (which, in a text beyond ASCII, lowers its case anew).
func (t Text) SentenceHas(k int, phrase string) bool {
	from, to := t.sentenceAt[k], t.sentenceAt[k+1]
	if from.word == to.word {
		return false
	}
	return findPhrase(t.norm[from.norm:to.norm+1], phrase) >= 0
}

// JoinedWords returns t's words joined by single spaces, cut out of the
// text phrases are matched in rather than joined again.
func (t Text) JoinedWords() string {
	if len(t.Words) == 0 {
		return ""
	}
	return t.norm[1 : len(t.norm)-1]
}

// Words splits s into lower-case words of letters and digits. Apostrophes
// are dropped ("don't" is "dont"); any other mark separates words, so
// "read-only" is two words and "search_calls" too.
func Words(s string) []string {
	_, ws := words(s)
	return ws
}

// words returns the words of s (Words) and the text a Text matches
// phrases in: " " + the words joined by " " + " ". Every word is written
// into one buffer, lower-cased, a space after each, and cut out of one
// string made of it: the heuristic splits every description and
// parameter text of every tool, and a builder and a string per word were
// a tenth of its time.
func words(s string) (norm string, out []string) {
	var stack [256]byte
	buf := stack[:1]
	if len(s)+2 > len(stack) {
		buf = wordBuffer(len(s))
	}
	buf[0] = ' '
	buf, n := appendWords(buf, s)
	// A copy: buf may be on the stack.
	return cutWords(string(buf), n)
}

// wordBuffer returns a buffer for the words of n bytes of text, holding
// the space they start with.
func wordBuffer(n int) []byte {
	buf := make([]byte, 1, n+2)
	buf[0] = ' '
	return buf
}

// appendWords appends the words of s to buf, which ends in a space, each
// lower-cased and followed by a space, and returns buf and how many
// words it appended.
func appendWords(buf []byte, s string) ([]byte, int) {
	n := 0
	start := len(buf) // where the word being read starts
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			switch {
			case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
				buf = append(buf, byte(r))
				continue
			case 'A' <= r && r <= 'Z':
				buf = append(buf, byte(r)+'a'-'A')
				continue
			case r == '\'':
				continue
			}
		case r == '’':
			continue
		case ideographic(r):
			// Chinese and Japanese write no spaces: each character counts
			// as a word, which keeps word counts in the range of English.
			if len(buf) > start {
				buf = append(buf, ' ')
				n++
			}
			buf = utf8.AppendRune(buf, r)
			buf = append(buf, ' ')
			n++
			start = len(buf)
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			continue
		}
		// Anything else ends the word being read.
		if len(buf) > start {
			buf = append(buf, ' ')
			n++
			start = len(buf)
		}
	}
	if len(buf) > start {
		buf = append(buf, ' ')
		n++
	}
	return buf, n
}

// cutWords makes the text a Text matches phrases in of norm, n words
// written by appendWords after a space, and cuts the words out of it.
func cutWords(norm string, n int) (string, []string) {
	if n == 0 {
		return "  ", nil
	}
	out := make([]string, n)
	at := 1
	for i := range out {
		end := at + strings.IndexByte(norm[at:], ' ')
		out[i] = norm[at:end]
		at = end + 1
	}
	return norm, out
}

func ideographic(r rune) bool {
	return r >= 0x2E80 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// Sentences splits s at sentence ends (". ", "! ", "? ", and the
// full-width "。", "！", "？") and at line breaks, keeping common
// abbreviations (abbreviationAt) whole. Each sentence is trimmed, and a
// "·" in it is written "." (the dots of the abbreviations were once kept
// whole that way, and sentences have read so since). Each is cut out of
// s, not built rune by rune.
func Sentences(s string) []string {
	if !utf8.ValidString(s) {
		// Each byte that is not UTF-8 becomes U+FFFD, as ranging over
		// s reads it.
		s = string([]rune(s))
	}
	// The sentences are gathered on the stack and copied out once: a
	// description of a few sentences grew its slice at each.
	var buf [8]string
	out := buf[:0]
	start := 0
	cut := func(end int) {
		if v := strings.TrimSpace(s[start:end]); v != "" {
			out = append(out, strings.ReplaceAll(v, "·", "."))
		}
		start = end
	}
	for i := 0; i < len(s); {
		c := s[i]
		if !sentenceBytes[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			if r == '。' || r == '！' || r == '？' {
				cut(i)
			}
			continue
		}
		i++
		switch c {
		case 'e', 'E', 'i', 'v', 'a':
			i += abbreviationAt(s[i-1:])
		case '\n':
			cut(i)
		case '.', '!', '?':
			if next, _ := utf8.DecodeRuneInString(s[i:]); i == len(s) || unicode.IsSpace(next) {
				cut(i)
			}
		}
	}
	cut(len(s))
	if len(out) == 0 {
		return nil
	}
	return slices.Clone(out)
}

// sentenceBytes marks the bytes Sentences reads further: the first of
// an abbreviation (abbreviationAt), a sentence's end, a line break and
// every byte beyond ASCII. It steps over any other byte at once, where
// a switch tested it against each of them, in every description.
var sentenceBytes = func() (b [256]bool) {
	for _, c := range []byte("eEiva\n.!?") {
		b[c] = true
	}
	for c := utf8.RuneSelf; c < len(b); c++ {
		b[c] = true
	}
	return b
}()

// abbreviationAt returns how many bytes of the abbreviation s starts
// with follow its first, or 0 when s starts with none. It looks at the
// second byte before comparing: "e", "a" and "i" start many words.
func abbreviationAt(s string) int {
	if len(s) < 3 {
		return 0
	}
	var a string
	switch s[:2] {
	case "e.":
		a = "e.g."
	case "E.":
		a = "E.g."
	case "i.":
		a = "i.e."
	case "et":
		a = "etc."
	case "vs":
		a = "vs."
	case "ap":
		a = "approx."
	default:
		return 0
	}
	if strings.HasPrefix(s, a) {
		return len(a) - 1
	}
	return 0
}

// Has reports whether phrase occurs in t as whole words. A phrase ending
// in "*" matches any word starting with its last word.
func (t Text) Has(phrase string) bool {
	return t.Find(phrase) >= 0
}

// Find returns the offset in t.norm where phrase starts, or -1.
func (t Text) Find(phrase string) int {
	return t.find(0, phrase)
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

// abbreviated gives the abbreviations whose words a phrase can be
// ("e g" is what is left of "e.g.") as they are written.
var abbreviated = map[string]string{"e g": "e.g.", "i e": "i.e."}

// Matching returns phrase as t has it: a phrase ending in "*" with its
// last word the whole word of t it started ("allowed director*" as
// "allowed directories"), the words of an abbreviation as it is written
// ("e g" as "e.g."), any other phrase as it is, and "" when t has it
// not. An explanation quotes it, so that its quote is words of the
// text rather than a stem that appears nowhere in it.
func (t Text) Matching(phrase string) string {
	at := t.Find(phrase)
	if at < 0 {
		return ""
	}
	if w, ok := abbreviated[phrase]; ok {
		return w
	}
	m := phrase
	if strings.HasSuffix(phrase, "*") {
		end := at + 1 + len(phrase) - 1
		if k := strings.IndexByte(t.norm[end:], ' '); k >= 0 {
			end += k
		}
		m = t.norm[at+1 : end]
	}
	if strings.IndexByte(t.Raw, '\'') >= 0 || strings.Contains(t.Raw, "’") {
		// The words drop apostrophes: "token's" is the word "tokens",
		// which the text does not say (notion API-get-self's "Retrieve
		// your token's bot user").
		if w := withApostrophes(t.Lower, m); w != "" {
			return w
		}
	}
	return m
}

// withApostrophes returns the first span of lower whose words are those
// of phrase but for apostrophes inside them ("token's" for "tokens"),
// with what separates its words as lower has it, or "" when none is
// one: a span that has no apostrophe is phrase as written.
func withApostrophes(lower, phrase string) string {
	for at := 0; at < len(lower); at++ {
		// Only a span that opens with the phrase's first byte can be
		// it: the others are stepped over at once.
		k := strings.IndexByte(lower[at:], phrase[0])
		if k < 0 {
			return ""
		}
		if at += k; at > 0 && wordByte(lower[at-1]) {
			continue
		}
		i, j, marked := at, 0, false
		for j < len(phrase) && i < len(lower) {
			switch {
			case lower[i] == phrase[j]:
				i++
				j++
			case phrase[j] == ' ' && !wordByte(lower[i]) && lower[i] != '\'':
				i++
				for i < len(lower) && !wordByte(lower[i]) {
					i++
				}
				j++
			case lower[i] == '\'' && i > at && wordByte(lower[i-1]):
				i++
				marked = true
			case strings.HasPrefix(lower[i:], "’") && i > at && wordByte(lower[i-1]):
				i += len("’")
				marked = true
			default:
				j = -1
			}
			if j < 0 {
				break
			}
		}
		if j == len(phrase) && marked && (i == len(lower) || !wordByte(lower[i])) {
			return lower[at:i]
		}
	}
	return ""
}

// wordByte reports whether b is an ASCII letter or digit, or a byte of
// a character beyond ASCII.
func wordByte(b byte) bool {
	return asciiLetter(b) || asciiDigit(b) || b >= utf8.RuneSelf
}

// FirstOf returns the first phrase of list found in t, and whether one was.
func (t Text) FirstOf(list []string) (string, bool) {
	for _, p := range list {
		if t.Has(p) {
			return strings.TrimSuffix(p, "*"), true
		}
	}
	return "", false
}

// AllOf returns every phrase of list found in t, in list order.
func (t Text) AllOf(list []string) []string {
	var out []string
	for _, p := range list {
		if t.Has(p) {
			out = append(out, strings.TrimSuffix(p, "*"))
		}
	}
	return out
}

// HasUnnegated reports whether phrase occurs in t with no negation among
// the two words before it.
func (t Text) HasUnnegated(phrase string) bool {
	base := 0
	for {
		at := t.find(base, phrase)
		if at < 0 {
			return false
		}
		if !negatedBy(t.wordsBefore(at)) {
			return true
		}
		base = at + 1
	}
}

// negatedBy reports whether one of the last two words before a phrase
// negates it.
func negatedBy(before []string) bool {
	for j := max(0, len(before)-2); j < len(before); j++ {
		if negationSet[before[j]] {
			return true
		}
	}
	return false
}

// Claims reports whether t states verb of its subject: the verb opens t
// or follows one of vocabulary.claimSubjects ("and overwrites", "it
// deletes"), or a relative pronoun after a word naming the tool ("a tool
// that deletes"), with no negation in the three words before it
// ("never deletes", "neither creates nor deletes") and none just after
// it ("deletes nothing", "modifies no files").
func (t Text) Claims(verb string) bool {
	for i, w := range t.Words {
		if w != verb {
			continue
		}
		subject := i == 0 || claimSubjectSet[t.Words[i-1]] ||
			i >= 2 && relativeSet[t.Words[i-1]] && toolNounSet[t.Words[i-2]]
		if !subject {
			continue
		}
		negated := false
		for j := max(0, i-3); j < i; j++ {
			negated = negated || negationSet[t.Words[j]]
		}
		if i+1 < len(t.Words) && trailingNegSet[t.Words[i+1]] {
			negated = true
		}
		if !negated {
			return true
		}
	}
	return false
}

// NegatedAfter reports whether the first word of t whose verb form is
// verb is followed by a negation ("creates nothing").
func (t Text) NegatedAfter(verb string) bool {
	for i, w := range t.Words {
		if VerbForm(w) == verb {
			return i+1 < len(t.Words) && trailingNegSet[t.Words[i+1]]
		}
	}
	return false
}

// Context is the words around one occurrence of a phrase: up to three
// before it, nearest last, and up to three after it.
type Context struct {
	Before, After []string
}

// Contexts returns the context of every occurrence of phrase in t.
func (t Text) Contexts(phrase string) []Context {
	var out []Context
	for base := 0; ; {
		at := t.find(base, phrase)
		if at < 0 {
			return out
		}
		before := t.wordsBefore(at)
		k := len(before)
		// The phrase itself, then what follows it.
		n := len(strings.Fields(strings.TrimSuffix(phrase, "*")))
		after := t.Words[k:len(t.Words):len(t.Words)]
		if len(after) >= n {
			after = after[n:]
		}
		out = append(out, Context{Before: before[max(0, k-3):], After: after[:min(3, len(after)):min(3, len(after))]})
		base = at + 1
	}
}

// wordsBefore returns the words of t before the place at in t.norm, a
// space before a word or at its end: norm holds a space before each
// word, so they are as many as its spaces before at. It is
// strings.Fields(t.norm[:at]) cut out of t.Words, capped so that an
// append copies them.
func (t Text) wordsBefore(at int) []string {
	k := strings.Count(t.norm[:at], " ")
	return t.Words[:k:k]
}

// Negation reports whether w is a word that turns a claim after it
// around ("not", "never", "no", "doesnt"...).
func Negation(w string) bool { return negationSet[w] }

// Negated reports whether a negation is among the two words before the
// occurrence.
func (c Context) Negated() bool { return negatedBy(c.Before) }

// Stem folds plurals and third-person verbs to one form: "lists" and
// "list", "entries" and "entry", "searches" and "search".
func Stem(w string) string {
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

// VerbForm returns the base form of w when w is a known action verb in
// base or third-person form ("Lists" is "list"), or "".
func VerbForm(w string) string {
	if actionVerbSet[w] || VagueVerbSet[w] {
		return w
	}
	if s := Stem(w); actionVerbSet[s] || VagueVerbSet[s] {
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
			if v := VerbForm(rest); v != "" && !VagueVerbSet[v] {
				return w
			}
		}
	}
	return ""
}

var verbPrefixes = []string{"un", "re", "dis", "pre", "auto"}

// VerbFormWith is VerbForm with the verbs of extra, a cue set's own
// list, read as given or by their Stem: the base form of w, or "".
func VerbFormWith(w string, extra map[string]bool) string {
	if v := VerbForm(w); v != "" {
		return v
	}
	if extra[w] {
		return w
	}
	if s := Stem(w); extra[s] {
		return s
	}
	return ""
}

// NameWords splits an identifier into lower-case words: at separators,
// at lower-to-upper case changes ("handleRequest"), before the last
// capital of a run of capitals ("HTMLParser"), and between letters and
// digits ("processV2" is "process", "v2"). An ASCII name, as nearly every
// tool and parameter name is, is read byte by byte and its words cut
// out of it lowered once (a builder, a rune slice and a string per word
// were most of its cost); TestNameWordsAgreesWithRunes holds that to
// nameWordsRunes, which reads any name.
func NameWords(name string) []string {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return nameWordsRunes(name)
		}
	}
	lower := strings.ToLower(name)
	// The words are gathered on the stack and copied out once: a name
	// of several words grew its slice several times.
	var buf [8]string
	out := buf[:0]
	start := -1 // where the word being read starts, -1 when none is
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !asciiLetter(c) && !asciiDigit(c) {
			if start >= 0 {
				out = append(out, lower[start:i])
				start = -1
			}
			continue
		}
		if start >= 0 {
			prev := name[i-1] // a letter or digit: anything else ended the word
			var cut bool
			switch {
			case asciiUpper(c) && asciiLower(prev):
				cut = true
			case asciiUpper(c) && asciiUpper(prev) && i+1 < len(name) && asciiLower(name[i+1]):
				cut = true
			case asciiDigit(c) && asciiLetter(prev) && lower[start:i] != "v":
				// "list2" is "list", "2"; "V2" stays "v2"
				cut = true
			}
			if cut {
				out = append(out, lower[start:i])
				start = -1
			}
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, lower[start:])
	}
	if len(out) == 0 {
		return nil
	}
	return slices.Clone(out)
}

func asciiUpper(c byte) bool  { return 'A' <= c && c <= 'Z' }
func asciiLower(c byte) bool  { return 'a' <= c && c <= 'z' }
func asciiLetter(c byte) bool { return asciiUpper(c) || asciiLower(c) }
func asciiDigit(c byte) bool  { return '0' <= c && c <= '9' }

// nameWordsRunes is NameWords for any name, read rune by rune.
func nameWordsRunes(name string) []string {
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

// ContentWords returns the stemmed words of ws that carry meaning: no
// stopwords, no single letters.
func ContentWords(ws []string) []string {
	var out []string
	for _, w := range ws {
		if len(w) < 2 || StopwordSet[w] {
			continue
		}
		out = append(out, Stem(w))
	}
	return out
}

// Quote returns s cut to at most n runes at a word boundary, with an
// ellipsis when cut.
func Quote(s string, n int) string {
	if !singleSpaced(s) {
		s = strings.Join(strings.Fields(s), " ")
	}
	// The first n runes, cut out of s rather than out of a rune slice:
	// only a text that is not UTF-8 is read as runes (each bad byte
	// U+FFFD, as a rune slice has it).
	end, valid := 0, true
	for k := 0; k < n && end < len(s); k++ {
		r, size := utf8.DecodeRuneInString(s[end:])
		valid = valid && !(r == utf8.RuneError && size == 1)
		end += size
	}
	if end == len(s) {
		return s
	}
	cut := s[:end]
	if !valid {
		cut = string([]rune(cut))
	}
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.") + "…"
}

// singleSpaced reports whether s is its fields joined by single spaces
// (strings.Fields), as most quoted texts are: Quote then leaves it as it
// is rather than splitting and joining it again.
func singleSpaced(s string) bool {
	prev := ' ' // a space opening s is one too many
	for _, r := range s {
		if unicode.IsSpace(r) && (r != ' ' || prev == ' ') {
			return false
		}
		prev = r
	}
	return prev != ' ' || s == ""
}

// Count writes n with the noun that fits it: "1 word", "2 words",
// "0 words". Explanations name counts with it rather than "word(s)".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Agree(n, one, many)
}

// Agree returns one when n is 1 and many otherwise: the noun or verb
// that agrees with a count written elsewhere ("the undescribed
// parameter", "what values they take").
func Agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
