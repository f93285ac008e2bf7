package heavytest

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestMakefileTestdepsRule: the Makefile's TESTDEPS_PACKAGES, the
// packages whose test binaries make test holds until make testdeps has
// installed the npm packages (scripts/testdeps-gate.sh), are exactly
// those whose tests name what it installs. A test that starts reading
// testdeps/, testdata/servers or testdata/modern fails this one until
// its package joins the list, so that a fresh clone never runs it
// against a half-installed node_modules.
func TestMakefileTestdepsRule(t *testing.T) {
	pkgs, err := readTestdeps(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	want := readsTestdeps(pkgs)
	if len(want) == 0 {
		t.Fatal("the rule finds no package whose tests read what make testdeps installs: it reads nothing")
	}
	checkMakeList(t, "TESTDEPS_PACKAGES", want,
		func(p string) string {
			return p + "'s tests read what make testdeps installs: add it to the Makefile's TESTDEPS_PACKAGES"
		},
		func(p string) string {
			return p + " is in the Makefile's TESTDEPS_PACKAGES, but its tests read nothing make testdeps installs: take it out, so that its tests start without waiting"
		})
}

// TestTestdepsRule holds the rule to small packages written for it.
func TestTestdepsRule(t *testing.T) {
	pkgs, err := readTestdeps(filepath.Join("testdata", "testdepsrule"))
	if err != nil {
		t.Fatal(err)
	}
	got := readsTestdeps(pkgs)
	want := []string{"./joined", "./modern", "./npm", "./viachain", "./viahelper"}
	if !slices.Equal(got, want) {
		t.Errorf("readsTestdeps = %q, want %q", got, want)
	}
}

// testdepsPackage is what the testdeps rule reads of one directory's Go
// files.
type testdepsPackage struct {
	hasTests bool
	// testNames: its test files name what make testdeps installs;
	// codeNames: its other files do.
	testNames, codeNames bool
	testImports          []string // the module's packages its test files import, as ./dir
	codeImports          []string // those its other files import
}

// readsTestdeps returns, sorted, the packages with tests (as ./dir) that
// read what make testdeps installs: their test files name it, or a
// package of the module without tests of its own (a test helper) that
// they import, directly or through other such helpers, does. A package
// with tests of its own that names it (engine/scan reads a
// node_modules it was given) does not count for its importers: what its
// code reads, its callers' tests choose.
func readsTestdeps(pkgs map[string]*testdepsPackage) []string {
	var helperNames func(dir string, seen map[string]bool) bool
	helperNames = func(dir string, seen map[string]bool) bool {
		p := pkgs[dir]
		if p == nil || p.hasTests || seen[dir] {
			return false
		}
		seen[dir] = true
		if p.codeNames {
			return true
		}
		return slices.ContainsFunc(p.codeImports, func(im string) bool { return helperNames(im, seen) })
	}
	var reads []string
	for dir, p := range pkgs {
		if !p.hasTests {
			continue
		}
		if p.testNames || slices.ContainsFunc(p.testImports, func(im string) bool { return helperNames(im, map[string]bool{}) }) {
			reads = append(reads, dir)
		}
	}
	slices.Sort(reads)
	return reads
}

// namesTestdeps says whether a file's string literals name one of the
// directories make testdeps installs into: a path holding testdeps,
// node_modules, testdata/servers or testdata/modern, or the pieces
// "testdata" and "servers" or "modern" given to filepath.Join.
func namesTestdeps(lits []string) bool {
	for _, s := range lits {
		s = filepath.ToSlash(s)
		if strings.Contains(s, "testdeps") || strings.Contains(s, "node_modules") || strings.Contains(s, "testdata/servers") || strings.Contains(s, "testdata/modern") {
			return true
		}
	}
	return slices.Contains(lits, "testdata") && (slices.Contains(lits, "servers") || slices.Contains(lits, "modern"))
}

// readTestdeps parses the Go files under root (but for testdata,
// node_modules and hidden directories) and returns what the testdeps
// rule reads of each directory, keyed ./dir.
func readTestdeps(root string) (map[string]*testdepsPackage, error) {
	pkgs := map[string]*testdepsPackage{}
	err := walkGoFiles(root, func(dir string, test bool, f *ast.File, imports []string) error {
		p := pkgs[dir]
		if p == nil {
			p = &testdepsPackage{}
			pkgs[dir] = p
		}
		p.hasTests = p.hasTests || test
		var lits []string
		ast.Inspect(f, func(n ast.Node) bool {
			if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING {
				if s, err := strconv.Unquote(l.Value); err == nil {
					lits = append(lits, s)
				}
			}
			return true
		})
		names := namesTestdeps(lits)
		if test {
			p.testNames = p.testNames || names
			p.testImports = append(p.testImports, imports...)
		} else {
			p.codeNames = p.codeNames || names
			p.codeImports = append(p.codeImports, imports...)
		}
		return nil
	})
	return pkgs, err
}
