// Package readmetest reads the repository's README.md for the tests that
// hold its claims (commands, flags, packages, figures) to the code, so
// that each finds the file and its sections the same way.
package readmetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Text is README.md at the module's root: the nearest directory above
// the test's working directory (its package's) that holds go.mod.
func Text(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			b, err := os.ReadFile(filepath.Join(dir, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory, so no README.md to read")
		}
		dir = up
	}
}

// Section is the part of README.md under heading (a whole line such as
// "## Reports"), up to the next heading of the second level; the test
// fails when README.md has no such heading.
func Section(t testing.TB, heading string) string {
	t.Helper()
	return cut(t, Text(t), heading)
}

func cut(t testing.TB, readme, heading string) string {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no %q section", heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	return section
}
