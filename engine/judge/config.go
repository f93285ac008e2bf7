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

// SplitRef splits a judge reference as --judge takes it into the judge's
// name (a plugin's name or an executable's path) and the settings given
// with it: "openai:model=gpt-4o,base_url=http://127.0.0.1:8080/v1" is the
// openai judge with that model and base URL, whatever --model and
// --base-url say. A reference with no ':' followed by KEY=VALUE items is
// a name alone ("heuristic", "./judges/mine", "C:\judge.exe").
func SplitRef(ref string) (name string, settings []string) {
	name, rest, ok := strings.Cut(ref, ":")
	if !ok || !strings.Contains(rest, "=") {
		return ref, nil
	}
	return name, strings.Split(rest, ",")
}

// With returns c with a reference's settings (see SplitRef) over it:
// model sets the model, answers the replay judge's answers file (made
// absolute), anything else the option of that name. c itself is left as
// it was.
func (c Config) With(settings []string) (Config, error) {
	out := Config{Model: c.Model, Options: make(map[string]string, len(c.Options)+len(settings))}
	for k, v := range c.Options {
		out.Options[k] = v
	}
	for _, kv := range settings {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return c, fmt.Errorf("the judge setting %q: want KEY=VALUE, as in --judge openai:model=gpt-4o,temperature=0", kv)
		}
		switch k {
		case "model":
			out.Model = v
		case "answers":
			abs, err := filepath.Abs(v)
			if err != nil {
				return c, err
			}
			out.Options[k] = abs
		default:
			out.Options[k] = v
		}
	}
	return out, nil
}
