package readmetest

import (
	"strings"
	"testing"
)

// TestCut: a section runs from its heading to the next second-level
// heading (a third-level one stays inside it), or to the end.
func TestCut(t *testing.T) {
	doc := "# Title\n\n## One\nfirst\n### Inner\nstill one\n## Two\nsecond\n"
	if got := cut(t, doc, "## One"); got != "first\n### Inner\nstill one" {
		t.Errorf("section One = %q", got)
	}
	if got := cut(t, doc, "## Two"); got != "second\n" {
		t.Errorf("section Two = %q", got)
	}
}

// TestTextIsTheModulesReadme: read from this package's directory, Text
// is the README.md at the module's root, not a README of its own.
func TestTextIsTheModulesReadme(t *testing.T) {
	if !strings.Contains(Section(t, "## How it is built"), "`internal/readmetest`") {
		t.Error("README.md's tour does not name internal/readmetest")
	}
}
