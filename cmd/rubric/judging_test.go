package main

import (
	"strings"
	"testing"

	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/report"
)

// TestProgressBar draws the bar into a buffer: done/total, cache hits and
// tokens, and a clear line at the end.
func TestProgressBar(t *testing.T) {
	var b strings.Builder
	p := newProgressBar(&b, 0)
	p.update(ask.Progress{Done: 1, Total: 10, Stats: ask.Stats{CacheHits: 1}})
	p.update(ask.Progress{Done: 7, Total: 12, Stats: ask.Stats{CacheHits: 3, Tokens: report.Tokens{Input: 1000, Output: 234}}})
	p.finish()
	p.finish()
	out := b.String()
	for _, want := range []string{"asking · 3 cached · 1234 tokens", "7/12"} {
		if !strings.Contains(out, want) {
			t.Errorf("the bar lacks %q:\n%q", want, out)
		}
	}
}

func TestJudgeConfig(t *testing.T) {
	v := viper.New()
	v.Set("model", "m")
	v.Set("base-url", "http://localhost:11434/v1")
	v.Set("judge-option", []string{"temperature=0", "seed=7"})
	a := &app{v: v}
	cfg, err := a.judgeConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Model != "m" || cfg.Options["base_url"] != "http://localhost:11434/v1" || cfg.Options["temperature"] != "0" || cfg.Options["seed"] != "7" {
		t.Errorf("config %+v", cfg)
	}
	a.v.Set("judge-option", []string{"temperature"})
	if _, err := a.judgeConfig(); err == nil || !strings.Contains(err.Error(), "want KEY=VALUE") {
		t.Errorf("a malformed option: %v", err)
	}
}
