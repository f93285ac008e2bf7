package lex

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestContextsAgreeWithFields: Contexts and HasUnnegated, which cut the
// words around a phrase out of the text's own, give what splitting the
// text before and after it gives (contextsByFields, hasUnnegatedByFields),
// for every string of the corpus, its sentences and phrases of its own
// words: one, two, and the start of one with "*".
func TestContextsAgreeWithFields(t *testing.T) {
	heavytest.Later(t)
	for _, s := range corpusStrings(t) {
		texts := []Text{NewText(s), NewSentence(s)}
		tx := texts[0]
		for k := range tx.Sentences {
			texts = append(texts, tx.Sentence(k))
		}
		// Phrases of the first words: each is looked for in every text.
		var phrases []string
		for i, w := range tx.Words[:min(len(tx.Words), 24)] {
			phrases = append(phrases, w)
			if i+1 < len(tx.Words) {
				phrases = append(phrases, w+" "+tx.Words[i+1])
			}
			if len(w) > 2 {
				phrases = append(phrases, w[:2]+"*")
			}
		}
		phrases = append(phrases, "not", "never delete*", "only")
		for _, text := range texts {
			for _, p := range phrases {
				if got, want := text.Contexts(p), contextsByFields(text, p); !reflect.DeepEqual(got, want) {
					t.Errorf("%.40q: Contexts(%q) = %q, want %q", text.Raw, p, got, want)
				}
				if got, want := text.HasUnnegated(p), hasUnnegatedByFields(text, p); got != want {
					t.Errorf("%.40q: HasUnnegated(%q) = %v, want %v", text.Raw, p, got, want)
				}
			}
		}
	}
}

// contextsByFields is Contexts splitting the text around each occurrence.
func contextsByFields(t Text, phrase string) []Context {
	var out []Context
	for base := 0; ; {
		i := findPhrase(t.norm[base:], phrase)
		if i < 0 {
			return out
		}
		at := base + i
		before := strings.Fields(t.norm[:at])
		n := len(strings.Fields(strings.TrimSuffix(phrase, "*")))
		after := strings.Fields(t.norm[at:])
		if len(after) >= n {
			after = after[n:]
		}
		out = append(out, Context{Before: before[max(0, len(before)-3):], After: after[:min(3, len(after))]})
		base = at + 1
	}
}

// hasUnnegatedByFields is HasUnnegated splitting the text before each
// occurrence.
func hasUnnegatedByFields(t Text, phrase string) bool {
	for base := 0; ; {
		i := findPhrase(t.norm[base:], phrase)
		if i < 0 {
			return false
		}
		at := base + i
		if !negatedBy(strings.Fields(t.norm[:at])) {
			return true
		}
		base = at + 1
	}
}
