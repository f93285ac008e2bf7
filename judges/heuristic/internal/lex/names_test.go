package lex

import "testing"

// TestToolNameIn: a tool name that is one plain word is a name only
// where it is written as one; any other name is found as IdentifierIn
// finds it.
func TestToolNameIn(t *testing.T) {
	cases := []struct {
		text, id string
		want     bool
	}{
		{"use this to find a connection id.", "find", false},
		{"use `find` to search the records.", "find", true},
		{"call \"find\" first.", "find", true},
		{"see find() for queries.", "find", true},
		{"the find tool runs a query.", "find", true},
		{"the find tools run queries.", "find", true},
		{"the find toolbox is elsewhere.", "find", false},
		{"finder and refind are other words.", "find", false},
		{"use search-knowledge to look things up.", "search-knowledge", true},
		{"use get_user instead.", "get_user", true},
		{"use getuser2 instead.", "getUser2", true},
	}
	for _, c := range cases {
		if got := ToolNameIn(c.text, c.id); got != c.want {
			t.Errorf("ToolNameIn(%q, %q) = %v, want %v", c.text, c.id, got, c.want)
		}
	}
}

// TestMentionsFunctionWord: a parameter named by a function word
// (playwright browser_console_messages's `all`) is named only where
// written or used as a name: quoted, back-ticked, set with "=" or ":",
// typed, before a word for a parameter, or the subject of "is", "are"
// or a modal. In prose the word is the word ("Returns all console
// messages"); a word for a tool, and any other one-word name, is found
// in prose as before.
func TestMentionsFunctionWord(t *testing.T) {
	cases := []struct {
		text, name string
		want       bool
	}{
		{"Returns all console messages", "all", false},
		{"Copy the file from one folder to another.", "to", false},
		{"Set `all` to true to return every message.", "all", true},
		{"Pass \"all\" for the messages of the whole session.", "all", true},
		{"With all=true, messages since the session began.", "all", true},
		{"all: messages since the session began.", "all", true},
		{"Returns the console messages of a level.", "level", true},
		{"Sanity-check a tool definition for mistakes.", "tool", true},
		{"Rename a bookmark; the to parameter is the new title.", "to", true},
		{"List calls between two dates; from and to are ISO dates.", "from", true},
		{"List calls between two dates; from and to are ISO dates.", "to", true},
		{"Rename a file. Requires to (string).", "to", true},
		{"Move it to another folder, then all is done.", "to", false},
		{"Returns the console messages of the given levels.", "level", true},
		// A quantifier before a plural noun or as the subject of "is",
		// "are" or a modal is the word, not the parameter (review of
		// 1.5.2); set, typed or before a singular word for a parameter,
		// it is the name.
		{"Returns console messages. All parameters are optional.", "all", false},
		{"Returns console messages; all fields of each message are included.", "all", false},
		{"Filter the messages by level, then all is done.", "all", false},
		{"Lists the entries; all can be filtered by date.", "all", false},
		{"Returns console messages. Set the all flag for every level.", "all", true},
		{"Returns console messages. all (boolean): every level.", "all", true},
		{"Returns all fields of the form.", "all", false},
		{"Lists all options and their defaults.", "all", false},
		{"Use this to flag spam messages.", "to", false},
		{"Text to input into the box.", "to", false},
		{"Set the all flag to include archived rows.", "all", true},
		{"The from and to fields are ISO dates.", "to", true},
		{"The from and to fields are ISO dates.", "from", true},
		{"Rename a bookmark; the to option is the new title.", "to", true},
	}
	for _, c := range cases {
		if got := Mentions(NewText(c.text), c.name, NameWords(c.name)); got != c.want {
			t.Errorf("Mentions(%q, %q) = %v, want %v", c.text, c.name, got, c.want)
		}
	}
}
