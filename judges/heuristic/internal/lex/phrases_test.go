package lex

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
)

// corpusStrings are texts at the edges and every string of the corpus
// captures (names, descriptions, schemas).
func corpusStrings(t *testing.T) []string {
	t.Helper()
	texts := []string{
		"", " ", "don't", "Don’t stop", "read-only", "search_calls", "ABC def GHI",
		"日本語のテキスト。次の文！", "mixed日本text", "İstanbul ǅemal Σίσυφος", "x\xffy", "\xe6\x97",
		"12 apples, 3.5 pears!", "'''", "a’b’c", "ＡＢＣ full width", "tab\tand\nnewline",
		"Use e.g. this. Or i.e. that, etc. And vs. approx. 3.", "E.g. one.Two. Three!\u00a0Four? five",
		"ends with e.g.", "e.g.e.g. x", "middle·dot. and e·g· too", "x\xff. y\xfe! z", "a.\u2003b", "...",
		"Read only the first lines; read-only tool.", "not\nfor\r\nlines\n\n",
	}
	for _, f := range surfacetest.CorpusFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		stringsIn(v, &texts)
	}
	return texts
}

// sentencesReference is Sentences as it was written first, on a copy of
// s with the abbreviations' dots replaced and a builder fed rune by rune:
// the reference the Sentences that cuts s must agree with.
func sentencesReference(s string) []string {
	s = strings.NewReplacer("e.g.", "e·g·", "E.g.", "E·g·", "i.e.", "i·e·", "etc.", "etc·", "vs.", "vs·", "approx.", "approx·").Replace(s)
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

// TestSentencesAgreesWithReference: Sentences splits every string of the
// corpus and texts at the edges (abbreviations at the end, one after
// another, a "·" of the text's own, bytes that are not UTF-8) into the
// sentences the reference gives.
func TestSentencesAgreesWithReference(t *testing.T) {
	for _, s := range corpusStrings(t) {
		if got, want := Sentences(s), sentencesReference(s); !slices.Equal(got, want) {
			t.Errorf("Sentences(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestSentences pins a few splits.
func TestSentences(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"One. Two", []string{"One.", "Two"}},
		{"Use e.g. a path. Then stop", []string{"Use e.g. a path.", "Then stop"}},
		{"v1.2 is out", []string{"v1.2 is out"}},
		{"line one\nline two", []string{"line one", "line two"}},
		{"日本。英語", []string{"日本。", "英語"}},
		{"a·b. c", []string{"a.b.", "c"}},
		{"bad \xff. ok", []string{"bad \uFFFD.", "ok"}},
	} {
		if got := Sentences(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Sentences(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPhrases: FirstIn, AllIn and Matched give what FirstOf, AllOf and
// Has give, phrase by phrase, for lists with whole words, "*" prefixes
// of one and of several words, repeats, and phrases that are not plain
// words (empty, doubled or edge spaces, a lone "*").
func TestPhrases(t *testing.T) {
	lists := [][]string{
		{"use this when", "use", "this", "when you need", "e g", "for example", "read only", "read only the"},
		{"auth*", "rate limit*", "no side effect*", "side effect*", "a", "api key", "api keys", "api", "permission*"},
		{"", "*", "a  b", " a", "a ", "a *", "read only *", "the", "x y z", "x y", "y z*"},
		{"the", "the", "thing*", "t*", "th*"},
		{},
	}
	texts := append(corpusStrings(t)[:0:0],
		"", "Use this when you need it", "e.g. for example read-only", "Read only the first lines",
		"authenticate with an API key; rate-limited; no side-effects", "a b", "a", "the thing things",
		"x y z y zed", "permissions and auth", "A  B")
	texts = append(texts, corpusStrings(t)...)
	for _, list := range lists {
		p := NewPhrases(list)
		for _, s := range texts {
			for _, tx := range []Text{NewText(s), NewText(s).WithinSentences()} {
				phrasesAgree(t, p, list, tx)
			}
		}
	}
}

// phrasesAgree checks that FirstIn, AllIn and Matched of the compiled
// list p find in tx what FirstOf, AllOf and Has find of list.
func phrasesAgree(t *testing.T, p *Phrases, list []string, tx Text) {
	t.Helper()
	s := tx.Raw
	gotFirst, gotOK := tx.FirstIn(p)
	wantFirst, wantOK := tx.FirstOf(list)
	if gotFirst != wantFirst || gotOK != wantOK {
		t.Errorf("FirstIn(%q) in %q = %q, %v; FirstOf gives %q, %v", list, s, gotFirst, gotOK, wantFirst, wantOK)
	}
	if got, want := tx.AllIn(p), tx.AllOf(list); !slices.Equal(got, want) {
		t.Errorf("AllIn(%q) in %q = %q; AllOf gives %q", list, s, got, want)
	}
	m := tx.Matched(p)
	for i, phrase := range list {
		if m[i] != tx.Has(phrase) {
			t.Errorf("Matched(%q) in %q says %v for %q; Has says %v", list, s, m[i], phrase, !m[i])
		}
	}
}

// TestWithinSentences: a Text from WithinSentences finds a phrase of
// several words only within one sentence, a line broken in the middle
// of one being one still; a plain Text finds it across.
func TestWithinSentences(t *testing.T) {
	p := NewPhrases([]string{"do not use", "only use", "up to", "use"})
	for _, c := range []struct {
		text     string
		phrase   string
		within   bool // WithinSentences finds phrase
		contexts int  // its Contexts
	}{
		{"Do not. Use this when you need one.", "do not use", false, 0},
		{"Do not use this. Do not. Use that.", "do not use", true, 1},
		{"For groups only. Use this for many.", "only use", false, 0},
		{"Wake the device up. To start it, pass an id.", "up to", false, 0},
		{"Wake the device up! To start it, pass an id.", "up to", false, 0},
		{"Wake the device up\nTo start it, pass an id.", "up to", false, 0},
		{"List the logs, up to 50 at a time.", "up to", true, 1},
		{"Do not\nuse this for lists.", "do not use", true, 1},
		{"Wake it up,\nto start it.", "up to", true, 1},
		{"Read. Use it.", "use", true, 1},
	} {
		text := c.text
		plain, bounded := NewText(text), NewText(text).WithinSentences()
		if !plain.Has(c.phrase) {
			t.Errorf("NewText(%q) does not have %q", text, c.phrase)
		}
		if got := bounded.Has(c.phrase); got != c.within {
			t.Errorf("WithinSentences of %q: Has(%q) = %v, want %v", text, c.phrase, got, c.within)
		}
		if got := len(bounded.Contexts(c.phrase)); got != c.contexts {
			t.Errorf("WithinSentences of %q: %d contexts of %q, want %d", text, got, c.phrase, c.contexts)
		}
		if got := bounded.HasUnnegated(c.phrase); got != c.within && !strings.HasPrefix(c.phrase, "do not") {
			t.Errorf("WithinSentences of %q: HasUnnegated(%q) = %v, want %v", text, c.phrase, got, c.within)
		}
		found := slices.Contains(bounded.AllIn(p), c.phrase)
		if found != c.within {
			t.Errorf("WithinSentences of %q: AllIn finds %q: %v, want %v", text, c.phrase, found, c.within)
		}
	}
}

// TestPhrasesCases pins what a compiled list finds.
func TestPhrasesCases(t *testing.T) {
	p := NewPhrases([]string{"do not use", "auth*", "rate limit*", "use"})
	for _, c := range []struct {
		text  string
		first string
		all   []string
	}{
		{"Do not use this; use that.", "do not use", []string{"do not use", "use"}},
		{"Requires authentication.", "auth", []string{"auth"}},
		{"Rate-limited to 10 calls.", "rate limit", []string{"rate limit"}},
		{"An author's reuse", "auth", []string{"auth"}},
		{"Nothing here", "", nil},
	} {
		tx := NewText(c.text)
		if first, _ := tx.FirstIn(p); first != c.first {
			t.Errorf("FirstIn in %q = %q, want %q", c.text, first, c.first)
		}
		if all := tx.AllIn(p); !slices.Equal(all, c.all) {
			t.Errorf("AllIn in %q = %q, want %q", c.text, all, c.all)
		}
	}
}

// TestNewSentence: a sentence prepared alone is the Text NewText makes
// of it, less its sentences.
func TestNewSentence(t *testing.T) {
	for _, s := range corpusStrings(t) {
		want := NewText(s)
		want.Sentences, want.sentenceAt = nil, nil
		if got := NewSentence(s); !reflect.DeepEqual(got, want) {
			t.Errorf("NewSentence(%q) = %#v, want %#v", s, got, want)
		}
	}
}

// TestSentenceAgreesWithNewSentence: a sentence cut out of its text's
// words is the Text NewSentence makes of it, for every string of the
// corpus and the texts at the edges (sentences with no words, ideographs,
// a "·" written ".", bytes that are not UTF-8); and the text's words,
// read sentence by sentence, are the words of the whole, which
// JoinedWords gives joined; SentenceHas finds a phrase where the
// sentence's Has does.
func TestSentenceAgreesWithNewSentence(t *testing.T) {
	texts := append(corpusStrings(t), "One. . Two", "!!! a", "a\n\n\nb", "x。y", "'. '", "A·B· c", "é. É", "\xff\xfe. \xfd",
		"Same. Same. SAME! same", "  Lead.   Trail  ", "A.\n\nA. a. e.g. A", "Use x.Then y. Then Z")
	for _, s := range texts {
		tx := NewText(s)
		if got, want := tx.Words, Words(tx.Raw); !slices.Equal(got, want) {
			t.Errorf("NewText(%q).Words = %q, want %q", s, got, want)
		}
		if got, want := tx.JoinedWords(), strings.Join(tx.Words, " "); got != want {
			t.Errorf("NewText(%q).JoinedWords() = %q, want %q", s, got, want)
		}
		for k, sentence := range tx.Sentences {
			if got, want := tx.Sentence(k), NewSentence(sentence); !reflect.DeepEqual(got, want) {
				t.Errorf("NewText(%q).Sentence(%d) = %#v, want %#v", s, k, got, want)
			}
			for _, p := range []string{"list of", "json", "a", "same", "auth*"} {
				if got, want := tx.SentenceHas(k, p), tx.Sentence(k).Has(p); got != want {
					t.Errorf("NewText(%q).SentenceHas(%d, %q) = %v, want %v", s, k, p, got, want)
				}
			}
		}
	}
}

// TestMatching: an explanation quotes what the text says, so a stem is
// given back as the word of the text it started.
func TestMatching(t *testing.T) {
	for _, tc := range []struct{ text, phrase, want string }{
		{"Both must be within allowed directories.", "allowed director*", "allowed directories"},
		{"Needs auth.", "auth*", "auth"},
		{"Shows the authorship of each line.", "auth*", "authorship"},
		{"Returns the list of files.", "list of", "list of"},
		{"Returns files.", "list of", ""},
		{"Reads a file.", "auth*", ""},
		{"Conflict (e.g. row limit exceeded).", "e g", "e.g."},
		// The words drop apostrophes; a quote keeps them (notion
		// API-get-self).
		{"Retrieve your token's bot user", "tokens", "token's"},
		{"Retrieve your token’s bot user", "tokens", "token’s"},
		{"It doesn't change the file.", "doesnt change", "doesn't change"},
		{"Don't call it twice; the tokens expire.", "tokens", "tokens"},
		{"Shows the user's authorship.", "auth*", "authorship"},
	} {
		if got := NewText(tc.text).Matching(tc.phrase); got != tc.want {
			t.Errorf("NewText(%q).Matching(%q) = %q, want %q", tc.text, tc.phrase, got, tc.want)
		}
	}
}

// TestGoesOn: a sentence that a line break cut in the middle goes on
// with the one before it; a new sentence, or the first, does not.
func TestGoesOn(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []bool // GoesOn of each sentence, and of one past the last
	}{
		{"Resizes the window\nso that it fits", []bool{false, true, false}},
		{"Opens a session.\nSo that it is ready, call it.", []bool{false, false, false}},
		{"Lists items,\nthen counts them.\nDone", []bool{false, true, false, false}},
		{"One line", []bool{false, false}},
	} {
		d := NewText(tc.text)
		if len(d.Sentences)+1 != len(tc.want) {
			t.Fatalf("%q: %d sentences %q, the row has %d", tc.text, len(d.Sentences), d.Sentences, len(tc.want)-1)
		}
		for k, want := range tc.want {
			if got := d.GoesOn(k); got != want {
				t.Errorf("%q: GoesOn(%d) = %v, want %v (sentences %q)", tc.text, k, got, want, d.Sentences)
			}
		}
	}
}
