// Package words holds the few English helpers that messages across rubric
// share: a count with its noun, a word chosen by a count, and a list cut
// short. It imports nothing of rubric's, so any package may use it.
package words

import (
	"strconv"
	"strings"
)

// Count writes n with its noun, adding an s unless n is 1: "1 tool",
// "3 tools".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// Pick returns one when n is 1, else many: Pick(n, "is", "are").
func Pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// List joins the first most of items with commas and says how many more
// there are: "a, b and 3 more".
func List(items []string, most int) string {
	if len(items) <= most {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:most], ", ") + " and " + strconv.Itoa(len(items)-most) + " more"
}
