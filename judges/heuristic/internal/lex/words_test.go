package lex

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// wordsReference is Words as it was written first, a builder per word:
// the reference the one-buffer Words must agree with.
func wordsReference(s string) []string {
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

// stringsIn collects every string of a decoded JSON value.
func stringsIn(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case []any:
		for _, e := range x {
			stringsIn(e, out)
		}
	case map[string]any:
		for k, e := range x {
			*out = append(*out, k)
			stringsIn(e, out)
		}
	}
}

// TestWordsAgreesWithReference: Words splits every string of the corpus
// (names, descriptions, schemas) and texts at the edges (apostrophes,
// ideographs, letters past ASCII that change length when lowered, bytes
// that are not UTF-8) into the words the reference gives.
func TestWordsAgreesWithReference(t *testing.T) {
	texts := corpusStrings(t)
	for _, s := range texts {
		if got, want := Words(s), wordsReference(s); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, want %q", s, got, want)
		}
		// The text phrases are matched in is the words joined, a space
		// around each.
		if got, want := NewText(s).norm, " "+strings.Join(wordsReference(s), " ")+" "; got != want {
			t.Errorf("NewText(%q).norm = %q, want %q", s, got, want)
		}
	}
}

// TestNameWordsAgreesWithRunes: NameWords reads every string of the
// corpus and identifiers at the edges (runs of capitals, version words,
// digits first, separators doubled, letters past ASCII) into the words
// nameWordsRunes reads.
func TestNameWordsAgreesWithRunes(t *testing.T) {
	texts := append(corpusStrings(t), "", "_", "__a__", "HTMLParser", "getHTTPResponse", "processV2", "v2", "V2x",
		"list2", "list2go", "a_b-c.d e", "ABC", "AbC", "aB", "x", "9lives", "v", "V", "vV2", "Vv2", "API-get-users_17",
		"notion.fetch", "ÜberTool", "getÜber", "ends_with_", "mixed9Case9X", "XMLHttpRequest2", "a1b2", "A1B2c")
	for _, s := range texts {
		if got, want := NameWords(s), nameWordsRunes(s); !slices.Equal(got, want) {
			t.Errorf("NameWords(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestStemIs: stemIs is Stem(x) == w, for words in each of Stem's forms
// against their stems, the words themselves and near misses.
func TestStemIs(t *testing.T) {
	words := []string{"entries", "entry", "ies", "dies", "pies", "queries", "query", "querie", "queriy",
		"searches", "search", "lists", "list", "class", "status", "axis", "boxes", "box", "a", "y", "entrys"}
	for _, x := range words {
		for _, w := range append(words, Stem(x), "") {
			if got, want := stemIs(x, w), Stem(x) == w; got != want {
				t.Errorf("stemIs(%q, %q) = %v, want %v", x, w, got, want)
			}
		}
	}
}

// TestSnakeNameWords: the words of a snake_case name with a lower-case
// letter are marked, lined up with Text.Words, and no others; a text
// with none gives nil (colormeshop createCoupon's group_limit_type,
// desktop-commander's timeout_ms).
func TestSnakeNameWords(t *testing.T) {
	cases := []struct {
		text   string
		marked []string // the marked words, in order
	}{
		{"Optional fields: group_limit_type, group_ids.", []string{"group", "limit", "type", "group", "ids"}},
		{"Set timeout_ms; it's the limit.", []string{"timeout", "ms"}},
		{"Needs GITHUB_TOKEN and a limit.", nil},
		{"No name here, only a limit.", nil},
		{"任意項目: total_usage_limit 等", []string{"total", "usage", "limit"}},
		{"Le café_noir don’t_stop _lead trail_ x__y", []string{"café", "noir", "dont", "stop", "x", "y"}},
		{"Persist contract_review.json. Then e.g. stop.", []string{"contract", "review", "json"}},
		{"Write plan.json and stop.", nil},
	}
	for _, c := range cases {
		tx := NewText(c.text)
		mask := tx.SnakeNameWords(nil)
		if c.marked == nil {
			if mask != nil {
				t.Errorf("%q: marked %v, want none", c.text, mask)
			}
			continue
		}
		if len(mask) != len(tx.Words) {
			t.Fatalf("%q: a mask of %d for %d words", c.text, len(mask), len(tx.Words))
		}
		var got []string
		for i, m := range mask {
			if m {
				got = append(got, tx.Words[i])
			}
		}
		if !slices.Equal(got, c.marked) {
			t.Errorf("%q: marked %q, want %q", c.text, got, c.marked)
		}
	}
}

// TestSnakeNameWordsSaid: a name said reports is left unmarked, the
// others of the text still marked, and said sees each name's words.
func TestSnakeNameWordsSaid(t *testing.T) {
	tx := NewText("Pass access_token and page_size, then stop.")
	var seen [][]string
	mask := tx.SnakeNameWords(func(name []string) bool {
		seen = append(seen, slices.Clone(name))
		return name[0] == "access"
	})
	var got []string
	for i, m := range mask {
		if m {
			got = append(got, tx.Words[i])
		}
	}
	if !slices.Equal(got, []string{"page", "size"}) {
		t.Errorf("marked %q, want page_size's words only", got)
	}
	if len(seen) != 2 || !slices.Equal(seen[0], []string{"access", "token"}) || !slices.Equal(seen[1], []string{"page", "size"}) {
		t.Errorf("said saw %q, want each name's words", seen)
	}
}

// TestMatchedOutside: a phrase found only among the words a mask marks,
// or across one of them, is not found; the others are as Matched finds
// them.
func TestMatchedOutside(t *testing.T) {
	p := NewPhrases([]string{"rate limit", "limit", "type", "dry run"})
	cases := []struct {
		text string
		want []bool
	}{
		{"Set group_limit_type, or mind the rate limit.", []bool{true, true, false, false}},
		{"Set rate_limit and dry_run.", []bool{false, false, false, false}},
		{"A dry run of the rate limit.", []bool{true, true, false, true}},
	}
	for _, c := range cases {
		tx := NewText(c.text)
		if got := tx.MatchedOutside(p, tx.SnakeNameWords(nil)); !slices.Equal(got, c.want) {
			t.Errorf("%q: found %v, want %v", c.text, got, c.want)
		}
	}
}

// TestQuote: a quote is the text's fields joined by single spaces, cut
// after n runes back to a word's end, its trailing marks dropped and an
// ellipsis added when cut; a byte that is not UTF-8 is quoted as U+FFFD,
// as a rune slice has it, whether the text is cut or not.
func TestQuote(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 10, ""},
		{"Short text.", 60, "Short text."},
		{"  Spaced   out\ttext\n here ", 60, "Spaced out text here"},
		{"Returns the page elements along with a unique identifier for each one of them.", 40, "Returns the page elements along with a…"},
		{"Crée une page à partir d’un modèle déjà existant dans l’espace de travail.", 30, "Crée une page à partir d’un…"},
		{"Bad \xff bytes \xfe in a text that runs on past the limit of the quote", 20, "Bad \ufffd bytes \ufffd in a…"},
		{"Ends,;:. right at the cut point here, after", 8, "Ends…"},
		{"\u00a0Non-breaking\u00a0spaces and \u2028 separators", 12, "Non-breaking…"},
		{"日本語のテキストは単語の間に空白がありません。", 10, "日本語のテキストは単…"},
		{"Exactly ten", 11, "Exactly ten"},
	} {
		if got := Quote(c.s, c.n); got != c.want {
			t.Errorf("Quote(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

// TestLowerIsStringsToLower: Lower writes what strings.ToLower writes,
// for ASCII texts and texts beyond it: capitals whose lower case is
// ASCII (the Kelvin sign, a dotted capital I) or longer or shorter in
// UTF-8, bytes that are not UTF-8 (written U+FFFD) and U+FFFD itself.
func TestLowerIsStringsToLower(t *testing.T) {
	for _, s := range []string{
		"", "plain lower text", "Mixed CASE Text, 42 Times!",
		"Crée une PAGE — «Éditer» l’ÉTAT", "\u212a KELVIN and \u0130stanbul",
		"ȺȾ grow: \u023a\u023e", "bad \xff\xfe BYTES \xc3", "real \ufffd REPLACEMENT",
		"日本語 ＡＢＣ ΣΊΣΥΦΟΣ",
	} {
		if got, want := Lower(s), strings.ToLower(s); got != want {
			t.Errorf("Lower(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzLowerIsStringsToLower: Lower writes what strings.ToLower writes
// for any text, UTF-8 or not (go test -fuzz FuzzLowerIsStringsToLower
// ./judges/heuristic/internal/lex; the seeds run with the tests).
func FuzzLowerIsStringsToLower(f *testing.F) {
	for _, s := range []string{"", "ABC", "Crée — «Éditer»", "\u212a\u0130", "\u023a\u023e", "bad \xff\xc3", "\ufffd", "ΣΊΣΥΦΟΣ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Lower(s), strings.ToLower(s); got != want {
			t.Fatalf("Lower(%q) = %q, want %q", s, got, want)
		}
	})
}
