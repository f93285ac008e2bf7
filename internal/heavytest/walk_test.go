package heavytest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// walkGoFiles calls visit with each Go file under root (but for
// testdata, node_modules and hidden directories), its directory as
// ./dir, whether it is a test file, and the module's packages it imports
// as ./dir (those go.mod's module path prefixes). The files are parsed
// once a root (parseGoFiles), for every check that reads them.
func walkGoFiles(root string, visit func(dir string, test bool, f *ast.File, imports []string) error) error {
	files, err := parseGoFiles(root)
	if err != nil {
		return err
	}
	for _, g := range files {
		if err := visit(g.dir, g.test, g.f, g.imports); err != nil {
			return err
		}
	}
	return nil
}

// goFile is one Go file as walkGoFiles hands it to a visit.
type goFile struct {
	dir     string
	test    bool
	f       *ast.File
	imports []string
}

// parsedRoots holds the files of each root parseGoFiles has read. The
// package's tests run one at a time (none is parallel, which the race
// rule holds it to), so nothing guards it.
var parsedRoots = map[string][]goFile{}

// parseGoFiles parses the Go files under root the first time it is
// asked for root, and returns the same files every time after.
func parseGoFiles(root string) ([]goFile, error) {
	if files, ok := parsedRoots[root]; ok {
		return files, nil
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	var module string
	for line := range strings.Lines(string(mod)) {
		if rest, ok := strings.CutPrefix(line, "module "); ok {
			module = strings.TrimSpace(rest)
		}
	}
	var files []goFile
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		var imports []string
		for _, im := range f.Imports {
			ip, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				return err
			}
			if rest, ok := strings.CutPrefix(ip, module+"/"); ok {
				imports = append(imports, "./"+rest)
			}
		}
		files = append(files, goFile{"./" + filepath.ToSlash(rel), strings.HasSuffix(path, "_test.go"), f, imports})
		return nil
	})
	if err != nil {
		return nil, err
	}
	parsedRoots[root] = files
	return files, nil
}

// repoRoot is the repository's root, seen from this package's folder.
var repoRoot = filepath.Join("..", "..")

// readMakefile reads the Makefile at the repository's root; t fails at
// once when it cannot.
func readMakefile(t *testing.T) []byte {
	t.Helper()
	mk, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	return mk
}

// checkMakeList fails t unless the Makefile's list variable names
// exactly the packages want: add words the error for one it lacks, drop
// for one it should not hold, each given the package.
func checkMakeList(t *testing.T, variable string, want []string, add, drop func(pkg string) string) {
	t.Helper()
	listed := makeList(readMakefile(t), variable)
	for _, p := range want {
		if !slices.Contains(listed, p) {
			t.Error(add(p))
		}
	}
	for _, p := range listed {
		if !slices.Contains(want, p) {
			t.Error(drop(p))
		}
	}
}
