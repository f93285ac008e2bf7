package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/readmetest"
)

const module = "github.com/rubricmcp/rubric/"

// rules say which packages (by path prefix under the module) may not
// depend, directly or not, on which others.
var rules = []struct {
	from string
	not  []string
}{
	{from: "engine/", not: []string{"plugins/", "judges/", "cmd/"}},
	{from: "plugins/", not: []string{"judges/", "cmd/"}},
	{from: "judges/", not: []string{"cmd/"}},
}

// TestImportDirection runs go list -deps over the module and fails for
// every package that depends on one a rule forbids it.
func TestImportDirection(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", "list", "-deps=false", "-json=ImportPath,Deps", module+"...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	checked := 0
	for {
		var p struct {
			ImportPath string
			Deps       []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		rel, ok := strings.CutPrefix(p.ImportPath, module)
		if !ok {
			continue
		}
		for _, r := range rules {
			if !strings.HasPrefix(rel, r.from) {
				continue
			}
			checked++
			for _, d := range p.Deps {
				drel, ok := strings.CutPrefix(d, module)
				if !ok {
					continue
				}
				for _, bad := range r.not {
					if strings.HasPrefix(drel, bad) {
						t.Errorf("%s depends on %s: nothing under %s may import %s", rel, drel, r.from, bad)
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d packages checked: is go list reading the module?", checked)
	}
}

// TestReadmeTourNamesEveryPackage holds the package table of README.md's
// "How it is built" to the module: every package go list finds is named in
// the first column of a row (a `dir/{a,b}` entry names dir/a and dir/b; a
// directory that is no package, such as `examples`, names what is under
// it), and every entry there is a package or a directory, so that the tour
// neither omits a package nor lists one that was moved or removed.
func TestReadmeTourNamesEveryPackage(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	tour := readmetest.Section(t, "## How it is built")
	entries := tourEntries(tour)
	if len(entries) < 40 {
		t.Fatalf("only %d entries read from the tour's table: is it still a table of `package` | what it provides?", len(entries))
	}
	cmd := exec.Command("go", "list", module+"...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]bool{}
	for _, line := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(line, module); ok {
			pkgs[rel] = true
		}
	}
	for _, e := range entries {
		if pkgs[e] {
			continue
		}
		if st, err := os.Stat(filepath.Join("../..", e)); err != nil || !st.IsDir() {
			t.Errorf("README's tour names %s, which is neither a package nor a directory of the module", e)
		}
	}
	for p := range pkgs {
		if !tourCovers(entries, pkgs, p) {
			t.Errorf("README's tour does not name the package %s: add a row to the table of \"How it is built\"", p)
		}
	}
}

// tourEntries reads the paths the first column of the tour's table
// names, brace lists expanded.
func tourEntries(tour string) []string {
	var out []string
	for _, line := range strings.Split(tour, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.Split(line, "|")[1]
		for _, quoted := range strings.Split(first, "`") {
			quoted = strings.TrimSpace(quoted)
			if quoted == "" || quoted == "," {
				continue
			}
			out = append(out, expandBraces(quoted)...)
		}
	}
	return out
}

// expandBraces expands one {a,b} group: a/{b,c} is a/b and a/c.
func expandBraces(s string) []string {
	open, close := strings.IndexByte(s, '{'), strings.IndexByte(s, '}')
	if open < 0 || close < open {
		return []string{s}
	}
	var out []string
	for _, alt := range strings.Split(s[open+1:close], ",") {
		out = append(out, s[:open]+strings.TrimSpace(alt)+s[close+1:])
	}
	return out
}

// tourCovers reports whether pkg is an entry, or lies under an entry that
// is a directory and no package.
func tourCovers(entries []string, pkgs map[string]bool, pkg string) bool {
	for _, e := range entries {
		if e == pkg || (!pkgs[e] && strings.HasPrefix(pkg, e+"/")) {
			return true
		}
	}
	return false
}
