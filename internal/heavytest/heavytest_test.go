package heavytest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLater: with the variable set, a heavy test is skipped; without it
// (and without -short), it runs.
func TestLater(t *testing.T) {
	for _, c := range []struct {
		env  string
		runs bool
	}{{"later", false}, {"", !testing.Short()}, {"now", !testing.Short()}} {
		t.Setenv(Env, c.env)
		ran := false
		t.Run("heavy", func(t *testing.T) {
			Later(t)
			ran = true
		})
		if ran != c.runs {
			t.Errorf("%s=%q: ran %v, want %v", Env, c.env, ran, c.runs)
		}
	}
}

// TestMakefileRunsEveryHeavyTest: every test that calls Later is named in
// the Makefile's HEAVY_TESTS and lives in one of its HEAVY_PACKAGES, so
// that make test, whose race pass skips them, runs each in its second
// pass.
func TestMakefileRunsEveryHeavyTest(t *testing.T) {
	root := filepath.Join("..", "..")
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	listed := makeList(mk, "HEAVY_TESTS")
	dirs := makeList(mk, "HEAVY_PACKAGES")
	if len(listed) == 0 || len(dirs) == 0 {
		t.Fatal("the Makefile sets no HEAVY_TESTS or HEAVY_PACKAGES (NAME = words, continued with a backslash)")
	}
	call := regexp.MustCompile(`func (Test\w+)\(t \*testing\.T\) \{\n\theavytest\.Later\(t\)`)
	found := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, m := range call.FindAllSubmatch(b, -1) {
			found++
			name := string(m[1])
			if !slices.Contains(listed, name) {
				t.Errorf("%s calls heavytest.Later, but the Makefile's HEAVY_TESTS does not name it", name)
			}
			if !slices.Contains(dirs, "./"+filepath.ToSlash(rel)) {
				t.Errorf("%s (in %s) calls heavytest.Later, but its package is not in HEAVY_PACKAGES", name, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Error("no test calls heavytest.Later: the Makefile's second pass would run nothing heavy")
	}
}

// makeList returns the words a Makefile assigns to name with "name = ",
// following lines continued with a backslash.
func makeList(mk []byte, name string) []string {
	m := regexp.MustCompile(`(?m)^` + name + ` = ((?:.*\\\n)*.*)$`).FindSubmatch(mk)
	if m == nil {
		return nil
	}
	return strings.Fields(strings.ReplaceAll(string(m[1]), "\\\n", " "))
}

func TestMakeList(t *testing.T) {
	mk := []byte("A = x\nB = \\\n\tone \\\n\ttwo\n\tnot-this\nC = \n")
	for _, c := range []struct {
		name string
		want []string
	}{{"A", []string{"x"}}, {"B", []string{"one", "two"}}, {"C", nil}, {"D", nil}} {
		if got := makeList(mk, c.name); !slices.Equal(got, c.want) {
			t.Errorf("makeList(%s) = %q, want %q", c.name, got, c.want)
		}
	}
}
