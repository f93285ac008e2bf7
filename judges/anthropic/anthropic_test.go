package anthropic_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/anthropic"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
)

// testKey is what the tests put in the environment as the API key.
const testKey = "sk-ant-api03-test0123456789abcdef"

var schema = `{"type":"object","properties":{"verdict":{"type":"string","enum":["ok","terse","missing"]},"reasons":{"type":"array","items":{"type":"string"}}},"required":["verdict","reasons"]}`

// suite describes the judge to the tests every hosted judge passes.
var suite = &judgetest.Suite{
	Name:      "anthropic",
	Version:   "1.0.0",
	New:       func() judge.Judge { return anthropic.New() },
	Model:     "claude-sonnet-4-5",
	KeyEnv:    "ANTHROPIC_API_KEY",
	KeyHeader: "X-Api-Key",
	Key:       testKey,
	Env:       map[string]string{"ANTHROPIC_API_KEY": testKey},
	Path:      "/v1/messages",
	Headers: map[string]string{
		"X-Api-Key":         testKey,
		"Anthropic-Version": "2023-06-01",
		"Authorization":     "",
		"User-Agent":        "rubric-judge-anthropic/1.0.0",
	},
	Reply: "message_tool_use.json",
	Answer: judge.Answer{
		JSON:   []byte(`{"verdict":"terse","reasons":["no parameter is described"]}`),
		Model:  "claude-sonnet-4-5-20250929",
		Tokens: judge.Tokens{Input: 472, Output: 57},
	},
	Question: judgetest.Question(schema),

	AnswerText:  "no parameter is described",
	Refusal:     "error_401.json",
	RefusalText: "invalid x-api-key",
}

// TestShared runs the cases that are the same for every hosted judge.
func TestShared(t *testing.T) { suite.RunShared(t) }

func TestAnswers(t *testing.T) {
	suite.RunAnswers(t, judgetest.AnswerCase{Fixture: "message_text_and_tool_use.json", Want: judge.Answer{
		JSON:   []byte(`{"verdict":"ok","reasons":[]}`),
		Model:  "claude-3-5-haiku-20241022",
		Tokens: judge.Tokens{Input: 390, Output: 41},
	}}, judgetest.AnswerCase{Fixture: "message_cache_read.json", Want: judge.Answer{
		// input_tokens counts only what follows the last breakpoint:
		// the judge's input is every token, read and written included.
		JSON:   []byte(`{"verdict":"terse","reasons":["no parameter is described"]}`),
		Model:  "claude-sonnet-4-5-20250929",
		Tokens: judge.Tokens{Input: 212 + 1864 + 0, Output: 57, Cached: 1864},
	}}, judgetest.AnswerCase{Fixture: "message_cache_write.json", Want: judge.Answer{
		JSON:   []byte(`{"verdict":"terse","reasons":["no parameter is described"]}`),
		Model:  "claude-sonnet-4-5-20250929",
		Tokens: judge.Tokens{Input: 212 + 1864, Output: 57},
	}})
}

func TestRequest(t *testing.T) {
	var wantSchema any
	if err := json.Unmarshal([]byte(schema), &wantSchema); err != nil {
		t.Fatal(err)
	}
	user := map[string]any{"type": "text", "text": "Tool: search_issues. Description: Searches."}
	shared := map[string]any{"type": "text", "text": "The server's tools: search_issues, get_issue.\n\n", "cache_control": map[string]any{"type": "ephemeral"}}
	cases := []struct {
		name    string
		opts    map[string]string
		context string
		// content is the user message's blocks: the shared context,
		// closed by a cache breakpoint, before the question's own text.
		content []any
		check   func(t *testing.T, body map[string]any)
	}{
		{"defaults", nil, "", []any{user}, func(t *testing.T, body map[string]any) {
			if body["max_tokens"] != 4096.0 {
				t.Errorf("max_tokens %v, want the default 4096", body["max_tokens"])
			}
			if _, ok := body["temperature"]; ok {
				t.Errorf("temperature sent though not given: %v", body["temperature"])
			}
		}},
		{"shared context", nil, "The server's tools: search_issues, get_issue.\n\n", []any{shared, user}, func(*testing.T, map[string]any) {}},
		{"sampling", map[string]string{"temperature": "0.2", "max_tokens": "1024"}, "", []any{user}, func(t *testing.T, body map[string]any) {
			if body["temperature"] != 0.2 || body["max_tokens"] != 1024.0 {
				t.Errorf("temperature %v, max_tokens %v", body["temperature"], body["max_tokens"])
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := *suite
			s.Question.Context = c.context
			body := s.Sent(t, c.opts).JSON(t)
			wantSystem := []any{map[string]any{"type": "text", "text": "You grade tool descriptions.", "cache_control": map[string]any{"type": "ephemeral"}}}
			if !reflect.DeepEqual(body["system"], wantSystem) {
				t.Errorf("system %v, want the system prompt closed by a cache breakpoint", body["system"])
			}
			wantMsgs := []any{map[string]any{"role": "user", "content": c.content}}
			if !reflect.DeepEqual(body["messages"], wantMsgs) {
				t.Errorf("messages: %v", body["messages"])
			}
			tools, _ := body["tools"].([]any)
			if len(tools) != 1 {
				t.Fatalf("tools: %v", body["tools"])
			}
			tool, _ := tools[0].(map[string]any)
			if tool["name"] != "answer" || tool["description"] == "" || !reflect.DeepEqual(tool["input_schema"], wantSchema) {
				t.Errorf("tool: %v", tool)
			}
			if !reflect.DeepEqual(body["tool_choice"], map[string]any{"type": "tool", "name": "answer"}) {
				t.Errorf("tool_choice: %v", body["tool_choice"])
			}
			c.check(t, body)
		})
	}
}

func TestConfigure(t *testing.T) {
	suite.RunConfigure(t, []judgetest.ConfigureCase{
		{Name: "hosted with key", Model: "claude-sonnet-4-5", Env: map[string]string{"ANTHROPIC_API_KEY": testKey},
			Want: judge.Identity{Plugin: "anthropic", Version: "1.0.0", Provider: "anthropic", Model: "claude-sonnet-4-5"}},
		{Name: "params", Model: "claude-sonnet-4-5", Opts: map[string]string{"temperature": "0", "max_tokens": "2048", "timeout": "45s"}, Env: map[string]string{"ANTHROPIC_API_KEY": testKey},
			Want: judge.Identity{Plugin: "anthropic", Version: "1.0.0", Provider: "anthropic", Model: "claude-sonnet-4-5",
				Params: map[string]any{"temperature": 0.0, "max_tokens": int64(2048)}}},
		{Name: "gateway without a key", Model: "claude-sonnet-4-5", Opts: map[string]string{"base_url": "http://llm-gateway.internal:4000"}, Env: map[string]string{"ANTHROPIC_API_KEY": ""},
			Want: judge.Identity{Plugin: "anthropic", Version: "1.0.0", Provider: "llm-gateway.internal:4000", Model: "claude-sonnet-4-5"}},
		{Name: "own key variable", Model: "claude-sonnet-4-5", Opts: map[string]string{"api_key_env": "TEAM_CLAUDE_KEY"}, Env: map[string]string{"TEAM_CLAUDE_KEY": testKey, "ANTHROPIC_API_KEY": ""},
			Want: judge.Identity{Plugin: "anthropic", Version: "1.0.0", Provider: "anthropic", Model: "claude-sonnet-4-5"}},
		{Name: "missing model", Model: "",
			Err: []string{"the anthropic judge needs a model: pass --model NAME, or write model: NAME at the top level of rubric.yaml"}},
		{Name: "unknown option", Model: "m", Opts: map[string]string{"seed": "7"},
			Err: []string{`no option "seed"`, "api_key_env, base_url, max_tokens, temperature, timeout"}},
		{Name: "missing key", Model: "m", Env: map[string]string{"ANTHROPIC_API_KEY": ""},
			Err: []string{"needs an API key for api.anthropic.com", "set ANTHROPIC_API_KEY"}},
		{Name: "missing key, hosted named", Model: "m", Opts: map[string]string{"base_url": "https://api.anthropic.com/"}, Env: map[string]string{"ANTHROPIC_API_KEY": ""},
			Err: []string{"set ANTHROPIC_API_KEY"}},
		{Name: "named key variable unset", Model: "m", Opts: map[string]string{"api_key_env": "TEAM_CLAUDE_KEY"}, Env: map[string]string{"TEAM_CLAUDE_KEY": ""},
			Err: []string{"api_key_env names TEAM_CLAUDE_KEY, which is not set"}},
		{Name: "bad temperature", Model: "m", Opts: map[string]string{"temperature": "cold"},
			Err: []string{`option temperature must be a number from 0 to 1, not "cold"`}},
		{Name: "temperature above the range", Model: "m", Opts: map[string]string{"temperature": "1.5"},
			Err: []string{`the anthropic judge's option temperature must be a number from 0 to 1, not "1.5"`}},
		{Name: "bad max_tokens", Model: "m", Opts: map[string]string{"max_tokens": "-1"},
			Err: []string{"option max_tokens must be a whole number from 1"}},
		{Name: "bad timeout", Model: "m", Opts: map[string]string{"timeout": "soon"},
			Err: []string{"option timeout must be a positive duration"}},
		{Name: "bad base_url", Model: "m", Opts: map[string]string{"base_url": "api.anthropic.com"},
			Err: []string{"option base_url must be an http or https URL"}},
	})
}
