package lang

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the README's function table from Functions")

const (
	readme     = "../../README.md"
	tableStart = "| function | result |"
	tableEnd   = "\n<!-- end of the function table -->"
)

// TestReadmeFunctionTable: the README's function table is FunctionTable,
// generated from Functions (-update-readme rewrites it).
func TestReadmeFunctionTable(t *testing.T) {
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, tableStart), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("the README has no function table between %q and %q", tableStart, tableEnd)
	}
	want := FunctionTable()
	if got := s[i:j] + "\n"; got != want {
		if *updateReadme {
			if err := os.WriteFile(readme, []byte(s[:i]+strings.TrimSuffix(want, "\n")+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the README's function table differs from engine/lang/docs.go; run go test ./engine/lang -run TestReadmeFunctionTable -update-readme\ngot:\n%s\nwant:\n%s", got, want)
	}
}

// TestEveryFunctionDocumented: every function the language adds to CEL's
// standard library and the extensions it pins is in Functions.
func TestEveryFunctionDocumented(t *testing.T) {
	ours, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	std, err := cel.NewEnv(ext.Strings(ext.StringsVersion(5)), ext.Lists(ext.ListsVersion(3)), ext.Bindings(ext.BindingsVersion(1)), cel.OptionalTypes(cel.OptionalTypesVersion(1)))
	if err != nil {
		t.Fatal(err)
	}
	var calls strings.Builder
	for _, f := range Functions {
		calls.WriteString(f.Call + " ")
	}
	for name := range ours.env.Functions() {
		if _, isStd := std.Functions()[name]; isStd || strings.HasPrefix(name, "_") || strings.HasPrefix(name, "@") {
			continue
		}
		if !strings.Contains(calls.String(), name+"(") {
			t.Errorf("function %s is not documented in Functions (engine/lang/docs.go)", name)
		}
	}
}

// TestFunctionsNameNoRubric: the function table shows what each function
// does in the language's own terms; the engine knows no rubric, so no
// entry names a rubric of rubrics/ by its name (written with a hyphen
// or a space) or its title.
func TestFunctionsNameNoRubric(t *testing.T) {
	files, err := filepath.Glob("../../rubrics/*.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rubrics under ../../rubrics (%v)", err)
	}
	header := regexp.MustCompile(`(?m)^rubric "([^"]+)"|^  title\s*=\s*"([^"]+)"`)
	var names []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range header.FindAllStringSubmatch(string(src), -1) {
			for _, n := range m[1:] {
				if n == "" {
					continue
				}
				names = append(names, strings.ToLower(n))
				if spaced := strings.ReplaceAll(n, "-", " "); spaced != n {
					names = append(names, strings.ToLower(spaced))
				}
			}
		}
	}
	if len(names) == 0 {
		t.Fatal("no rubric names found in rubrics/*.hcl")
	}
	for _, f := range Functions {
		text := strings.ToLower(f.Call + " " + f.Doc)
		for _, n := range names {
			if strings.Contains(text, n) {
				t.Errorf("%s names the rubric %q: say what it shows in the language's terms", f.Call, n)
			}
		}
	}
}
