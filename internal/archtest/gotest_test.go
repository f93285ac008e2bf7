package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/readmetest"
)

// TestReadmeGoTestCommands holds every go test command README.md shows
// (in its code blocks and its prose) to the module: each package it names
// exists and has tests, a -run pattern matches one of the package's
// tests, a -bench pattern one of its benchmarks, and a flag that is not
// go test's own (-update) is one its tests declare. The Development block
// once sent a reader to go test ./engine/calibrate -update, after the
// calibration summaries had moved to the rubrics package, and the note
// above the function table to -update where the flag is -update-readme:
// both commands failed on a flag not defined.
func TestReadmeGoTestCommands(t *testing.T) {
	cmds := goTestCommands(readmetest.Text(t))
	if len(cmds) < 20 {
		t.Fatalf("only %d go test commands read from README.md: is goTestCommands still reading them?", len(cmds))
	}
	for _, c := range cmds {
		for _, pkg := range c.pkgs {
			tests, err := readTests(filepath.Join("../..", pkg))
			if err != nil {
				t.Errorf("README.md shows %q: %s has no tests to run (%v)", c.text, pkg, err)
				continue
			}
			if c.run != "" && c.run != "^$" && !tests.matches(t, c.text, c.run, tests.tests) {
				t.Errorf("README.md shows %q: -run %s matches no test of %s", c.text, c.run, pkg)
			}
			if c.bench != "" && !tests.matches(t, c.text, c.bench, tests.benchmarks) {
				t.Errorf("README.md shows %q: -bench %s matches no benchmark of %s", c.text, c.bench, pkg)
			}
			for _, f := range c.flags {
				if !tests.flags[f] {
					t.Errorf("README.md shows %q: the tests of %s declare no flag -%s", c.text, pkg, f)
				}
			}
		}
	}
}

// TestGoTestCommands: the commands are read from code blocks and from
// code spans that a line break cuts, brace lists expanded, up to the
// comment, the span's end or the first word that is neither a package,
// a flag nor a flag's value.
func TestGoTestCommands(t *testing.T) {
	doc := "```sh\ngo test ./a/{b,c} -run 'X$|Y' -update   # -bench Z\n```\n" +
		"as `RUBRIC_X=1 go test\n./d -bench Open -benchtime 3x`, and (go test ./e -run T -update-readme).\n" +
		"it runs `go test -race ./...`, then go test ./f -v the rest\n"
	got := goTestCommands(doc)
	want := []goTest{
		{pkgs: []string{"a/b", "a/c"}, run: "X$|Y", flags: []string{"update"}},
		{pkgs: []string{"d"}, bench: "Open"},
		{pkgs: []string{"e"}, run: "T", flags: []string{"update-readme"}},
		{},
		{pkgs: []string{"f"}},
	}
	if len(got) != len(want) {
		t.Fatalf("read %d commands, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if strings.Join(g.pkgs, " ") != strings.Join(w.pkgs, " ") || g.run != w.run || g.bench != w.bench || strings.Join(g.flags, " ") != strings.Join(w.flags, " ") {
			t.Errorf("command %d (%q) = %+v, want %+v", i, g.text, g, w)
		}
	}
}

// goTest is one go test command: the module's packages it names (./...
// is left out), its -run and -bench patterns and the flags it gives that
// are not go test's own (update for -update).
type goTest struct {
	text       string
	pkgs       []string
	run, bench string
	flags      []string
}

// flagsWithValue are the go test flags whose value is the next word.
var flagsWithValue = map[string]bool{"-run": true, "-bench": true, "-benchtime": true, "-outputdir": true, "-count": true, "-timeout": true, "-cpu": true}

// goTestFlags are the go test flags without a value that README.md uses;
// any other is the package's own.
var goTestFlags = map[string]bool{"-race": true, "-v": true, "-benchmem": true, "-artifacts": true, "-short": true, "-json": true}

// goTestCommands reads every "go test" command of a Markdown text.
func goTestCommands(doc string) []goTest {
	words := strings.Fields(doc)
	var out []goTest
	for i := 0; i+1 < len(words); i++ {
		if !strings.HasSuffix(words[i], "go") || words[i+1] != "test" {
			continue
		}
		var c goTest
		var text []string
		for j := i + 2; j < len(words); j++ {
			w, last := words[j], false
			if k := strings.IndexAny(w, "`)"); k >= 0 {
				w, last = w[:k], true
			}
			if w == "" || strings.HasPrefix(w, "#") {
				break
			}
			switch {
			case strings.HasPrefix(w, "./"):
				w = strings.TrimSuffix(w, ",")
				if !strings.HasSuffix(w, "...") {
					w = strings.TrimSuffix(w, ".")
				}
				c.pkgs = append(c.pkgs, expandBraces(strings.TrimPrefix(w, "./"))...)
			case flagsWithValue[w] && j+1 < len(words):
				text = append(text, w)
				j++
				w = strings.Trim(strings.SplitN(words[j], "`", 2)[0], "'\"")
				switch text[len(text)-1] {
				case "-run":
					c.run = w
				case "-bench":
					c.bench = w
				}
				last = last || strings.Contains(words[j], "`")
			case strings.HasPrefix(w, "-"):
				if !goTestFlags[w] {
					c.flags = append(c.flags, strings.TrimPrefix(w, "-"))
				}
			default:
				last = true
				w = ""
			}
			if w != "" {
				text = append(text, w)
			}
			if last {
				break
			}
		}
		c.pkgs = withoutAll(c.pkgs)
		c.text = "go test " + strings.Join(text, " ")
		out = append(out, c)
	}
	return out
}

// withoutAll drops the ./... patterns: every package, nothing to check.
func withoutAll(pkgs []string) []string {
	var out []string
	for _, p := range pkgs {
		if !strings.Contains(p, "...") {
			out = append(out, p)
		}
	}
	return out
}

// pkgTests is what a package's test files declare: its tests and
// benchmarks, and its own flags by name.
type pkgTests struct {
	tests, benchmarks []string
	flags             map[string]bool
}

var (
	testFunc = regexp.MustCompile(`(?m)^func (Test\w*|Benchmark\w*|Example\w*|Fuzz\w*)\(`)
	flagDecl = regexp.MustCompile(`flag\.(?:Bool|String|Int|Duration)\("([^"]+)"`)
)

// readTests reads the test functions and the flags of the _test.go files
// in dir.
func readTests(dir string) (pkgTests, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return pkgTests{}, err
	}
	if len(files) == 0 {
		return pkgTests{}, os.ErrNotExist
	}
	p := pkgTests{flags: map[string]bool{}}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return pkgTests{}, err
		}
		for _, m := range testFunc.FindAllStringSubmatch(string(b), -1) {
			if strings.HasPrefix(m[1], "Benchmark") {
				p.benchmarks = append(p.benchmarks, m[1])
			} else {
				p.tests = append(p.tests, m[1])
			}
		}
		for _, m := range flagDecl.FindAllSubmatch(b, -1) {
			p.flags[string(m[1])] = true
		}
	}
	return p, nil
}

// matches says whether pattern, as go test reads -run and -bench (its
// first element, before any /), matches one of names.
func (p pkgTests) matches(t *testing.T, cmd, pattern string, names []string) bool {
	t.Helper()
	top := strings.SplitN(pattern, "/", 2)[0]
	if _, err := regexp.Compile(top); err != nil {
		t.Errorf("README.md shows %q, whose pattern %q is no regular expression: %v", cmd, pattern, err)
		return true
	}
	// Each alternative must name a test: one that names none (a test
	// renamed since) would leave the line running less than it says.
	for _, alt := range alternatives(top) {
		re, err := regexp.Compile(alt)
		if err != nil || !slices.ContainsFunc(names, re.MatchString) {
			return false
		}
	}
	return true
}

// alternatives splits a regular expression at its top-level |s, those
// outside parentheses and brackets.
func alternatives(re string) []string {
	var out []string
	depth, class, start := 0, false, 0
	for i := 0; i < len(re); i++ {
		switch c := re[i]; {
		case c == '\\':
			i++ // the escaped character
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, re[start:i])
			start = i + 1
		}
	}
	return append(out, re[start:])
}

// TestRunPatternAlternatives: a -run pattern of alternatives holds only
// when each names a test, so a README line naming a renamed test beside
// a live one fails; alternatives inside a group or a class are not split.
func TestRunPatternAlternatives(t *testing.T) {
	p := pkgTests{tests: []string{"TestAgreement", "TestTuningFolds", "TestA1"}}
	for _, c := range []struct {
		pattern string
		want    bool
	}{
		{"TestAgreement$|TestTuningFolds$", true},
		{"TestAgreement$|TestCoherenceAgreement", false},
		{"Test(Agreement|Nothing)$", true},
		{"TestA[1|2]", true},
		{"TestNothing", false},
	} {
		if got := p.matches(t, "go test -run '"+c.pattern+"'", c.pattern, p.tests); got != c.want {
			t.Errorf("%q: matches %v, want %v", c.pattern, got, c.want)
		}
	}
	if got := alternatives(`a\|b|(c|d)|[e|f]`); !slices.Equal(got, []string{`a\|b`, `(c|d)`, `[e|f]`}) {
		t.Errorf("alternatives split %q", got)
	}
}
