package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/readmetest"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/plugins/transports/mcpclient"
)

// declared is the names a package of the module declares at its top
// level (types, functions, variables, constants) and the methods of its
// types, read from its source files in ../../DIR.
func declared(t *testing.T, dir string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	pkg := filepath.Join("../..", dir)
	entries, err := os.ReadDir(pkg)
	if err != nil {
		return names
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(pkg, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				names[d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}

// TestDocGoNamesExist: a Go name a document writes with its package's
// path (`engine/judge.Judge`, `plugins/protocol.Judge`) is declared in
// that package, so that a reader who opens it finds what the document
// says is there.
func TestDocGoNamesExist(t *testing.T) {
	qualified := regexp.MustCompile("`((?:[a-z0-9_]+/)+[a-z0-9_]+)\\.([A-Z][A-Za-z0-9_]*)")
	checked := 0
	decls := map[string]map[string]bool{} // each package's, read once
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range qualified.FindAllStringSubmatch(string(b), -1) {
			dir, name := m[1], m[2]
			if fi, err := os.Stat(filepath.Join("../..", dir)); err != nil || !fi.IsDir() {
				continue // not a package path of this module (text/template.Template)
			}
			checked++
			if decls[dir] == nil {
				decls[dir] = declared(t, dir)
			}
			if !decls[dir][name] {
				t.Errorf("%s names %s.%s, which %s does not declare", file, dir, name, dir)
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d qualified Go names found in the documents: has their layout changed?", checked)
	}
}

// TestJudgesReadmeNamesEveryPackage: judges/README.md's table has a row
// for every package under judges/ but the heuristic's own (which
// judges/heuristic/README.md describes).
func TestJudgesReadmeNamesEveryPackage(t *testing.T) {
	b, err := os.ReadFile("../../judges/README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 2 && strings.HasPrefix(line, "| `") {
			rows[strings.Trim(strings.TrimSpace(cells[1]), "`")] = true
		}
	}
	for pkg := range modulePackages(t) {
		rel, ok := strings.CutPrefix(pkg, "judges/")
		if !ok || strings.HasPrefix(rel, "heuristic/") {
			continue
		}
		if !rows[rel] {
			t.Errorf("judges/README.md's table has no row for the package %s", pkg)
		}
	}
}

// TestCalibrationReadmeNamesEveryFile: calibration/README.md names each
// data file of calibration/dev, by its name or, for a round's part, by
// the name with its round written 1_N.
func TestCalibrationReadmeNamesEveryFile(t *testing.T) {
	b, err := os.ReadFile("../../calibration/README.md")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../../calibration/dev/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found %d files in calibration/dev: has it moved?", len(files))
	}
	round := regexp.MustCompile(`_1_[0-9]+\.json$`)
	for _, f := range files {
		name := "dev/" + filepath.Base(f)
		if !strings.Contains(string(b), "`"+name+"`") && !strings.Contains(string(b), "`"+round.ReplaceAllString(name, "_1_N.json")+"`") {
			t.Errorf("calibration/README.md does not name %s", name)
		}
	}
}

// TestDocLinksResolve: a document's relative links, and the paths it
// writes in backquotes as relative to itself ("../..."), lead to a file or
// folder of the repository, so that a reader of a fresh clone finds them.
func TestDocLinksResolve(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	up := regexp.MustCompile("`(\\.\\./[^`\\s]*)`")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var targets []string
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			targets = append(targets, target)
		}
		for _, m := range up.FindAllStringSubmatch(string(b), -1) {
			targets = append(targets, m[1])
		}
		for _, target := range targets {
			checked++
			path, err := filepath.Abs(filepath.Join(filepath.Dir(file), target))
			if err != nil {
				t.Fatal(err)
			}
			if rel, err := filepath.Rel(root, path); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s points at %s, outside the repository, which a clone does not have", file, target)
				continue
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s points at %s, which is not there", file, target)
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d relative links found in the documents: has their layout changed?", checked)
	}
}

// goTestLines are the "go test ..." command lines of a document: its
// lines in code blocks and its spans in backquotes that begin so, each
// cut at a comment, a ";" or a "&&".
func goTestLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		for _, part := range strings.Split(line, "`") {
			for {
				i := strings.Index(part, "go test ")
				if i < 0 {
					break
				}
				cmd := part[i:]
				for _, end := range []string{" #", ";", "&&", ")"} {
					if j := strings.Index(cmd, end); j >= 0 {
						cmd = cmd[:j]
					}
				}
				out = append(out, cmd)
				part = part[i+len("go test "):]
			}
		}
	}
	return out
}

// TestDocGoTestCommands: the go test command lines of the documents name
// packages that exist, a -run or -bench pattern that matches a test or a
// benchmark of them, and an -update flag those packages' tests define,
// so that a reader who copies one runs what the document says.
func TestDocGoTestCommands(t *testing.T) {
	funcs := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark)[A-Za-z0-9_]*)\(`)
	flags := regexp.MustCompile(`flag\.Bool\("([a-z-]+)"`)
	checked := 0
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range goTestLines(string(b)) {
			words := strings.Fields(line)[2:]
			var dirs []string
			opts := map[string]string{}
			for i := 0; i < len(words); i++ {
				w := strings.Trim(words[i], "'")
				switch {
				case strings.HasPrefix(w, "./"):
					for _, d := range expandBraces(w) {
						dirs = append(dirs, strings.TrimSuffix(strings.TrimPrefix(d, "./"), "/..."))
					}
				case w == "-run" || w == "-bench" || w == "-benchtime" || w == "-outputdir" || w == "-o":
					if i+1 < len(words) {
						opts[w] = strings.Trim(words[i+1], "'")
						i++
					}
				case strings.HasPrefix(w, "-"):
					opts[w] = ""
				}
			}
			if len(dirs) == 0 {
				continue // go test -c, a flag named in prose
			}
			checked++
			var tests, benches []string
			defined := map[string]bool{}
			for _, d := range dirs {
				files, _ := filepath.Glob(filepath.Join("../..", d, "*_test.go"))
				if strings.HasSuffix(line, "/...") || strings.Contains(line, d+"/...") {
					more, _ := filepath.Glob(filepath.Join("../..", d, "*", "*", "*_test.go"))
					files = append(files, more...)
				}
				if len(files) == 0 {
					t.Errorf("%s: %q: ./%s has no tests", file, line, d)
				}
				for _, f := range files {
					src, err := os.ReadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					for _, m := range funcs.FindAllStringSubmatch(string(src), -1) {
						if strings.HasPrefix(m[1], "Test") {
							tests = append(tests, m[1])
						} else {
							benches = append(benches, m[1])
						}
					}
					for _, m := range flags.FindAllStringSubmatch(string(src), -1) {
						defined[m[1]] = true
					}
				}
			}
			match := func(kind, pattern string, names []string) {
				if pattern == "" || pattern == "^$" || pattern == "." {
					return
				}
				re, err := regexp.Compile(pattern)
				if err != nil {
					t.Errorf("%s: %q: %s pattern %q: %v", file, line, kind, pattern, err)
					return
				}
				for _, n := range names {
					if re.MatchString(n) {
						return
					}
				}
				t.Errorf("%s: %q: %s %q matches nothing in %s", file, line, kind, pattern, strings.Join(dirs, ", "))
			}
			match("-run", opts["-run"], tests)
			match("-bench", opts["-bench"], benches)
			for _, f := range []string{"-update", "-update-readme"} {
				if _, ok := opts[f]; ok && !defined[strings.TrimPrefix(f, "-")] {
					t.Errorf("%s: %q: the tests of %s define no %s flag", file, line, strings.Join(dirs, ", "), f)
				}
			}
		}
	}
	if checked < 15 {
		t.Errorf("only %d go test command lines found in the documents: has their layout changed?", checked)
	}
}

// TestReadmeCountsRegistryPages: README's "about N tool pages" of the
// registry's published scores is the number of distinct pages (their
// addresses) in calibration/dev, to the nearest ten.
func TestReadmeCountsRegistryPages(t *testing.T) {
	files, err := filepath.Glob("../../calibration/dev/glama_*.json")
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Tools []struct {
				URL string `json:"url"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, tool := range doc.Tools {
			if tool.URL == "" {
				t.Fatalf("%s: a tool without its page's url", f)
			}
			pages[tool.URL] = true
		}
	}
	n := (len(pages) + 5) / 10 * 10
	want := fmt.Sprintf("about %d,%03d tool pages", n/1000, n%1000)
	if !strings.Contains(readmetest.Text(t), want) {
		t.Errorf("README.md does not say %q: calibration/dev holds %d distinct tool pages", want, len(pages))
	}
}

// TestReadmeNamesExampleRubrics: every rubric file of examples/rubrics
// is named in README.md, so that a reader learns what each example is.
func TestReadmeNamesExampleRubrics(t *testing.T) {
	readme := readmetest.Text(t)
	files, err := filepath.Glob("../../examples/rubrics/*.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("found %d rubrics in examples/rubrics: has it moved?", len(files))
	}
	for _, f := range files {
		name := "rubrics/" + filepath.Base(f)
		if !strings.Contains(readme, name+"`") {
			t.Errorf("README.md does not name examples/%s", name)
		}
	}
}

// TestReadmeProtocolVersions: the MCP revisions README.md says rubric
// speaks are the ones its MCP client sends.
func TestReadmeProtocolVersions(t *testing.T) {
	readme := readmetest.Text(t)
	for _, want := range []string{
		"rubric sends `initialize` (protocol `" + mcpclient.ProtocolVersion + "`)",
		"server that speaks only MCP `" + mcpclient.ModernVersion + "`",
	} {
		if !strings.Contains(strings.Join(strings.Fields(readme), " "), want) {
			t.Errorf("README.md does not say %q, the revision rubric's MCP client speaks", want)
		}
	}
}

// TestReadmeJudgeVersion: the terminal outputs README.md quotes name the
// heuristic judge's current version in their "Judge heuristic" line, so
// that a reader who runs the command sees what the README shows. A new
// version of the judge moves these lines with it.
func TestReadmeJudgeVersion(t *testing.T) {
	lines := regexp.MustCompile(`(?m)^Judge heuristic (\S+) · `).FindAllStringSubmatch(readmetest.Text(t), -1)
	if len(lines) == 0 {
		t.Fatal(`README.md quotes no "Judge heuristic" line: has its output changed?`)
	}
	for _, m := range lines {
		if m[1] != heuristic.Version {
			t.Errorf("README.md quotes %q, but the heuristic judge is version %s", strings.TrimSpace(m[0]), heuristic.Version)
		}
	}
}

// TestReadmeQuotesRealChecks: a check README.md quotes by a real name
// (not the grammar's NAME) stands, as quoted, in a built-in rubric, so
// that a reader who copies it gets what the built-in scores by.
func TestReadmeQuotesRealChecks(t *testing.T) {
	fold := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var rubricText strings.Builder
	files, err := filepath.Glob("../../rubrics/*.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no built-in rubrics found (%v)", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rubricText.WriteString(fold(string(b)) + "\n")
	}
	quoted := regexp.MustCompile(`(?ms)^check "([a-z_]+)" \{\n.*?^\}`).FindAllStringSubmatch(readmetest.Text(t), -1)
	if len(quoted) == 0 {
		t.Fatal(`README.md quotes no check: has its worked example moved?`)
	}
	for _, q := range quoted {
		if !strings.Contains(rubricText.String(), fold(q[0])) {
			t.Errorf("README.md quotes check %q as no built-in rubric writes it:\n%s", q[1], q[0])
		}
	}
}
