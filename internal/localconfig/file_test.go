package localconfig

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/viper"
)

func TestSearch(t *testing.T) {
	write := func(path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("rubric: tdqs\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name      string
		files     []string // relative to the test's root: wd/ is the working directory, xdg/ the config home
		wantPath  string
		wantUser  string
		wantLocal bool
	}{
		{name: "none"},
		{name: "the user's", files: []string{"xdg/rubric/rubric.yml"}, wantPath: "xdg/rubric/rubric.yml", wantUser: "xdg/rubric/rubric.yml"},
		{name: "the working directory's first", files: []string{"wd/rubric.yaml", "xdg/rubric/rubric.yaml"}, wantPath: "rubric.yaml", wantUser: "xdg/rubric/rubric.yaml", wantLocal: true},
		{name: ".yaml before .yml", files: []string{"wd/rubric.yml", "wd/rubric.yaml"}, wantPath: "rubric.yaml", wantUser: "xdg/rubric/rubric.yaml", wantLocal: true},
		{name: "a plain rubric is not a config", files: []string{"wd/rubric", "wd/rubric.yaml/x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range tc.files {
				write(filepath.Join(root, f))
			}
			if err := os.MkdirAll(filepath.Join(root, "wd"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Chdir(filepath.Join(root, "wd"))
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "xdg"))
			abs := func(p string) string {
				if p == "" || p == "rubric.yaml" || p == "rubric.yml" {
					return p
				}
				return filepath.Join(root, p)
			}
			path, user, local := Search()
			if path != abs(tc.wantPath) || (path != "" && user != abs(tc.wantUser)) || local != tc.wantLocal {
				t.Errorf("Search() = %q, %q, %v; want %q, %q, %v", path, user, local, abs(tc.wantPath), abs(tc.wantUser), tc.wantLocal)
			}
		})
	}
}

func TestRead(t *testing.T) {
	known := Keys{
		"rubric": {"string"}, "judge": {"string"}, "model": {"string"}, "base-url": {"string"},
		"judge-option": {"stringArray"}, "workers": {"int"}, "no-cache": {"bool"}, "timeout": {"duration"},
		"both": {"string", "stringArray"},
	}
	for _, tc := range []struct {
		name, yaml, err string
	}{
		{name: "flags and config-only keys", yaml: "rubric: tdqs\nheaders:\n  X-A: b\nplugins: {}\n"},
		{name: "every type", yaml: "model: 4\njudge-option: [a=b, c=d]\nworkers: 0x10\nno-cache: true\ntimeout: 5m\nboth: [a]\n"},
		{name: "strings viper reads", yaml: "workers: \"4\"\nno-cache: \"false\"\ntimeout: \"0\"\nboth: a\n"},
		{name: "a key alone sets nothing", yaml: "judge:\nmodel: m\n"},
		{name: "case", yaml: "Rubric: tdqs\n"},
		{name: "a typo", yaml: "rubric: tdqs\nrubrc: tdqs\n", err: `config CONFIG:2: unknown key "rubrc" (did you mean "rubric"?); the keys are the long flags' names, plus headers, plugins and prices`},
		{name: "nothing near", yaml: "zzzzzzzz: 1\n", err: `config CONFIG:1: unknown key "zzzzzzzz"; the keys are the long flags' names, plus headers, plugins and prices`},
		{name: "a map of top-level keys", yaml: "rubric: tdqs\njudge:\n  model: gpt-4.1-mini\n",
			err: `config CONFIG:2: judge is a map (model:), but it takes a single value (as --judge); model is a key of its own: write model: at the top level`},
		{name: "a map of two", yaml: "judge:\n  name: openai\n  model: m\n  base-url: u\n",
			err: `config CONFIG:1: judge is a map (name: model: base-url:), but it takes a single value (as --judge); model, base-url are keys of their own: write model:, base-url: at the top level`},
		{name: "a map of other keys", yaml: "judge:\n  name: openai\n",
			err: `config CONFIG:1: judge is a map (name:), but it takes a single value (as --judge); write it on one line, as judge: VALUE`},
		{name: "a list for one value", yaml: "model: [a, b]\n", err: `config CONFIG:1: model is a list of 2, but it takes a single value (as --model)`},
		{name: "a word for a list", yaml: "judge-option: temperature=0\n"},
		{name: "words for a list", yaml: "judge-option: Authorization=Bearer x\n",
			err: `config CONFIG:1: judge-option is "Authorization=Bearer x", but it takes a list of single values (as --judge-option), and a value of several words would be split at its spaces; write it as a list, as judge-option: ["Authorization=Bearer x"] for one value`},
		{name: "a list of maps", yaml: "judge-option:\n  - temperature: 0\n", err: `config CONFIG:1: judge-option is a list holding a list or a map, but it takes a list of single values (as --judge-option)`},
		{name: "not a number", yaml: "workers: four\n", err: `config CONFIG:1: workers is "four", but it takes a whole number (as --workers)`},
		{name: "yes is no bool", yaml: "no-cache: yes\n", err: `config CONFIG:1: no-cache is "yes", but it takes true or false (as --no-cache)`},
		{name: "a duration without its unit", yaml: "timeout: 30\n", err: `config CONFIG:1: timeout is "30", but it takes a duration such as 30s or 5m (as --timeout)`},
		{name: "a map of either", yaml: "both: {a: b}\n", err: `config CONFIG:1: both is a map (a:), but it takes a single value or a list of single values (as --both); write it on one line, as both: VALUE`},
		{name: "headers as a list", yaml: "headers: [a]\n", err: `config CONFIG:1: headers is a list of 1, but it takes a map of names to values`},
		{name: "an alias", yaml: "x: &a {model: m}\n", err: `config CONFIG:1: unknown key "x"; the keys are the long flags' names, plus headers, plugins and prices`},
		{name: "a key indented under a value", yaml: "rubric: tdqs\n  model: m\n",
			err: `config CONFIG:2:8: not valid YAML: mapping values are not allowed in this context (a second ": " on one line, or a key indented deeper than the keys above it: quote a value that holds ": ", or line the key up with the others)`},
		{name: "two colons on a line", yaml: "model: a: b\n",
			err: `config CONFIG:1:9: not valid YAML: mapping values are not allowed in this context (a second ": " on one line, or a key indented deeper than the keys above it: quote a value that holds ": ", or line the key up with the others)`},
		{name: "a quote not closed", yaml: "rubric: tdqs\nmodel: \"m\n",
			err: `config CONFIG:2:8: not valid YAML: found unexpected end of stream (a quote opened here is not closed)`},
		{name: "a list not closed", yaml: "judge-option: [a=b\n",
			err: `config CONFIG:1:15: not valid YAML: did not find expected ',' or ']' (a list opened with [ is not closed with ])`},
		{name: "a tab", yaml: "headers:\n\tX-A: b\n",
			err: `config CONFIG:2:1: not valid YAML: found character that cannot start any token (indent with spaces, not tabs)`},
		{name: "a list", yaml: "- rubric: tdqs\n", err: `config CONFIG:1:1: the file holds a list holding a list or a map; a config file is a map of keys, such as rubric: tdqs`},
		{name: "a word", yaml: "tdqs\n", err: `config CONFIG:1:1: the file holds "tdqs"; a config file is a map of keys, such as rubric: tdqs`},
		{name: "only comments", yaml: "# nothing yet\n"},
		{name: "a price table", yaml: "prices:\n  date: 2026-12-01\n  source: qa\n  models:\n    gpt-test: {input: 0.15, cached_input: 0, output: 1, batch_discount: 0.5}\n    other:\n"},
		{name: "a price not a number", yaml: "prices:\n  date: \"2026-12-01\"\n  source: qa\n  models:\n    gpt-test: {input: \"abc\", output: 0.6}\n",
			err: `config CONFIG:5: prices.models.gpt-test.input is "abc", which is not a number (US dollars per million tokens)`},
		{name: "a price's key misspelt", yaml: "prices:\n  date: d\n  source: s\n  models:\n    gpt-test:\n      input: 1\n      ouput: 2\n",
			err: `config CONFIG:7: prices.models.gpt-test.ouput: unknown key (did you mean "output"?); a model's prices are input, cached_input, output, batch_discount`},
		{name: "a table's key misspelt", yaml: "prices:\n  date: d\n  sources: s\n",
			err: `config CONFIG:3: prices.sources: unknown key (did you mean "source"?); a price table's keys are date, source, models`},
		{name: "models as a list", yaml: "prices:\n  models: [gpt-test]\n",
			err: `config CONFIG:2: prices.models is a list of 1, but it takes a map of model names to their prices; write prices: {date, source, models: {MODEL: {input, cached_input, output, batch_discount}}}, in US dollars per million tokens`},
		{name: "a model's price alone", yaml: "prices:\n  models:\n    gpt-test: 0.15\n",
			err: `config CONFIG:3: prices.models.gpt-test is "0.15", but it takes a map of prices (input, cached_input, output, batch_discount); write prices: {date, source, models: {MODEL: {input, cached_input, output, batch_discount}}}, in US dollars per million tokens`},
		{name: "a discount as text", yaml: "prices:\n  models:\n    m: {batch_discount: half}\n",
			err: `config CONFIG:3: prices.models.m.batch_discount is "half", which is not a number (a fraction below 1 taken off every price)`},
		{name: "an alias's value", yaml: "headers: &h {X-A: b}\nmodel: *h\n", err: `config CONFIG:2: model is a map (X-A:), but it takes a single value (as --model); write it on one line, as model: VALUE`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rubric.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			v := viper.New()
			v.SetConfigType("yaml")
			err := Read(v, path, known)
			want := ""
			if tc.err != "" {
				want = "config " + path + tc.err[len("config CONFIG"):]
			}
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != want {
				t.Errorf("error %q, want %q", got, want)
			}
		})
	}
}
