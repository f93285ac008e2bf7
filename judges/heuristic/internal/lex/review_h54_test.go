package lex

import "testing"

// TestReviewFunctionWordInProse: usedAsName takes a function word before
// a word for a parameter, or before "is", "are" or a modal, for a
// parameter's name, "where the word in its own sense never stands"; but
// "all" stands there in prose as a quantifier ("All parameters are
// optional", "all fields of each message", "then all is done"), and the
// parameter called all is then said to be named.
func TestReviewFunctionWordInProse(t *testing.T) {
	for _, c := range []struct {
		text, name string
	}{
		{"Returns console messages. All parameters are optional.", "all"},
		{"Returns console messages; all fields of each message are included.", "all"},
		{"Filter the messages by level, then all is done.", "all"},
		{"Lists the entries; all can be filtered by date.", "all"},
	} {
		if Mentions(NewText(c.text), c.name, NameWords(c.name)) {
			t.Errorf("Mentions(%q, %q) = true: the word is the quantifier, not the parameter", c.text, c.name)
		}
	}
}
