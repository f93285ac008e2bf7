package judge

import (
	"path/filepath"
	"reflect"
	"testing"
)

func TestNewConfig(t *testing.T) {
	abs, err := filepath.Abs("answers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name             string
		options          []string
		baseURL, answers string
		want             map[string]string
		err              string
	}{
		{name: "nothing", want: map[string]string{}},
		{name: "options and a base URL", options: []string{"temperature=0", "seed=7", "stop=a=b"}, baseURL: "http://localhost:11434/v1",
			want: map[string]string{"temperature": "0", "seed": "7", "stop": "a=b", "base_url": "http://localhost:11434/v1"}},
		{name: "the base URL flag wins over the option", options: []string{"base_url=http://a"}, baseURL: "http://b", want: map[string]string{"base_url": "http://b"}},
		{name: "answers made absolute", answers: "answers.jsonl", want: map[string]string{"answers": abs}},
		{name: "no =", options: []string{"temperature"}, err: `--judge-option "temperature": want KEY=VALUE, such as temperature=0`},
		{name: "no key", options: []string{"=0"}, err: `--judge-option "=0": want KEY=VALUE, such as temperature=0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := NewConfig("m", tc.options, tc.baseURL, tc.answers)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || cfg.Model != "m" || !reflect.DeepEqual(cfg.Options, tc.want) {
				t.Errorf("got %+v, %v; want options %v", cfg, err, tc.want)
			}
		})
	}
}

func TestSplitRef(t *testing.T) {
	for _, tc := range []struct {
		ref, name string
		settings  []string
	}{
		{"heuristic", "heuristic", nil},
		{"./judges/mine", "./judges/mine", nil},
		{`C:\judges\mine.exe`, `C:\judges\mine.exe`, nil},
		{"openai:model=gpt-4o", "openai", []string{"model=gpt-4o"}},
		{"openai:model=gpt-4o,base_url=http://127.0.0.1:8080/v1,temperature=0", "openai",
			[]string{"model=gpt-4o", "base_url=http://127.0.0.1:8080/v1", "temperature=0"}},
		{"./judges/mine:model=m", "./judges/mine", []string{"model=m"}},
	} {
		name, settings := SplitRef(tc.ref)
		if name != tc.name || !reflect.DeepEqual(settings, tc.settings) {
			t.Errorf("SplitRef(%q) = %q, %q; want %q, %q", tc.ref, name, settings, tc.name, tc.settings)
		}
	}
}

func TestConfigWith(t *testing.T) {
	abs, err := filepath.Abs("b.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	base := Config{Model: "flag-model", Options: map[string]string{"temperature": "0", "base_url": "http://flag"}}
	got, err := base.With([]string{"model=own", "base_url=http://own", "answers=b.jsonl", "seed=7"})
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Model: "own", Options: map[string]string{"temperature": "0", "base_url": "http://own", "answers": abs, "seed": "7"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("With: %+v, want %+v", got, want)
	}
	if base.Model != "flag-model" || base.Options["base_url"] != "http://flag" || len(base.Options) != 2 {
		t.Errorf("With changed the config it was called on: %+v", base)
	}
	if _, err := base.With([]string{"temperature"}); err == nil || err.Error() != `the judge setting "temperature": want KEY=VALUE, as in --judge openai:model=gpt-4o,temperature=0` {
		t.Errorf("a setting without '=': %v", err)
	}
}
