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
