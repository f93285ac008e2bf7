package main

import (
	"strings"
	"testing"

	"github.com/spf13/viper"
)

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
