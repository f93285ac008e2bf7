package main

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/internal/readmetest"
)

const modulePath = "github.com/rubricmcp/rubric"

// modulePackages maps each package of the module (its path from the
// module's root, as README.md writes it) to the packages of the module it
// imports, read from the sources of ../.. (not the tests' files, and not
// the folders of another module, testdata or node_modules).
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	packagesOnce.Do(func() { packages, packagesErr = readPackages() })
	if packagesErr != nil {
		t.Fatal(packagesErr)
	}
	if len(packages) < 50 {
		t.Fatalf("found %d packages under the module's root: has its layout changed?", len(packages))
	}
	return packages
}

var (
	packagesOnce sync.Once
	packages     map[string][]string
	packagesErr  error
)

func readPackages() (map[string][]string, error) {
	root, err := filepath.Abs("../..")
	if err != nil {
		return nil, err
	}
	pkgs := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root {
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module (tools/)
			}
		}
		p, err := build.Default.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(root, path)
		var imports []string
		for _, imp := range p.Imports {
			if r, ok := strings.CutPrefix(imp, modulePath+"/"); ok {
				imports = append(imports, r)
			}
		}
		pkgs[filepath.ToSlash(rel)] = imports
		return nil
	})
	return pkgs, err
}

// expandBraces turns "engine/{score, gate}" into engine/score and
// engine/gate; a name without braces is itself.
func expandBraces(s string) []string {
	open := strings.Index(s, "{")
	end := strings.Index(s, "}")
	if open < 0 || end < open {
		return []string{s}
	}
	var out []string
	for _, part := range strings.Split(s[open+1:end], ",") {
		out = append(out, expandBraces(s[:open]+strings.TrimSpace(part)+s[end+1:])...)
	}
	return out
}

// TestReadmeTourNamesEveryPackage: the package table of README.md's "How
// it is built" names every package of the module, and names none that is
// not one, so that a package added, moved or removed shows in the tour. A
// package under a folder with a row of its own (examples) may be named in
// that row, by its path from the folder.
func TestReadmeTourNamesEveryPackage(t *testing.T) {
	section := readmetest.Section(t, "## How it is built")
	rows := map[string]string{} // a name of the first column -> its row
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "| `") || len(cells) < 3 {
			continue
		}
		parts := strings.Split(cells[1], "`")
		for i := 1; i < len(parts); i += 2 {
			for _, name := range expandBraces(parts[i]) {
				rows[name] = line
			}
		}
	}
	pkgs := modulePackages(t)
	for pkg := range pkgs {
		if _, ok := rows[pkg]; ok {
			continue
		}
		named := false
		for dir := pkg; dir != "." && !named; dir = filepath.Dir(dir) {
			row, ok := rows[dir]
			if !ok {
				continue
			}
			rel := strings.TrimPrefix(pkg, dir+"/")
			parts := strings.Split(row, "`")
			for i := 1; i < len(parts); i += 2 {
				named = named || slices.Contains(expandBraces(parts[i]), rel)
			}
		}
		if !named {
			t.Errorf("README.md's package table (How it is built) does not name the package %s", pkg)
		}
	}
	for name := range rows {
		if _, ok := pkgs[name]; ok {
			continue
		}
		if fi, err := os.Stat(filepath.Join("../..", name)); err != nil || !fi.IsDir() {
			t.Errorf("README.md's package table names %s, which is no folder of the module", name)
		}
	}
}

// TestReadmeTourArrows holds the import diagram of README.md's "How it is
// built" to the imports of the module's packages: each arrow of a chain
// (A ──▶ B, C) is an import of B and of C by A, and an arrow at the
// diagram's first level is one of cmd/rubric's.
func TestReadmeTourArrows(t *testing.T) {
	section := readmetest.Section(t, "## How it is built")
	_, diagram, ok := strings.Cut(section, "Who imports whom")
	if !ok {
		t.Fatal(`README.md's "How it is built" has no "Who imports whom" diagram`)
	}
	_, diagram, _ = strings.Cut(diagram, "```\n")
	diagram, _, _ = strings.Cut(diagram, "```")
	pkgs := modulePackages(t)
	arrow := regexp.MustCompile(`─+▶`)
	// names is the packages a segment of a chain begins with: a list
	// separated by commas, up to two spaces or a parenthesis; "X/*" is
	// every package one level below X but internal ones.
	names := func(seg string) []string {
		seg = strings.TrimSpace(seg)
		if i := strings.Index(seg, "  "); i >= 0 {
			seg = seg[:i]
		}
		if i := strings.Index(seg, " ("); i >= 0 {
			seg = seg[:i]
		}
		seg = strings.TrimRight(seg, " ─┤┘")
		var out []string
		depth, start := 0, 0
		var items []string
		for i, r := range seg {
			switch r {
			case '{':
				depth++
			case '}':
				depth--
			case ',':
				if depth == 0 {
					items = append(items, seg[start:i])
					start = i + 1
				}
			}
		}
		items = append(items, seg[start:])
		for _, item := range items {
			for _, name := range expandBraces(strings.TrimSpace(item)) {
				if dir, file, ok := strings.Cut(name, "."); ok && !strings.Contains(file, "/") {
					name = dir // engine/judge.Judge: the package
				}
				if strings.HasSuffix(name, "/*") {
					prefix := strings.TrimSuffix(name, "*")
					for p := range pkgs {
						rest, ok := strings.CutPrefix(p, prefix)
						if ok && !strings.Contains(rest, "/") && rest != "internal" {
							out = append(out, p)
						}
					}
					continue
				}
				if _, ok := pkgs[name]; !ok {
					if _, ok := pkgs["engine/"+name]; ok {
						name = "engine/" + name // score/eval under engine/score
					}
				}
				out = append(out, name)
			}
		}
		return out
	}
	checked := 0
	for _, line := range strings.Split(diagram, "\n") {
		for _, chain := range strings.Split(line, ";") {
			segs := arrow.Split(chain, -1)
			if len(segs) < 2 {
				continue
			}
			var from []string
			head := strings.TrimSpace(strings.Trim(segs[0], " │├└"))
			switch {
			case head != "":
				from = names(segs[0])
			case strings.HasPrefix(segs[0], "    ├") || strings.HasPrefix(segs[0], "    └"):
				from = []string{"cmd/rubric"}
			}
			for _, seg := range segs[1:] {
				to := names(seg)
				for _, a := range from {
					imports, ok := pkgs[a]
					if !ok {
						t.Errorf("README.md's import diagram names %s, which is no package of the module (line %q)", a, line)
						continue
					}
					for _, b := range to {
						if _, ok := pkgs[b]; !ok {
							t.Errorf("README.md's import diagram names %s, which is no package of the module (line %q)", b, line)
							continue
						}
						checked++
						if !slices.Contains(imports, b) {
							t.Errorf("README.md's import diagram has %s import %s, which it does not (line %q)", a, b, line)
						}
					}
				}
				from = to
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d arrows of README.md's import diagram checked: has its layout changed?", checked)
	}
}
