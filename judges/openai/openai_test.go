package openai_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
	"github.com/rubricmcp/rubric/judges/openai"
)

// testKey is what the tests put in the environment as the API key.
const testKey = "sk-test-0123456789abcdefXYZ"

// keyEnv is the variable the tests name with api_key_env.
const keyEnv = "RUBRIC_TEST_OPENAI_KEY"

var schema = `{"type":"object","properties":{"verdict":{"type":"string","enum":["ok","terse","missing"]},"reasons":{"type":"array","items":{"type":"string"}}},"required":["verdict","reasons"],"additionalProperties":false}`

// suite describes the judge to the tests every hosted judge passes.
var suite = &judgetest.Suite{
	Name:      "openai",
	Version:   "1.0.0",
	New:       func() judge.Judge { return openai.New() },
	Model:     "gpt-4o",
	KeyEnv:    "OPENAI_API_KEY",
	KeyHeader: "Authorization",
	Key:       testKey,
	Env:       map[string]string{keyEnv: testKey},
	Options:   map[string]string{"api_key_env": keyEnv},
	Prefix:    "/v1",
	Path:      "/v1/chat/completions",
	Headers: map[string]string{
		"Authorization": "Bearer " + testKey,
		"User-Agent":    "rubric-judge-openai/1.0.0",
	},
	Reply: "completion.json",
	Answer: judge.Answer{
		JSON:   []byte(`{"verdict":"terse","reasons":["no parameter is described"]}`),
		Model:  "gpt-4o-2024-08-06",
		Tokens: judge.Tokens{Input: 412, Output: 19},
	},
	Question: judgetest.Question(schema),

	AnswerText:  "no parameter is described",
	Refusal:     "error_401.json",
	RefusalText: "Incorrect API key provided",
}

// TestShared runs the cases that are the same for every hosted judge.
func TestShared(t *testing.T) { suite.RunShared(t) }

func TestAnswers(t *testing.T) {
	suite.RunAnswers(t, judgetest.AnswerCase{Fixture: "completion_ollama.json", Want: judge.Answer{
		// Kept exactly as the model wrote it, spaces and all.
		JSON:   []byte(`{"verdict": "ok", "reasons": []}`),
		Model:  "qwen2.5:7b",
		Tokens: judge.Tokens{Input: 355, Output: 14},
	}}, judgetest.AnswerCase{Fixture: "completion_cached.json", Want: judge.Answer{
		// prompt_tokens counts every input token; prompt_tokens_details
		// says how many of them came from the prompt cache.
		JSON:   []byte(`{"verdict":"terse","reasons":["no parameter is described"]}`),
		Model:  "gpt-4o-2024-08-06",
		Tokens: judge.Tokens{Input: 2006, Output: 19, Cached: 1920},
	}})
}

func TestRequest(t *testing.T) {
	var wantSchema any
	if err := json.Unmarshal([]byte(schema), &wantSchema); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		opts map[string]string
		// check looks at the decoded body.
		check func(t *testing.T, body map[string]any)
	}{
		{"defaults", nil, func(t *testing.T, body map[string]any) {
			for _, k := range []string{"temperature", "seed", "max_tokens"} {
				if _, ok := body[k]; ok {
					t.Errorf("%s sent though not given: %v", k, body[k])
				}
			}
			rf, _ := body["response_format"].(map[string]any)
			js, _ := rf["json_schema"].(map[string]any)
			if rf["type"] != "json_schema" || js["name"] != "answer" || js["strict"] != true {
				t.Errorf("response_format: %v", body["response_format"])
			}
			if !reflect.DeepEqual(js["schema"], wantSchema) {
				t.Errorf("schema sent: %v\nwant %v", js["schema"], wantSchema)
			}
			msgs, _ := body["messages"].([]any)
			want := []any{
				map[string]any{"role": "system", "content": "You grade tool descriptions."},
				map[string]any{"role": "user", "content": "Tool: search_issues. Description: Searches."},
			}
			if !reflect.DeepEqual(msgs, want) {
				t.Errorf("messages: %v", msgs)
			}
		}},
		{"sampling", map[string]string{"temperature": "0", "seed": "7", "max_tokens": "256"}, func(t *testing.T, body map[string]any) {
			if body["temperature"] != 0.0 || body["seed"] != 7.0 || body["max_tokens"] != 256.0 {
				t.Errorf("temperature %v, seed %v, max_tokens %v", body["temperature"], body["seed"], body["max_tokens"])
			}
		}},
		{"json_object", map[string]string{"response_format": "json_object"}, func(t *testing.T, body map[string]any) {
			if rf, _ := body["response_format"].(map[string]any); !reflect.DeepEqual(rf, map[string]any{"type": "json_object"}) {
				t.Errorf("response_format: %v", body["response_format"])
			}
			checkSchemaInPrompt(t, body)
		}},
		{"none", map[string]string{"response_format": "none"}, func(t *testing.T, body map[string]any) {
			if _, ok := body["response_format"]; ok {
				t.Errorf("response_format sent: %v", body["response_format"])
			}
			checkSchemaInPrompt(t, body)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.check(t, suite.Sent(t, c.opts).JSON(t))
		})
	}
}

// checkSchemaInPrompt: without structured outputs the schema is in the
// system message.
func checkSchemaInPrompt(t *testing.T, body map[string]any) {
	t.Helper()
	msgs, _ := body["messages"].([]any)
	first, _ := msgs[0].(map[string]any)
	content, _ := first["content"].(string)
	if first["role"] != "system" || !strings.HasPrefix(content, "You grade tool descriptions.") || !strings.Contains(content, schema) {
		t.Errorf("system message: %q", content)
	}
}

func TestConfigure(t *testing.T) {
	suite.RunConfigure(t, []judgetest.ConfigureCase{
		{Name: "hosted with key", Model: "gpt-4o", Env: map[string]string{"OPENAI_API_KEY": testKey},
			Want: judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "openai", Model: "gpt-4o"}},
		{Name: "hosted given explicitly", Model: "gpt-4o", Opts: map[string]string{"base_url": "https://api.openai.com/v1/"}, Env: map[string]string{"OPENAI_API_KEY": testKey},
			Want: judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "openai", Model: "gpt-4o"}},
		{Name: "params", Model: "gpt-4o", Opts: map[string]string{"temperature": "0.0", "seed": "-3", "max_tokens": "512", "timeout": "30s"}, Env: map[string]string{"OPENAI_API_KEY": testKey},
			Want: judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "openai", Model: "gpt-4o",
				Params: map[string]any{"temperature": 0.0, "seed": int64(-3), "max_tokens": int64(512)}}},
		{Name: "ollama without a key", Model: "qwen2.5:7b", Opts: map[string]string{"base_url": "http://localhost:11434/v1", "response_format": "json_object"}, Env: map[string]string{"OPENAI_API_KEY": ""},
			Want: judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "localhost:11434", Model: "qwen2.5:7b",
				Params: map[string]any{"response_format": "json_object"}}},
		{Name: "vllm without a key", Model: "meta-llama/Llama-3.1-8B-Instruct", Opts: map[string]string{"base_url": "http://gpu-box:8000/v1"}, Env: map[string]string{"OPENAI_API_KEY": ""},
			Want: judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "gpu-box:8000", Model: "meta-llama/Llama-3.1-8B-Instruct"}},
		{Name: "missing model", Model: " ",
			Err: []string{"the openai judge needs a model: pass --model NAME, or write model: NAME at the top level of rubric.yaml"}},
		{Name: "unknown option", Model: "gpt-4o", Opts: map[string]string{"temprature": "0"},
			Err: []string{`no option "temprature" (did you mean "temperature"?)`, "api_key_env, base_url, max_tokens, response_format, seed, temperature, timeout"}},
		{Name: "missing key", Model: "gpt-4o", Env: map[string]string{"OPENAI_API_KEY": ""},
			Err: []string{"needs an API key for api.openai.com", "set OPENAI_API_KEY"}},
		{Name: "named key variable unset", Model: "m", Opts: map[string]string{"base_url": "http://localhost:8000/v1", "api_key_env": "MY_VLLM_TOKEN"}, Env: map[string]string{"MY_VLLM_TOKEN": ""},
			Err: []string{"api_key_env names MY_VLLM_TOKEN, which is not set"}},
		{Name: "key pasted as a name", Model: "m", Opts: map[string]string{"api_key_env": testKey},
			Err: []string{"must name an environment variable"}},
		{Name: "bad temperature", Model: "m", Opts: map[string]string{"temperature": "warm"},
			Err: []string{`option temperature must be a number from 0 to 2, not "warm"`}},
		{Name: "temperature above the range", Model: "m", Opts: map[string]string{"temperature": "9"},
			Err: []string{`the openai judge's option temperature must be a number from 0 to 2, not "9"`}},
		{Name: "bad max_tokens", Model: "m", Opts: map[string]string{"max_tokens": "0"},
			Err: []string{"option max_tokens must be a whole number from 1"}},
		{Name: "bad seed", Model: "m", Opts: map[string]string{"seed": "1.5"},
			Err: []string{"option seed must be a whole number"}},
		{Name: "bad timeout", Model: "m", Opts: map[string]string{"timeout": "120"},
			Err: []string{"option timeout must be a positive duration"}},
		{Name: "bad base_url", Model: "m", Opts: map[string]string{"base_url": "localhost:11434"},
			Err: []string{"option base_url must be an http or https URL"}},
		{Name: "credentials in base_url", Model: "m", Opts: map[string]string{"base_url": "https://user:" + testKey + "@proxy.example/v1"},
			Err: []string{"must not carry credentials"}},
		{Name: "key in base_url's query", Model: "m", Opts: map[string]string{"base_url": "https://proxy.example/v1?api_key=" + testKey},
			Err: []string{`option base_url must be an http or https URL such as https://api.openai.com/v1, not "https://proxy.example/v1?api_key=[redacted]"`}},
		{Name: "bad response_format", Model: "m", Opts: map[string]string{"response_format": "xml"},
			Err: []string{"option response_format must be one of json_schema, json_object, none"}},
	})
}
