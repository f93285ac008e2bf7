package heavytest

import (
	"go/ast"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestMakefileRaceRule: the Makefile's NORACE_PACKAGES, the packages
// make test runs without -race, are exactly those the rule of
// raceFree finds nothing concurrent in. A package that gains a
// goroutine, a channel or a test that runs in parallel fails this test
// until it leaves the list, so that its tests run race-built again.
func TestMakefileRaceRule(t *testing.T) {
	pkgs, err := readPackages(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	want := raceFree(pkgs)
	if len(want) == 0 {
		t.Fatal("the rule finds no package without concurrency: it reads nothing")
	}
	checkMakeList(t, "NORACE_PACKAGES", want,
		func(p string) string {
			return p + " has nothing concurrent for the race detector to check: add it to the Makefile's NORACE_PACKAGES"
		},
		func(p string) string {
			return p + " is in the Makefile's NORACE_PACKAGES, but it (or a package without tests it imports) runs code at once: take it out, so that its tests run race-built"
		})
}

// TestRaceRule holds the rule to small packages written for it.
func TestRaceRule(t *testing.T) {
	pkgs, err := readPackages(filepath.Join("testdata", "racerule"))
	if err != nil {
		t.Fatal(err)
	}
	got := raceFree(pkgs)
	want := []string{"./plain", "./usesmutex", "./usesplain"}
	if !slices.Equal(got, want) {
		t.Errorf("raceFree = %q, want %q", got, want)
	}
}

// goPackage is what the rule reads of one directory's Go files.
type goPackage struct {
	hasTests bool
	// codeConcurrent: its non-test files start a goroutine (a go
	// statement, a call of a method Go such as sync.WaitGroup's,
	// time.AfterFunc, an httptest server) or pass values between goroutines
	// (a channel, a select).
	codeConcurrent bool
	// testConcurrent: its test files start a goroutine, run a test in
	// parallel (t.Parallel), serve with httptest, or guard or pass
	// something between goroutines (sync, sync/atomic, a channel).
	testConcurrent bool
	codeImports    []string // the module's packages its non-test files import, as ./dir
	allImports     []string // those its test files import too
}

// raceFree returns, sorted, the packages with tests (as ./dir) whose test
// binary has nothing for the race detector: neither the package nor its
// tests nor a package of the module without tests of its own that they
// reach (whose concurrency only importers' tests can check) run code at
// once. A mutex alone does not count: it guards against callers that run
// at once, and the race-built tests of those callers are where it is
// checked.
func raceFree(pkgs map[string]*goPackage) []string {
	var starts func(dir string, seen map[string]bool) bool
	starts = func(dir string, seen map[string]bool) bool {
		p := pkgs[dir]
		if p == nil || seen[dir] {
			return false
		}
		seen[dir] = true
		if p.codeConcurrent {
			return true
		}
		for _, im := range p.codeImports {
			if q := pkgs[im]; q != nil && !q.hasTests && starts(im, seen) {
				return true
			}
		}
		return false
	}
	var free []string
	for dir, p := range pkgs {
		if !p.hasTests || p.testConcurrent || p.codeConcurrent {
			continue
		}
		concurrent := false
		for _, im := range p.allImports {
			if q := pkgs[im]; q != nil && !q.hasTests && starts(im, map[string]bool{}) {
				concurrent = true
			}
		}
		if !concurrent {
			free = append(free, dir)
		}
	}
	slices.Sort(free)
	return free
}

// readPackages parses the Go files under root (but for testdata,
// node_modules and hidden directories) and returns what the rule reads
// of each directory, keyed ./dir. Imports of the module are those that
// go.mod's module path prefixes.
func readPackages(root string) (map[string]*goPackage, error) {
	pkgs := map[string]*goPackage{}
	err := walkGoFiles(root, func(dir string, test bool, f *ast.File, imports []string) error {
		p := pkgs[dir]
		if p == nil {
			p = &goPackage{}
			pkgs[dir] = p
		}
		p.hasTests = p.hasTests || test
		mark := func() {
			if test {
				p.testConcurrent = true
			} else {
				p.codeConcurrent = true
			}
		}
		if !test {
			p.codeImports = append(p.codeImports, imports...)
		}
		p.allImports = append(p.allImports, imports...)
		for _, im := range f.Imports {
			ip, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				return err
			}
			switch {
			case ip == "net/http/httptest":
				mark()
			case test && (ip == "sync" || ip == "sync/atomic"):
				mark()
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt, *ast.ChanType, *ast.SelectStmt:
				mark()
			case *ast.CallExpr:
				s, ok := n.Fun.(*ast.SelectorExpr)
				switch {
				case ok && test && s.Sel.Name == "Parallel" && len(n.Args) == 0:
					mark()
				case ok && s.Sel.Name == "Go" && len(n.Args) == 1:
					// sync.WaitGroup.Go, errgroup.Group.Go: a goroutine
					// started without a go statement.
					mark()
				case ok && s.Sel.Name == "AfterFunc" && len(n.Args) == 2:
					// time.AfterFunc: the function runs in a goroutine
					// of its own once the time has passed.
					mark()
				}
			}
			return true
		})
		return nil
	})
	return pkgs, err
}
