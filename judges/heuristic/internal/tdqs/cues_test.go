package tdqs

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// TestPhraseListsAgree: every list the cues read through a lex.Phrases
// finds, in every corpus description and in each of its sentences, what
// looking for its phrases one by one finds; the lists read in a whole
// description alone (descLists), read through their joined list, find
// what FirstOf and AllOf find; and the behaviour groups' combined list,
// and the description lists' joined one, say of each group's or list's
// phrases what Has says.
func TestPhraseListsAgree(t *testing.T) {
	compiled := []struct {
		name   string
		list   []string
		phrase *lex.Phrases
	}{
		{"usageAlternative", lists.usageAlternative, usageAlternativePhrases},
		{"pointers", lists.pointers, pointerPhrases},
		{"paramFormat", lists.paramFormat, paramFormatPhrases},
		{"notFrontLoaded", lists.notFrontLoaded, notFrontLoadedPhrases},
	}
	var texts []lex.Text
	for _, ct := range corpusTools(t) {
		if ct.Description == nil {
			continue
		}
		d := lex.NewText(*ct.Description)
		texts = append(texts, d)
		for _, s := range d.Sentences {
			texts = append(texts, lex.NewText(s))
		}
	}
	if len(texts) < 100 {
		t.Fatalf("only %d corpus texts", len(texts))
	}
	fired := 0
	for _, d := range texts {
		for _, c := range compiled {
			got, gotOK := d.FirstIn(c.phrase)
			want, wantOK := d.FirstOf(c.list)
			if got != want || gotOK != wantOK {
				t.Errorf("%s in %q: FirstIn = %q, %v; FirstOf = %q, %v", c.name, d.Raw, got, gotOK, want, wantOK)
			}
			if gotOK {
				fired++
			}
			if got, want := d.AllIn(c.phrase), d.AllOf(c.list); !slices.Equal(got, want) {
				t.Errorf("%s in %q: AllIn = %q; AllOf = %q", c.name, d.Raw, got, want)
			}
		}
		joined := d.Matched(descPhrases)
		f := &facts{desc: d}
		for l, list := range descLists {
			for k, p := range list {
				if joined[descStart[l]+k] != d.Has(p) {
					t.Errorf("description list %d's %q in %q: Matched says %v, Has %v", l, p, d.Raw, !d.Has(p), d.Has(p))
				}
			}
			got, gotOK := f.descFirstIn(descList(l))
			if want, wantOK := d.FirstOf(list); got != want || gotOK != wantOK {
				t.Errorf("description list %d in %q: descFirstIn = %q, %v; FirstOf = %q, %v", l, d.Raw, got, gotOK, want, wantOK)
			}
			if got, want := f.descAllIn(descList(l)), d.AllOf(list); !slices.Equal(got, want) {
				t.Errorf("description list %d in %q: descAllIn = %q; AllOf = %q", l, d.Raw, got, want)
			}
		}
		has := d.Matched(behaviourPhrases)
		for g, cg := range lists.behaviour {
			for k, p := range cg.phrases {
				if has[behaviourStart[g]+k] != d.Has(p) {
					t.Errorf("behaviour %q in %q: Matched says %v, Has %v", p, d.Raw, !d.Has(p), d.Has(p))
				}
			}
		}
	}
	if fired == 0 {
		t.Error("no list found a phrase in any corpus text")
	}
}

// TestShortcutsAgree: the cues' shortcuts give what they replace:
// found.String what fmt's "%s (%q)" gives, for every phrase of the
// behaviour groups and strings that need escapes; contentCount the
// length of lex.ContentWords, for every corpus description.
func TestShortcutsAgree(t *testing.T) {
	phrases := []string{"", `say "hi"`, "back\\slash", "tab\tnew\nline", "\x00\x7f", "é ünï 日本", "bad \xff byte", "\u2028"}
	for _, g := range lists.behaviour {
		phrases = append(phrases, g.phrases...)
	}
	for _, p := range phrases {
		f := found{"errors", p}
		if got, want := f.String(), fmt.Sprintf("%s (%q)", f.cue, f.phrase); got != want {
			t.Errorf("found%v.String() = %q, want %q", f, got, want)
		}
	}
	for _, ct := range corpusTools(t) {
		if ct.Description == nil {
			continue
		}
		ws := lex.NewText(*ct.Description).Words
		if got, want := contentCount(ws), len(lex.ContentWords(ws)); got != want {
			t.Errorf("contentCount in %q = %d, want %d", *ct.Description, got, want)
		}
	}
}

// TestCautionHeadingLineByLine: hasCautionHeading finds a "WARNING:"
// heading where the expression run over the whole text finds one, and
// none where it finds none: on a later line, after markdown or an emoji,
// in bold, in any case, after a carriage return, and not where the word
// is prose or the colon is on the next line.
func TestCautionHeadingLineByLine(t *testing.T) {
	for _, s := range []string{
		"WARNING: Should be used in a separate chat",
		"Reads a file.\n\n**Warning**: overwrites it\nmore",
		"Reads a file.\r\n⚠️ warning : slow",
		"Lists files.\n- WaRnInG:: odd case",
		"Prints a warning: when the file is missing",
		"Lists files.\nA warning is printed: when missing",
		"Lists files.\nWARNING\n: colon on the next line",
		"warnings: plural is no heading",
		"no such word at all",
		"",
	} {
		if got, want := hasCautionHeading(s), cautionHeading.MatchString(s); got != want {
			t.Errorf("hasCautionHeading(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestMayCapCallsKeepsEveryCap: every sentence callCap matches, of the
// corpus descriptions and of caps written in each of its ways (in
// capitals, with a letter beyond ASCII that it takes for an s),
// has a word mayCapCalls looks for, so that callFigure skips the
// expression only where it would match nothing. (Of the letters of
// those words only s folds beyond ASCII, to the long s.)
func TestMayCapCallsKeepsEveryCap(t *testing.T) {
	sentences := []string{
		"Do not call this tool more than 3 times in a row",
		"Calling it at most 2 times per session is enough",
		"Never make more than 5 requests",
		"MAXIMUM OF 10 CALLS",
		"Allows 60 requests per minute",
		"Limited to 10 calls per day",
		"a quota of 5 queries an hour",
		"capped at 100 requests each hour",
		"max 20 calls a second",
		"Call it at moſt 3 times",
		"Allows 60 requeſts per minute",
	}
	for _, tools := range surfacetest.CorpusTools(t) {
		for _, tool := range tools {
			d, _ := tool["description"].(string)
			sentences = append(sentences, lex.Sentences(d)...)
		}
	}
	matched := 0
	for _, s := range sentences {
		if !callCap.MatchString(s) {
			continue
		}
		matched++
		if !mayCapCalls(s, lex.Lower(s)) {
			t.Errorf("callCap matches %q, but mayCapCalls skips it", s)
		}
	}
	if matched < 11 {
		t.Errorf("callCap matched only %d sentences", matched)
	}
}

// TestWithoutQuoted: each span between double quotes, its quotes with
// it, is left out for a space; a text with a quote never closed is read
// whole, and one with no quote is itself.
func TestWithoutQuoted(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{`say "hi" now`, "say   now"},
		{`{"message": "add login auth"}`, "{ :  }"},
		{`""`, " "},
		{`a "b" c "d`, `a "b" c "d`},
		{`"x"y"z"`, " y "},
		{`ends "quoted"`, "ends  "},
		{"", ""},
	} {
		if got := withoutQuoted(c.in); got != c.want {
			t.Errorf("withoutQuoted(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
