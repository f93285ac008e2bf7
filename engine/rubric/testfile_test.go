package rubric

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestFileRefused: a file of test blocks alone, given where a rubric
// is wanted, is refused as the tests of the rubric beside it (NAME.hcl
// beside NAME_test.hcl), or of none; a file with anything else beside
// its tests is read as a rubric and told what is wrong.
func TestTestFileRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string { return writeUnder(t, dir, name, src) }
	const tests = "# tests\ntest \"a\" {\n  surface = \"[]\"\n  expect  = { score = 1 }\n}\n"
	write("mine.hcl", "rubric \"mine\" {}\n")
	cases := []struct {
		name, file, src string
		rubric          string // the rubric the error names; "-" for no TestFileError
	}{
		{"beside its rubric", "mine_test.hcl", tests, filepath.Join(dir, "mine.hcl")},
		{"no rubric beside", "other_test.hcl", tests, ""},
		{"not named _test", "loose.hcl", tests, ""},
		{"an attribute too", "attr_test.hcl", "x = 1\n" + tests, "-"},
		{"empty", "empty_test.hcl", "", "-"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadFile(write(c.file, c.src))
			var tf *TestFileError
			if c.rubric == "-" {
				if errors.As(err, &tf) || err == nil {
					t.Fatalf("err = %v, want a rubric's diagnostics", err)
				}
				return
			}
			if !errors.As(err, &tf) || tf.Rubric != c.rubric {
				t.Fatalf("err = %v, want the tests of %q", err, c.rubric)
			}
			if !strings.HasPrefix(err.Error(), filepath.Join(dir, c.file)+" holds ") {
				t.Errorf("the message does not start with the file: %v", err)
			}
		})
	}
}

// TestSiblingTestNames: a test of NAME_test.hcl of the name of one of
// the rubric's own is refused at its label, as two of one name in one
// file are: rubric test would print two lines no one can tell apart.
func TestSiblingTestNames(t *testing.T) {
	dir := t.TempDir()
	const rubric = `rubric "mine" {
  version = "1"
  check "a" {
    points = 1
    pass   = "true"
    issue  = "x"
  }
  tool    { score = "sum(checks.map(c, c.points * c.credit))" }
  surface { score = "mean(tools.map(t, t.score))" }
  grades  = { A = 1, F = 0 }
  test "one" {
    surface = "[]"
    expect  = { score = 1 }
  }
}
`
	const tests = "test \"two\" {\n  surface = \"[]\"\n  expect  = { score = 1 }\n}\ntest \"one\" {\n  surface = \"[]\"\n  expect  = { score = 1 }\n}\n"
	for name, src := range map[string]string{"mine.hcl": rubric, "mine_test.hcl": tests} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := LoadFile(filepath.Join(dir, "mine.hcl"))
	want := filepath.Join(dir, "mine_test.hcl") + `:5:6: test "one" is declared twice: here and at ` + filepath.Join(dir, "mine.hcl") + ":11; name one otherwise"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}
