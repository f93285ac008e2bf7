package heavytest

import (
	"go/ast"
	"go/parser"
	"go/token"
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

// TestMakefileRunsEveryHeavyTest: every test that calls Later, as its
// first statement or anywhere below it (in a subtest's function, say),
// is named in the Makefile's HEAVY_TESTS and lives in one of its
// HEAVY_PACKAGES, so that make test, whose race pass skips them, runs
// each in its second pass. A Later in a subtest of a test the list does
// not name is skipped by the race pass and never matched by the heavy
// pass's -run, so it would run nowhere.
func TestMakefileRunsEveryHeavyTest(t *testing.T) {
	h := readHeavyLists(t)
	found := 0
	err := walkGoFiles(repoRoot, func(dir string, test bool, f *ast.File, _ []string) error {
		if !test {
			return nil
		}
		for _, name := range testsCallingLater(f) {
			found++
			h.wantRun(t, dir, name, "calls heavytest.Later")
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

// heavyLists is what the Makefile says of the heavy pass: the tests it
// runs, the packages it runs them in, and the packages no pass runs
// race-built.
type heavyLists struct {
	tests, packages, norace []string
}

// readHeavyLists reads the Makefile's lists; t fails at once when the
// heavy pass's are missing.
func readHeavyLists(t *testing.T) heavyLists {
	t.Helper()
	mk := readMakefile(t)
	h := heavyLists{tests: makeList(mk, "HEAVY_TESTS"), packages: makeList(mk, "HEAVY_PACKAGES"), norace: makeList(mk, "NORACE_PACKAGES")}
	if len(h.tests) == 0 || len(h.packages) == 0 {
		t.Fatal("the Makefile sets no HEAVY_TESTS or HEAVY_PACKAGES (NAME = words, continued with a backslash)")
	}
	return h
}

// wantRun fails t unless the heavy pass runs the test name of package
// dir, which does what leaves it to that pass (what).
func (h heavyLists) wantRun(t *testing.T, dir, name, what string) {
	t.Helper()
	if !slices.Contains(h.tests, name) {
		t.Errorf("%s (in %s) %s, but the Makefile's HEAVY_TESTS does not name it", name, dir, what)
	}
	if !slices.Contains(h.packages, dir) {
		t.Errorf("%s (in %s) %s, but its package is not in HEAVY_PACKAGES", name, dir, what)
	}
}

// TestRaceSkippedPartsRunElsewhere: a test of a package the race pass
// runs, whose body reads race.Enabled (or calls a helper of its package
// that does, as engine/lang's allocsCounted), leaves a part of itself
// to a run without -race: an allocation count the race runtime's
// sync.Pool upsets, a case too slow race-built. HEAVY_TESTS must name
// it, so that the heavy pass runs that part; without it the part runs
// in no pass of make test, as engine/lang's six allocation counts did
// not.
func TestRaceSkippedPartsRunElsewhere(t *testing.T) {
	h := readHeavyLists(t)
	files := map[string][]*ast.File{}
	err := walkGoFiles(repoRoot, func(dir string, test bool, f *ast.File, _ []string) error {
		if test && !slices.Contains(h.norace, dir) {
			files[dir] = append(files[dir], f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for dir, fs := range files {
		for _, name := range testsReadingRace(fs) {
			found++
			h.wantRun(t, dir, name, "leaves a part to a run without -race")
		}
	}
	if found == 0 {
		t.Error("no test of the race pass reads race.Enabled: the check would pass on anything")
	}
}

// testsReadingRace names the top-level Test functions of a package's
// test files whose bodies read race.Enabled, or call a function of
// those files that does.
func testsReadingRace(files []*ast.File) []string {
	readsRace := func(n ast.Node) bool { return isSelector(n, "race", "Enabled") }
	helpers := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && !strings.HasPrefix(fn.Name.Name, "Test") && holds(fn.Body, readsRace) {
				helpers[fn.Name.Name] = true
			}
		}
	}
	return testsWhere(files, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && helpers[id.Name] {
				return true
			}
		}
		return readsRace(n)
	})
}

func TestTestsReadingRace(t *testing.T) {
	const src = `package p

func counted() bool { return !race.Enabled }

func TestDirect(t *testing.T) {
	if race.Enabled {
		t.Skip("slow")
	}
}

func TestThroughHelper(t *testing.T) {
	if counted() {
		check(t)
	}
}

func TestNeither(t *testing.T) { other.Enabled = true }
`
	f, err := parser.ParseFile(token.NewFileSet(), "p_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := testsReadingRace([]*ast.File{f}), []string{"TestDirect", "TestThroughHelper"}; !slices.Equal(got, want) {
		t.Errorf("testsReadingRace = %v, want %v", got, want)
	}
}

// testsCallingLater names the top-level Test functions of f whose
// bodies call heavytest.Later anywhere, closures included.
func testsCallingLater(f *ast.File) []string {
	return testsWhere([]*ast.File{f}, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		return ok && isSelector(c.Fun, "heavytest", "Later")
	})
}

// testsWhere names the top-level Test functions of files whose bodies,
// closures included, hold a node match accepts.
func testsWhere(files []*ast.File, match func(ast.Node) bool) []string {
	var names []string
	for _, f := range files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Body != nil && strings.HasPrefix(fn.Name.Name, "Test") && holds(fn.Body, match) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	return names
}

// holds reports whether root or a node below it is one match accepts.
func holds(root ast.Node, match func(ast.Node) bool) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		found = found || match(n)
		return !found
	})
	return found
}

// isSelector reports whether n is the selector pkg.name.
func isSelector(n ast.Node, pkg, name string) bool {
	s, ok := n.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != name {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == pkg
}

func TestTestsCallingLater(t *testing.T) {
	const src = `package p

func TestFirst(t *testing.T) {
	heavytest.Later(t)
}

func TestInSubtest(t *testing.T) {
	t.Run("big", func(t *testing.T) {
		if big {
			heavytest.Later(t)
		}
	})
}

func TestNot(t *testing.T) { other.Later(t) }

func helper(t *testing.T) { heavytest.Later(t) }
`
	f, err := parser.ParseFile(token.NewFileSet(), "p_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := testsCallingLater(f), []string{"TestFirst", "TestInSubtest"}; !slices.Equal(got, want) {
		t.Errorf("testsCallingLater = %v, want %v", got, want)
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
