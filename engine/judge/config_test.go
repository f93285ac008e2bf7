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
