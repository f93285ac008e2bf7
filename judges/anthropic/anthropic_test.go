package anthropic_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/anthropic"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
)

// testKey is what the tests put in the environment as the API key.
const testKey = "sk-ant-api03-test0123456789abcdef"

var schema = `{"type":"object","properties":{"verdict":{"type":"string","enum":["ok","terse","missing"]},"reasons":{"type":"array","items":{"type":"string"}}},"required":["verdict","reasons"]}`

func question() judge.Question {
	return judge.Question{
		Rubric:       "tdqs",
		Kind:         "tdqs.clarity",
		Subject:      "search_issues",
		System:       "You grade tool descriptions.",
		User:         "Tool: search_issues. Description: Searches.",
		AnswerSchema: []byte(schema),
	}
}

// configure returns a judge configured against a test server with the
// test key in ANTHROPIC_API_KEY and the extra options.
func configure(t *testing.T, base string, extra map[string]string) *anthropic.Judge {
	t.Helper()
	t.Setenv("ANTHROPIC_API_KEY", testKey)
	opts := map[string]string{"base_url": base}
	for k, v := range extra {
		opts[k] = v
	}
	j := anthropic.New()
	if _, err := j.Configure(context.Background(), judge.Config{Model: "claude-sonnet-4-5", Options: opts}); err != nil {
		t.Fatal(err)
	}
	return j
}

func TestAnswers(t *testing.T) {
	cases := []struct {
		fixture string
		want    judge.Answer
	}{
		{"message_tool_use.json", judge.Answer{
			JSON:   []byte(`{"verdict":"terse","reasons":["no parameter is described"]}`),
			Model:  "claude-sonnet-4-5-20250929",
			Tokens: judge.Tokens{Input: 472, Output: 57},
		}},
		{"message_text_and_tool_use.json", judge.Answer{
			JSON:   []byte(`{"verdict":"ok","reasons":[]}`),
			Model:  "claude-3-5-haiku-20241022",
			Tokens: judge.Tokens{Input: 390, Output: 41},
		}},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, c.fixture))
			got, err := configure(t, srv.URL, nil).Ask(context.Background(), question())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v (%s)\nwant %+v (%s)", got, got.JSON, c.want, c.want.JSON)
			}
		})
	}
}

func TestRequest(t *testing.T) {
	var wantSchema any
	if err := json.Unmarshal([]byte(schema), &wantSchema); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		opts  map[string]string
		check func(t *testing.T, body map[string]any)
	}{
		{"defaults", nil, func(t *testing.T, body map[string]any) {
			if body["max_tokens"] != 4096.0 {
				t.Errorf("max_tokens %v, want the default 4096", body["max_tokens"])
			}
			if _, ok := body["temperature"]; ok {
				t.Errorf("temperature sent though not given: %v", body["temperature"])
			}
		}},
		{"sampling", map[string]string{"temperature": "0.2", "max_tokens": "1024"}, func(t *testing.T, body map[string]any) {
			if body["temperature"] != 0.2 || body["max_tokens"] != 1024.0 {
				t.Errorf("temperature %v, max_tokens %v", body["temperature"], body["max_tokens"])
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "message_tool_use.json"))
			if _, err := configure(t, srv.URL, c.opts).Ask(context.Background(), question()); err != nil {
				t.Fatal(err)
			}
			r := srv.Last(t)
			if r.Method != http.MethodPost || r.Path != "/v1/messages" {
				t.Errorf("sent %s %s", r.Method, r.Path)
			}
			for k, want := range map[string]string{
				"X-Api-Key":         testKey,
				"Anthropic-Version": "2023-06-01",
				"Content-Type":      "application/json",
				"Authorization":     "",
			} {
				if got := r.Header.Get(k); got != want {
					t.Errorf("header %s: %q, want %q", k, got, want)
				}
			}
			body := r.JSON(t)
			if body["model"] != "claude-sonnet-4-5" || body["system"] != "You grade tool descriptions." {
				t.Errorf("model %v, system %v", body["model"], body["system"])
			}
			wantMsgs := []any{map[string]any{"role": "user", "content": "Tool: search_issues. Description: Searches."}}
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
	cases := []struct {
		name  string
		model string
		opts  map[string]string
		env   map[string]string
		want  judge.Identity
		err   []string // each in the error; nil for success
	}{
		{name: "hosted with key", model: "claude-sonnet-4-5", env: map[string]string{"ANTHROPIC_API_KEY": testKey},
			want: judge.Identity{Plugin: "anthropic", Version: "1.0.0", Provider: "anthropic", Model: "claude-sonnet-4-5"}},
		{name: "params", model: "claude-sonnet-4-5", opts: map[string]string{"temperature": "0", "max_tokens": "2048", "timeout": "45s"}, env: map[string]string{"ANTHROPIC_API_KEY": testKey},
			want: judge.Identity{Plugin: "anthropic", Version: "1.0.0", Provider: "anthropic", Model: "claude-sonnet-4-5",
				Params: map[string]any{"temperature": 0.0, "max_tokens": int64(2048)}}},
		{name: "gateway without a key", model: "claude-sonnet-4-5", opts: map[string]string{"base_url": "http://llm-gateway.internal:4000"}, env: map[string]string{"ANTHROPIC_API_KEY": ""},
			want: judge.Identity{Plugin: "anthropic", Version: "1.0.0", Provider: "llm-gateway.internal:4000", Model: "claude-sonnet-4-5"}},
		{name: "own key variable", model: "claude-sonnet-4-5", opts: map[string]string{"api_key_env": "TEAM_CLAUDE_KEY"}, env: map[string]string{"TEAM_CLAUDE_KEY": testKey, "ANTHROPIC_API_KEY": ""},
			want: judge.Identity{Plugin: "anthropic", Version: "1.0.0", Provider: "anthropic", Model: "claude-sonnet-4-5"}},
		{name: "missing model", model: "",
			err: []string{"the anthropic judge needs a model: pass --model or set judge.model"}},
		{name: "unknown option", model: "m", opts: map[string]string{"seed": "7"},
			err: []string{`no option "seed"`, "api_key_env, base_url, max_tokens, temperature, timeout"}},
		{name: "missing key", model: "m", env: map[string]string{"ANTHROPIC_API_KEY": ""},
			err: []string{"needs an API key for api.anthropic.com", "set ANTHROPIC_API_KEY"}},
		{name: "missing key, hosted named", model: "m", opts: map[string]string{"base_url": "https://api.anthropic.com/"}, env: map[string]string{"ANTHROPIC_API_KEY": ""},
			err: []string{"set ANTHROPIC_API_KEY"}},
		{name: "named key variable unset", model: "m", opts: map[string]string{"api_key_env": "TEAM_CLAUDE_KEY"}, env: map[string]string{"TEAM_CLAUDE_KEY": ""},
			err: []string{"api_key_env names TEAM_CLAUDE_KEY, which is not set"}},
		{name: "bad temperature", model: "m", opts: map[string]string{"temperature": "cold"},
			err: []string{`option temperature must be a number not below 0, not "cold"`}},
		{name: "bad max_tokens", model: "m", opts: map[string]string{"max_tokens": "-1"},
			err: []string{"option max_tokens must be a whole number from 1"}},
		{name: "bad timeout", model: "m", opts: map[string]string{"timeout": "soon"},
			err: []string{"option timeout must be a positive duration"}},
		{name: "bad base_url", model: "m", opts: map[string]string{"base_url": "api.anthropic.com"},
			err: []string{"option base_url must be an http or https URL"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			id, err := anthropic.New().Configure(context.Background(), judge.Config{Model: c.model, Options: c.opts})
			if c.err == nil {
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(id, c.want) {
					t.Errorf("identity %+v, want %+v", id, c.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("configured as %+v, want an error", id)
			}
			for _, want := range c.err {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
		})
	}
}

// TestGatewayGetsNoKey: a base URL of the user's choosing that needs no
// key is sent none.
func TestGatewayGetsNoKey(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "message_tool_use.json"))
	j := anthropic.New()
	if _, err := j.Configure(context.Background(), judge.Config{Model: "claude-sonnet-4-5", Options: map[string]string{"base_url": srv.URL}}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Ask(context.Background(), question()); err != nil {
		t.Fatal(err)
	}
	if got := srv.Last(t).Header.Get("X-Api-Key"); got != "" {
		t.Errorf("sent x-api-key %q", got)
	}
}

func TestDescribe(t *testing.T) {
	id, err := anthropic.New().Describe(context.Background())
	want := judge.Identity{Plugin: "anthropic", Version: "1.0.0", Provider: "anthropic"}
	if err != nil || !reflect.DeepEqual(id, want) {
		t.Errorf("Describe: %+v, %v", id, err)
	}
}

func TestAskBeforeConfigure(t *testing.T) {
	if _, err := anthropic.New().Ask(context.Background(), question()); err == nil || !strings.Contains(err.Error(), "before it was configured") {
		t.Errorf("Ask before Configure: %v", err)
	}
}

func TestSchemaNotJSON(t *testing.T) {
	srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "message_tool_use.json"))
	q := question()
	q.AnswerSchema = nil
	_, err := configure(t, srv.URL, nil).Ask(context.Background(), q)
	if err == nil || !strings.Contains(err.Error(), "answer schema that is not JSON") {
		t.Errorf("no schema: %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests were sent without a schema", n)
	}
}

// TestConcurrentAsks: the engine asks several questions at once.
func TestConcurrentAsks(t *testing.T) {
	srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "message_tool_use.json"))
	j := configure(t, srv.URL, nil)
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			_, err := j.Ask(context.Background(), question())
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := len(srv.Requests()); got != n {
		t.Errorf("the server got %d requests, want %d", got, n)
	}
}
