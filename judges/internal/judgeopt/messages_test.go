package judgeopt_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/anthropic"
	"github.com/rubricmcp/rubric/judges/claudecli"
	"github.com/rubricmcp/rubric/judges/internal/judgeopt"
	"github.com/rubricmcp/rubric/judges/openai"
	"github.com/rubricmcp/rubric/judges/replay"
)

// TestOptionMessagesSayHowToSetIt: a built-in judge's error about one of
// its options says how the user sets that option, in Setting's words
// (--judge-option KEY=VALUE, or in --judge NAME:KEY=VALUE), never by the
// bare key, which is no flag and no key of rubric.yaml: the api_key_env
// messages named --judge-option alone, and the replay judge's
// max_file_size error no way at all.
func TestOptionMessagesSayHowToSetIt(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("RUBRIC_TEST_UNSET_KEY", "")
	answers := filepath.Join("..", "..", "replay", "testdata", "weather.jsonl")
	cases := []struct {
		name    string
		judge   judge.Judge
		judgeIs string // its name, as Setting takes it
		options map[string]string
		key     string // the option the message is about
		example string // the value Setting shows
	}{
		{"openai: no key for the hosted API", openai.New(), openai.Name, nil, "api_key_env", "NAME"},
		{"openai: api_key_env names an unset variable", openai.New(), openai.Name, map[string]string{"api_key_env": "RUBRIC_TEST_UNSET_KEY"}, "api_key_env", "NAME"},
		{"openai: api_key_env holds a key", openai.New(), openai.Name, map[string]string{"api_key_env": "sk-not-a-name"}, "api_key_env", "NAME"},
		{"openai: a base URL with credentials", openai.New(), openai.Name, map[string]string{"base_url": "https://u:p@llm.example/v1"}, "api_key_env", "NAME"},
		{"openai: a timeout that is no duration", openai.New(), openai.Name, map[string]string{"timeout": "soon"}, "timeout", "DURATION"},
		{"anthropic: no key for the hosted API", anthropic.New(), anthropic.Name, nil, "api_key_env", "NAME"},
		{"anthropic: api_key_env names an unset variable", anthropic.New(), anthropic.Name, map[string]string{"api_key_env": "RUBRIC_TEST_UNSET_KEY"}, "api_key_env", "NAME"},
		{"anthropic: max_tokens below one", anthropic.New(), anthropic.Name, map[string]string{"max_tokens": "0"}, "max_tokens", "N"},
		{"replay: max_file_size that is no number", replay.New(), replay.Name, map[string]string{"answers": answers, "max_file_size": "big"}, "max_file_size", "BYTES"},
		{"replay: max_file_size of 0", replay.New(), replay.Name, map[string]string{"answers": answers, "max_file_size": "0"}, "max_file_size", "BYTES"},
		{"claude-cli: a command that is not there", claudecli.New(), claudecli.Name, map[string]string{"command": filepath.Join(t.TempDir(), "claude-nope")}, "command", "PATH"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.judge.Configure(context.Background(), judge.Config{Model: "m", Options: c.options})
			want := judgeopt.Setting(c.judgeIs, c.key, c.example)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Configure: %v\nwant it to say how to set %s: %s", err, c.key, want)
			}
		})
	}
}
