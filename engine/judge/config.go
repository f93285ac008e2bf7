package judge

import (
	"fmt"
	"path/filepath"
	"strings"
)

// NewConfig is the configuration a user asks of a judge: the model, the
// options given as KEY=VALUE, a base URL (the base_url option) and a
// replay judge's answers file (the answers option, made absolute, since
// the plugin does not share the caller's working directory). An empty
// base URL or answers path sets nothing.
func NewConfig(model string, options []string, baseURL, answers string) (Config, error) {
	cfg := Config{Model: model, Options: map[string]string{}}
	for _, kv := range options {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return cfg, fmt.Errorf("--judge-option %q: want KEY=VALUE, such as temperature=0", kv)
		}
		cfg.Options[k] = v
	}
	if baseURL != "" {
		cfg.Options["base_url"] = baseURL
	}
	if answers != "" {
		abs, err := filepath.Abs(answers)
		if err != nil {
			return cfg, err
		}
		cfg.Options["answers"] = abs
	}
	return cfg, nil
}
