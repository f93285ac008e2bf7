package main

import (
	"os"
	"strings"
	"testing"

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
