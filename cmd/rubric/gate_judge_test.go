package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/gate"
)

// TestJudgeDiff: the gate compares each side's judge settings as a
// config file writes them, only those no flag or variable gives, and
// judge options as the judge is given them: the order of the options,
// and an option given twice (the later wins), make no difference.
func TestJudgeDiff(t *testing.T) {
	all := judgeKeys
	for _, c := range []struct {
		name       string
		keys       []string
		base, head string
		want       []gate.SettingChange
	}{
		{"the same", all, "judge: openai\nmodel: gpt-4o\n", "judge: openai\nmodel: gpt-4o\n", nil},
		{"judge", all, "judge: openai\n", "judge: heuristic\n", []gate.SettingChange{{Key: "judge", Base: "openai", Head: "heuristic"}}},
		{"settings in the judge's reference", all, "judge: openai:model=a\n", "judge: openai:model=b\n", []gate.SettingChange{{Key: "judge", Base: "openai:model=a", Head: "openai:model=b"}}},
		{"a model and a base URL the head adds", all, "judge: openai\n", "judge: openai\nmodel: cheap\nbase-url: http://127.0.0.1:9/v1\n",
			[]gate.SettingChange{{Key: "model", Head: "cheap"}, {Key: "base-url", Head: "http://127.0.0.1:9/v1"}}},
		{"a judge the head leaves out", all, "judge: openai\n", "rubric: tdqs\n", []gate.SettingChange{{Key: "judge", Base: "openai"}}},
		{"options in another order", all, "judge-option: [seed=7, temperature=0]\n", "judge-option: [temperature=0, seed=7]\n", nil},
		{"an option given twice", all, "judge-option: [temperature=0]\n", "judge-option: [temperature=1, temperature=0]\n", nil},
		{"one option as one word", all, "judge-option: temperature=0\n", "judge-option: [temperature=0]\n", nil},
		{"an option changed", all, "judge-option: [seed=7, temperature=0]\n", "judge-option: [seed=7, temperature=1]\n",
			[]gate.SettingChange{{Key: "judge-option", Base: "seed=7,temperature=0", Head: "seed=7,temperature=1"}}},
		{"answers", all, "answers: a.jsonl\n", "answers: b.jsonl\n", []gate.SettingChange{{Key: "answers", Base: "a.jsonl", Head: "b.jsonl"}}},
		{"a key a flag gives is not compared", []string{"model"}, "judge: openai\nmodel: m\n", "judge: heuristic\nmodel: m\n", nil},
		{"operational settings do not count", all, "judge: openai\nconcurrency: 4\njudge-rate: 10\n", "judge: openai\nconcurrency: 1\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			read := func(name, text string) judgeValues {
				path := filepath.Join(dir, name)
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				v, err := configJudge(path, c.keys)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			got := judgeDiff(c.keys, read("base.yaml", c.base), read("head.yaml", c.head))
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestConfigJudgeRefuses: a value viper would not read as the setting is
// refused with its line, rather than compared as something else.
func TestConfigJudgeRefuses(t *testing.T) {
	for _, text := range []string{"judge:\n  name: openai\n", "judge-option:\n  temperature: 0\n", "judge: [openai\n"} {
		path := filepath.Join(t.TempDir(), "rubric.yaml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := configJudge(path, judgeKeys); err == nil {
			t.Errorf("%q: read without an error", text)
		}
	}
}

// TestConfigNotYAML: the gate's two readers of a side's config file, its
// rubric's and its judge settings', say the same of a file that is not
// YAML, so the rubric note and the judge note cannot drift apart.
func TestConfigNotYAML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rubric.yaml")
	if err := os.WriteFile(path, []byte("judge: [openai\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, rerr := configRubric(path)
	_, jerr := configJudge(path, judgeKeys)
	if rerr == nil || jerr == nil {
		t.Fatalf("read without an error: rubric %v, judge %v", rerr, jerr)
	}
	if rerr.Error() != jerr.Error() || !strings.HasPrefix(rerr.Error(), "not a config file: ") {
		t.Errorf("the readers differ or do not say it is no config file:\nrubric: %v\njudge:  %v", rerr, jerr)
	}
}
