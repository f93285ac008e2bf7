package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/readmetest"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestReadmeJudgeOptions holds the judges table of README.md ("Judges,
// questions and TDQS") to the built-in judges: each has a row, and the
// row's last column names every option the judge accepts, as its refusal
// of an unknown option lists them, or says "none" for a judge that takes
// none.
func TestReadmeJudgeOptions(t *testing.T) {
	readme := readmetest.Text(t)
	rows := map[string]string{}
	for _, line := range strings.Split(readme, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 6 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := strings.Fields(strings.Trim(strings.TrimSpace(cells[1]), "`"))[0]
		name = strings.TrimSuffix(name, "`")
		rows[name] = cells[len(cells)-2]
	}
	checked := 0
	for _, b := range builtins {
		if b.Judge == nil {
			continue
		}
		checked++
		row, ok := rows[b.Name]
		if !ok {
			t.Errorf("README's judges table has no row for the built-in judge %s", b.Name)
			continue
		}
		c, ok := b.Judge().(judge.OptionChecker)
		if !ok {
			t.Errorf("the judge %s checks no options", b.Name)
			continue
		}
		err := c.CheckOptions(map[string]string{"no_such_option_here": "1"})
		if err == nil {
			t.Errorf("the judge %s accepts any option", b.Name)
			continue
		}
		_, list, ok := strings.Cut(err.Error(), "its options are ")
		if !ok {
			if strings.TrimSpace(row) != "none" {
				t.Errorf("the judge %s takes no options (%v), but README's table lists %q", b.Name, err, strings.TrimSpace(row))
			}
			continue
		}
		for _, opt := range strings.Split(list, ", ") {
			if !strings.Contains(row, "`"+opt+"`") {
				t.Errorf("README's judges table does not name the %s judge's option %s (its row ends %q)", b.Name, opt, strings.TrimSpace(row))
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d built-in judges checked", checked)
	}
}

// TestReadmeStatusNamesEveryCommand holds README.md's status paragraph,
// which says what works today, to the commands rubric has (but the
// GitHub Action's steps, which a user does not call, and cobra's own) and
// to the built-in rubrics.
func TestReadmeStatusNamesEveryCommand(t *testing.T) {
	readme := readmetest.Text(t)
	_, status, ok := strings.Cut(readme, "\nStatus: ")
	if !ok {
		t.Fatal(`README.md has no "Status: " paragraph`)
	}
	status, _, _ = strings.Cut(status, "\n\n")
	a := &app{v: viper.New()}
	for _, c := range a.rootCmd().Commands() {
		switch c.Name() {
		case "help", "completion", "github":
			continue
		}
		if c.Hidden {
			continue
		}
		if !strings.Contains(status, "`"+c.Name()+"`") {
			t.Errorf("README's status paragraph does not name the command %s", c.Name())
		}
	}
	all, err := rubrics.All()
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
	if len(all) < len(words) && !strings.Contains(status, words[len(all)]+" built-in rubrics") {
		t.Errorf("README's status paragraph does not say %q: rubric has %d built-in rubrics", words[len(all)]+" built-in rubrics", len(all))
	}
}

// TestReadmeExplainBlock holds the worked example's output in README.md
// (rubric explain --tool query on the postgres capture) to the one
// explain.txtar checks against the real command.
func TestReadmeExplainBlock(t *testing.T) {
	readme := readmetest.Text(t)
	_, block, ok := strings.Cut(readme, "\n```\nTool \"query\", ")
	if !ok {
		t.Fatal("README.md has no output block of rubric explain --tool query")
	}
	block, _, _ = strings.Cut("Tool \"query\", "+block, "```\n")
	ar, err := txtar.ParseFile("testdata/script/explain.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "query.txt" {
			if got := string(f.Data); got != block {
				t.Errorf("README's explain block differs from explain.txtar's query.txt, which the command prints:\nREADME:\n%s\nquery.txt:\n%s", block, got)
			}
			return
		}
	}
	t.Fatal("explain.txtar has no query.txt")
}

// TestRubricsShortNamesSubcommands: rubric --help's line for the rubrics
// group names what each of its subcommands does, so that a reader of the
// command list learns of diff and functions without opening the group.
func TestRubricsShortNamesSubcommands(t *testing.T) {
	a := &app{v: viper.New()}
	for _, c := range a.rootCmd().Commands() {
		if c.Name() != "rubrics" {
			continue
		}
		short := strings.ToLower(c.Short)
		for _, sub := range c.Commands() {
			if !strings.Contains(short, sub.Name()) {
				t.Errorf("the rubrics group's short help %q does not name its subcommand %s", c.Short, sub.Name())
			}
		}
		return
	}
	t.Fatal("no rubrics command")
}

// TestReadmeGoVersion: the Quick start names the Go that go.mod asks for.
func TestReadmeGoVersion(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var version string
	for _, line := range strings.Split(string(mod), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			version = strings.TrimSpace(v)
		}
	}
	if version == "" {
		t.Fatal("go.mod has no go line")
	}
	quick := readmetest.Section(t, "## Quick start")
	if want := "Go " + version + " or later"; !strings.Contains(quick, want) {
		t.Errorf("README's Quick start does not say %q, as go.mod's go line asks", want)
	}
}

// TestReadmeNamesScoreFlags: every flag of rubric score, the command the
// README is mostly about, and of the commands its sections before the
// client configurations show (explain, rescore, lock, verify, rubrics,
// test, plugins, cache, version) is named there as --NAME, so that a behaviour
// the README describes is reachable by the flag a user types (it once
// named two only by their Go fields, Target.StrictStdout and
// Target.FollowRedirects).
func TestReadmeNamesScoreFlags(t *testing.T) {
	readme := readmetest.Text(t)
	a := &app{v: viper.New()}
	found := false
	for _, c := range a.rootCmd().Commands() {
		switch c.Name() {
		case "score", "explain", "rescore", "lock", "verify", "rubrics", "test", "plugins", "cache", "version":
		default:
			continue
		}
		found = true
		for _, cmd := range append([]*cobra.Command{c}, c.Commands()...) {
			cmd.Flags().VisitAll(func(f *pflag.Flag) {
				if f.Name == "help" || f.Hidden {
					return
				}
				if !strings.Contains(readme, "--"+f.Name) {
					t.Errorf("README.md does not name the flag --%s of %s (%s)", f.Name, cmd.CommandPath(), f.Usage)
				}
			})
		}
	}
	if !found {
		t.Fatal("no score command")
	}
}

// docFiles are the documents a user follows command by command: the
// README, docs/ and the READMEs of the folders a newcomer opens first.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"../../README.md", "../../calibration/README.md", "../../plugins/README.md", "../../judges/README.md"}
	for _, pattern := range []string{"../../docs/*.md", "../../examples/*/README.md", "../../examples/*/*/README.md"} {
		more, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, more...)
	}
	return files
}

// docCommands are the rubric command lines in the fenced code blocks of
// a document (but its HCL and JSON blocks): each line's words from "rubric" on (or from the rubric of
// "go run ./cmd/rubric"), without its comment and without what follows
// "--", the server's own command.
func docCommands(text string) []string {
	var lines []string
	fenced, code := false, false
	for _, line := range strings.Split(text, "\n") {
		if info, ok := strings.CutPrefix(strings.TrimSpace(line), "```"); ok {
			fenced = !fenced
			// HCL and JSON blocks hold rubric blocks and names, not
			// command lines.
			code = fenced && info != "hcl" && info != "json"
			continue
		}
		if !code {
			// outside a block, the command lines in backquotes
			parts := strings.Split(line, "`")
			for i := 1; i < len(parts); i += 2 {
				if strings.HasPrefix(parts[i], "rubric ") {
					lines = append(lines, docCommands("```\n"+parts[i]+"\n```")...)
				}
			}
			continue
		}
		line, _, _ = strings.Cut(line, " #")
		for _, part := range strings.Split(line, "&&") {
			words := strings.Fields(part)
			for i, w := range words {
				if w != "rubric" && w != "./cmd/rubric" {
					continue
				}
				if i > 0 && words[i-1] != "$" && words[i-1] != "run" && words[i-1] != "-" && words[i-1] != "run:" {
					continue
				}
				rest := words[i+1:]
				if len(rest) > 0 && !commandWord(rest[0]) {
					// a diagram's or a message's "rubric (HCL)"
					break
				}
				for j, r := range rest {
					if r == "--" {
						rest = rest[:j]
						break
					}
				}
				lines = append(lines, strings.Join(rest, " "))
				break
			}
		}
	}
	return lines
}

// commandWord: w may follow "rubric" on a command line: a flag, or a
// word of lower-case letters and hyphens such as a command's name.
func commandWord(w string) bool {
	if strings.HasPrefix(w, "-") {
		return true
	}
	return strings.Trim(w, "abcdefghijklmnopqrstuvwxyz-") == ""
}

// TestDocCommandsUseRealFlags: every flag a document's rubric command
// line passes is a flag of the command it names (its own or inherited),
// and every word that names a command names one rubric has, so that a
// renamed or removed flag cannot stay in a document a reader copies
// from.
func TestDocCommandsUseRealFlags(t *testing.T) {
	a := &app{v: viper.New()}
	root := a.rootCmd()
	root.InitDefaultVersionFlag() // cobra adds --version as it runs
	checked := 0
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range docCommands(string(b)) {
			cmd := root
			words := strings.Fields(line)
			for len(words) > 0 {
				var sub *cobra.Command
				for _, c := range cmd.Commands() {
					if c.Name() == words[0] {
						sub = c
					}
				}
				if sub == nil {
					break
				}
				cmd, words = sub, words[1:]
			}
			if cmd == root {
				if len(words) > 0 && !strings.HasPrefix(words[0], "-") {
					t.Errorf("%s: %q: rubric has no command %q", file, "rubric "+line, words[0])
				}
			}
			checked++
			for _, w := range words {
				if !strings.HasPrefix(w, "--") || w == "--" {
					continue
				}
				name, _, _ := strings.Cut(strings.TrimPrefix(w, "--"), "=")
				name = strings.TrimRight(name, ".,;:)`")
				if name == "" || name == "help" {
					continue
				}
				if cmd.Flags().Lookup(name) == nil && cmd.InheritedFlags().Lookup(name) == nil {
					t.Errorf("%s: %q: %s has no flag --%s", file, "rubric "+line, cmd.CommandPath(), name)
				}
			}
		}
	}
	t.Logf("%d rubric command lines checked", checked)
	if checked < 50 {
		t.Errorf("only %d rubric command lines found in the documents: has their layout changed?", checked)
	}
}

// TestReadmeQuickStartMatchesCI holds the Quick start to .ci/run and the
// Makefile: it names every Debian package .ci/run installs, and every
// variable it calls "the Makefile's" is one the Makefile sets.
func TestReadmeQuickStartMatchesCI(t *testing.T) {
	quick := readmetest.Section(t, "## Quick start")
	run, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, line := range strings.Split(string(run), "\n") {
		_, pkg, ok := strings.Cut(line, "need+=(")
		if !ok {
			continue
		}
		pkg, _, _ = strings.Cut(pkg, ")")
		found++
		if !strings.Contains(quick, pkg) {
			t.Errorf("README's Quick start does not name %s, which .ci/run installs", pkg)
		}
	}
	if found < 4 {
		t.Fatalf("read %d packages from .ci/run's need+=(...) lines: has its layout changed?", found)
	}
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(quick, "the Makefile's `")
	for _, p := range parts[1:] {
		name, _, _ := strings.Cut(p, "`")
		if !strings.Contains(string(mk), "\n"+name+" = ") {
			t.Errorf("README's Quick start names the Makefile's %s, which the Makefile does not set", name)
		}
	}
}

// TestReadmeFuzzTargets: the Development block's line for make fuzz
// counts the targets the Makefile's fuzz rule runs.
func TestReadmeFuzzTargets(t *testing.T) {
	rule := fuzzRule(t)
	n := strings.Count(rule, " -fuzz ")
	dev := readmetest.Section(t, "## Development")
	for _, line := range strings.Split(dev, "\n") {
		if !strings.HasPrefix(line, "make fuzz ") {
			continue
		}
		if want := fmt.Sprintf("# %d fuzz targets", n); !strings.Contains(line, want) {
			t.Errorf("README's make fuzz line does not say %q: the Makefile's fuzz rule runs %d (%s)", want, n, strings.TrimSpace(line))
		}
		return
	}
	t.Fatal("README's Development block has no make fuzz line")
}

// fuzzRule is the Makefile's fuzz rule: its recipe's lines.
func fuzzRule(t *testing.T) string {
	t.Helper()
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	_, rule, ok := strings.Cut(string(mk), "\nfuzz:\n")
	if !ok {
		t.Fatal("the Makefile has no fuzz rule")
	}
	rule, _, _ = strings.Cut(rule, "\n\n")
	return rule
}

// TestMakeFuzzRunsEveryTarget: the Makefile's fuzz rule runs every
// Fuzz function of the module, each in its own package, so that a new
// target is not left out of make fuzz without a word.
func TestMakeFuzzRunsEveryTarget(t *testing.T) {
	rule := fuzzRule(t)
	found := 0
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := "./" + filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../../")))
		for _, line := range strings.Split(string(b), "\n") {
			name, ok := strings.CutPrefix(line, "func Fuzz")
			if !ok {
				continue
			}
			name, _, _ = strings.Cut(name, "(")
			found++
			want := fmt.Sprintf("$(GO) test %s -run '^$$' -fuzz '^Fuzz%s$$' $(FUZZ)", dir, name)
			if !strings.Contains(rule, want) {
				t.Errorf("%s: Fuzz%s is not run by the Makefile's fuzz rule: add the line\n\t%s", path, name, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("found no Fuzz function in the module: is the walk reading the module's root?")
	}
}

// TestReadmeNamesActionInputs: README's "In GitHub Actions" part of the
// gate section names every input and output of action.yml, in
// backquotes.
func TestReadmeNamesActionInputs(t *testing.T) {
	gate := readmetest.Section(t, "## The CI gate (`rubric gate`)")
	_, action, ok := strings.Cut(gate, "**In GitHub Actions**")
	if !ok {
		t.Fatal(`README's gate section has no "In GitHub Actions" paragraph`)
	}
	action, _, _ = strings.Cut(action, "**In GitLab CI**")
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	names := 0
	block := ""
	for _, line := range strings.Split(string(b), "\n") {
		if line == "inputs:" || line == "outputs:" {
			block = strings.TrimSuffix(line, ":")
			continue
		}
		if line != "" && !strings.HasPrefix(line, " ") {
			block = ""
		}
		name, ok := strings.CutSuffix(line, ":")
		if block == "" || !ok || !strings.HasPrefix(name, "  ") || strings.HasPrefix(name, "   ") {
			continue
		}
		name = strings.TrimSpace(name)
		names++
		if !strings.Contains(action, "`"+name+"`") {
			t.Errorf("README's In GitHub Actions paragraph does not name the action's %s %s", strings.TrimSuffix(block, "s"), name)
		}
	}
	if names < 10 {
		t.Fatalf("read %d inputs and outputs from action.yml: has its layout changed?", names)
	}
}

// TestReadmeLimitDefaults: each row of a README table that gives a flag
// of rubric score and its default ("| `--max-tools` | 10000 | ...") gives
// the default the flag has.
func TestReadmeLimitDefaults(t *testing.T) {
	a := &app{v: viper.New()}
	var score *cobra.Command
	for _, c := range a.rootCmd().Commands() {
		if c.Name() == "score" {
			score = c
		}
	}
	if score == nil {
		t.Fatal("no score command")
	}
	checked := 0
	for _, line := range strings.Split(readmetest.Text(t), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`--") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`-")
		want := strings.TrimSpace(cells[2])
		f := score.Flags().Lookup(name)
		if f == nil {
			f = score.InheritedFlags().Lookup(name)
		}
		if f == nil {
			t.Errorf("README's table names --%s, which rubric score has not", name)
			continue
		}
		checked++
		got := f.DefValue
		if w, err := time.ParseDuration(want); err == nil {
			if g, err := time.ParseDuration(got); err != nil || g != w {
				t.Errorf("README's table gives --%s the default %s; the flag's is %s", name, want, got)
			}
			continue
		}
		if got != want {
			t.Errorf("README's table gives --%s the default %s; the flag's is %s", name, want, got)
		}
	}
	if checked < 5 {
		t.Errorf("only %d flags with defaults found in README's tables: has the limits table changed?", checked)
	}
}
