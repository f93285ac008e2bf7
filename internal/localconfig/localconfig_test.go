package localconfig

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-1", "OTHER": "o-2", "BLANK": "  "}
	getenv := func(k string) string { return env[k] }
	file := map[string]bool{"base-url": true, "judge-option": true, "plugins": true, "headers": true}
	flags := map[string]bool{}
	tests := []struct {
		name    string
		s       Settings
		wantErr string
	}{
		{name: "nothing from the file", s: Settings{FromFile: flags, Judge: "openai", BaseURL: "http://evil/v1"}},
		{name: "base URL from the file with a key", s: Settings{FromFile: file, Judge: "openai", BaseURL: "http://u:p@evil/v1?token=t"},
			wantErr: "sets base_url http://u:[redacted]@evil/v1?token=[redacted], and OPENAI_API_KEY holds a key the openai judge would send there"},
		{name: "base URL from the file's judge options", s: Settings{FromFile: file, Judge: "openai", JudgeOptions: []string{"base_url=http://evil/v1"}},
			wantErr: "sets base_url http://evil/v1"},
		{name: "the flag's base URL overrides the file's options", s: Settings{FromFile: map[string]bool{"judge-option": true}, Judge: "openai", BaseURL: "http://mine/v1", JudgeOptions: []string{"base_url=http://evil/v1"}}},
		{name: "no key to send", s: Settings{FromFile: file, Judge: "anthropic", BaseURL: "http://localhost:11434"}},
		{name: "a blank key is none", s: Settings{FromFile: file, Judge: "openai", BaseURL: "http://evil/v1", JudgeOptions: []string{"api_key_env=BLANK"}}},
		{name: "the key variable named by the user", s: Settings{FromFile: map[string]bool{"base-url": true}, Judge: "anthropic", BaseURL: "http://evil", JudgeOptions: []string{"api_key_env=OTHER"}},
			wantErr: "OTHER holds a key the anthropic judge would send there"},
		{name: "a keyless judge", s: Settings{FromFile: file, Judge: "heuristic", BaseURL: "http://evil/v1"}},
		// A judge's own settings (--judge openai:base_url=...) come from the
		// file when the judge setting does, and override the others.
		{name: "base URL in the file's judge reference", s: Settings{FromFile: map[string]bool{"judge": true}, Judge: "openai", JudgeSettings: []string{"model=m", "base_url=http://evil/v1"}},
			wantErr: "sets base_url http://evil/v1, and OPENAI_API_KEY holds a key"},
		{name: "base URL in the flag's judge reference", s: Settings{FromFile: map[string]bool{"base-url": true}, Judge: "openai", BaseURL: "http://evil/v1", JudgeSettings: []string{"base_url=http://mine/v1"}}},
		{name: "api_key_env in the file's judge reference", s: Settings{FromFile: map[string]bool{"judge": true}, Judge: "openai", JudgeSettings: []string{"api_key_env=OTHER"}},
			wantErr: "sets api_key_env OTHER, which is set"},
		{name: "an external judge", s: Settings{FromFile: file, Judge: "./my-judge", BaseURL: "http://evil/v1"},
			wantErr: `for the judge "./my-judge", which may send it a credential`},
		{name: "api_key_env from the file", s: Settings{FromFile: map[string]bool{"judge-option": true}, Judge: "openai", JudgeOptions: []string{"api_key_env=OTHER"}},
			wantErr: "sets api_key_env OTHER, which is set"},
		{name: "api_key_env from the file, unset", s: Settings{FromFile: map[string]bool{"judge-option": true}, Judge: "openai", JudgeOptions: []string{"api_key_env=NONE"}}},
		{name: "claude's command from the file", s: Settings{FromFile: file, Judge: "claude-cli", JudgeOptions: []string{"command=./claude"}},
			wantErr: `the claude-cli judge's command "./claude"`},
		{name: "claude's command from a flag", s: Settings{FromFile: flags, Judge: "claude-cli", JudgeOptions: []string{"command=./claude"}}},
		{name: "a plugin passed a secret", s: Settings{FromFile: file, PluginEnv: map[string][]string{"mine": {"PATHX", "OTHER"}}},
			wantErr: "plugins.mine.env, which passes OTHER (it is set)"},
		{name: "plugins from the user", s: Settings{FromFile: flags, PluginEnv: map[string][]string{"mine": {"OTHER"}}}},
		{name: "a header that expands a secret", s: Settings{FromFile: file, Headers: map[string]string{"x-a": "plain", "x-debug": "Bearer ${OTHER}"}},
			wantErr: "headers.x-debug, which puts OTHER (it is set) in a header sent to the target"},
		{name: "a header that expands nothing set", s: Settings{FromFile: file, Headers: map[string]string{"authorization": "Bearer $NONE"}}},
		{name: "headers from the user", s: Settings{FromFile: flags, Headers: map[string]string{"authorization": "Bearer ${OTHER}"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.s.File = "rubric.yaml"
			err := Check(tt.s, getenv)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "--trust-local-config") {
				t.Fatalf("error %v, want one saying %q and how to consent", err, tt.wantErr)
			}
			for _, secret := range []string{"sk-1", "o-2"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("the error shows %s", secret)
				}
			}
		})
	}
}
