package localconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// TestBlame: a message about a flag's value names where the value came
// from when that was not the command line.
func TestBlame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rubric.yaml")
	if err := os.WriteFile(path, []byte("# settings\nformat: xml\nrubric: nope\nmax-rows: -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, args, env, key, msg, want string
	}{
		{"from the file, named in the message", "", "", "", `unknown --format "xml": use text or json`,
			`config PATH:2: unknown format "xml": use text or json`},
		{"from the file, with the key given", "", "", "rubric", `no rubric "nope"`,
			`config PATH:3: rubric: no rubric "nope"`},
		{"a longer flag is not the key", "", "", "", `--max-rows -1: give 0 for every tool (see --max-rows-x)`,
			`config PATH:4: max-rows -1: give 0 for every tool (see --max-rows-x)`},
		{"from the command line", "--format=xml", "", "", `unknown --format "xml"`, `unknown --format "xml"`},
		{"from the environment", "", "RUBRIC_FORMAT", "", `unknown --format "xml"`, `RUBRIC_FORMAT (from the environment): unknown --format "xml"`},
		{"a duration from the environment", "", "RUBRIC_JUDGE_TIMEOUT", "", `asking tdqs.tool about "x": the judge plugin "heuristic" did not answer ask within 1ms: raise --judge-timeout`,
			`RUBRIC_JUDGE_TIMEOUT (from the environment) is 1ms: asking tdqs.tool about "x": the judge plugin "heuristic" did not answer ask within 1ms: raise --judge-timeout`},
		{"the variable named already", "", "RUBRIC_MAX_ROWS", "", `RUBRIC_MAX_ROWS (from the environment) is 1ms: --max-rows takes a whole number`,
			`RUBRIC_MAX_ROWS (from the environment) is 1ms: --max-rows takes a whole number`},
		{"a string's variable named already", "", "RUBRIC_FORMAT", "", `RUBRIC_FORMAT (from the environment): --format takes text or json`,
			`RUBRIC_FORMAT (from the environment): --format takes text or json`},
		{"a default", "", "", "", `--workers -1: no`, `--workers -1: no`},
		{"no flag", "", "", "", `no such server`, `no such server`},
		{"the file named already", "", "", "", `config PATH:2: format is a map, but it takes a single value (as --format)`,
			`config PATH:2: format is a map, but it takes a single value (as --format)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env == "RUBRIC_FORMAT" {
				t.Setenv(tc.env, "xml")
			} else if tc.env != "" {
				t.Setenv(tc.env, "1ms")
			}
			flags := pflag.NewFlagSet("score", pflag.ContinueOnError)
			for _, f := range []string{"format", "rubric", "max-rows", "workers"} {
				flags.String(f, "", "")
			}
			flags.Duration("judge-timeout", 0, "")
			if tc.args != "" {
				if err := flags.Parse([]string{tc.args}); err != nil {
					t.Fatal(err)
				}
			}
			v := viper.New()
			v.SetConfigType("yaml")
			if err := Read(v, path, Keys{"format": {"string"}, "rubric": {"string"}, "max-rows": {"string"}, "workers": {"string"}}); err != nil {
				t.Fatal(err)
			}
			msg := replacePath(tc.msg, path)
			if got, want := Blame(v, flags, tc.key, msg), replacePath(tc.want, path); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

func replacePath(s, path string) string { return strings.ReplaceAll(s, "PATH", path) }
