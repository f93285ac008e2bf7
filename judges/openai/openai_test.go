package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"sync"
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

// configure returns a judge configured against base (a test server's
// URL plus "/v1") with the test key in keyEnv and the extra options.
func configure(t *testing.T, base string, extra map[string]string) *openai.Judge {
	t.Helper()
	t.Setenv(keyEnv, testKey)
	opts := map[string]string{"base_url": base, "api_key_env": keyEnv}
	for k, v := range extra {
		opts[k] = v
	}
	j := openai.New()
	if _, err := j.Configure(context.Background(), judge.Config{Model: "gpt-4o", Options: opts}); err != nil {
		t.Fatal(err)
	}
	return j
}

func TestAnswers(t *testing.T) {
	cases := []struct {
		fixture string
		want    judge.Answer
	}{
		{"completion.json", judge.Answer{
			JSON:   []byte(`{"verdict":"terse","reasons":["no parameter is described"]}`),
			Model:  "gpt-4o-2024-08-06",
			Tokens: judge.Tokens{Input: 412, Output: 19},
		}},
		{"completion_ollama.json", judge.Answer{
			// Kept exactly as the model wrote it, spaces and all.
			JSON:   []byte(`{"verdict": "ok", "reasons": []}`),
			Model:  "qwen2.5:7b",
			Tokens: judge.Tokens{Input: 355, Output: 14},
		}},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, c.fixture))
			got, err := configure(t, srv.URL+"/v1", nil).Ask(context.Background(), question())
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
			srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "completion.json"))
			if _, err := configure(t, srv.URL+"/v1", c.opts).Ask(context.Background(), question()); err != nil {
				t.Fatal(err)
			}
			r := srv.Last(t)
			body := r.JSON(t)
			if r.Method != http.MethodPost || r.Path != "/v1/chat/completions" {
				t.Errorf("sent %s %s", r.Method, r.Path)
			}
			if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
				t.Errorf("Authorization: %q", got)
			}
			if got := r.Header.Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type: %q", got)
			}
			if body["model"] != "gpt-4o" {
				t.Errorf("model: %v", body["model"])
			}
			c.check(t, body)
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
	cases := []struct {
		name  string
		model string
		opts  map[string]string
		env   map[string]string
		want  judge.Identity
		err   []string // each in the error; nil for success
	}{
		{name: "hosted with key", model: "gpt-4o", env: map[string]string{"OPENAI_API_KEY": testKey},
			want: judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "openai", Model: "gpt-4o"}},
		{name: "hosted given explicitly", model: "gpt-4o", opts: map[string]string{"base_url": "https://api.openai.com/v1/"}, env: map[string]string{"OPENAI_API_KEY": testKey},
			want: judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "openai", Model: "gpt-4o"}},
		{name: "params", model: "gpt-4o", opts: map[string]string{"temperature": "0.0", "seed": "-3", "max_tokens": "512", "timeout": "30s"}, env: map[string]string{"OPENAI_API_KEY": testKey},
			want: judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "openai", Model: "gpt-4o",
				Params: map[string]any{"temperature": 0.0, "seed": int64(-3), "max_tokens": int64(512)}}},
		{name: "ollama without a key", model: "qwen2.5:7b", opts: map[string]string{"base_url": "http://localhost:11434/v1", "response_format": "json_object"}, env: map[string]string{"OPENAI_API_KEY": ""},
			want: judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "localhost:11434", Model: "qwen2.5:7b",
				Params: map[string]any{"response_format": "json_object"}}},
		{name: "vllm without a key", model: "meta-llama/Llama-3.1-8B-Instruct", opts: map[string]string{"base_url": "http://gpu-box:8000/v1"}, env: map[string]string{"OPENAI_API_KEY": ""},
			want: judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "gpu-box:8000", Model: "meta-llama/Llama-3.1-8B-Instruct"}},
		{name: "missing model", model: " ",
			err: []string{"the openai judge needs a model: pass --model or set judge.model"}},
		{name: "unknown option", model: "gpt-4o", opts: map[string]string{"temprature": "0"},
			err: []string{`no option "temprature"`, "api_key_env, base_url, max_tokens, response_format, seed, temperature, timeout"}},
		{name: "missing key", model: "gpt-4o", env: map[string]string{"OPENAI_API_KEY": ""},
			err: []string{"needs an API key for api.openai.com", "set OPENAI_API_KEY"}},
		{name: "named key variable unset", model: "m", opts: map[string]string{"base_url": "http://localhost:8000/v1", "api_key_env": "MY_VLLM_TOKEN"}, env: map[string]string{"MY_VLLM_TOKEN": ""},
			err: []string{"api_key_env names MY_VLLM_TOKEN, which is not set"}},
		{name: "key pasted as a name", model: "m", opts: map[string]string{"api_key_env": testKey},
			err: []string{"must name an environment variable"}},
		{name: "bad temperature", model: "m", opts: map[string]string{"temperature": "warm"},
			err: []string{`option temperature must be a number not below 0, not "warm"`}},
		{name: "bad max_tokens", model: "m", opts: map[string]string{"max_tokens": "0"},
			err: []string{"option max_tokens must be a whole number from 1"}},
		{name: "bad seed", model: "m", opts: map[string]string{"seed": "1.5"},
			err: []string{"option seed must be a whole number"}},
		{name: "bad timeout", model: "m", opts: map[string]string{"timeout": "120"},
			err: []string{"option timeout must be a positive duration"}},
		{name: "bad base_url", model: "m", opts: map[string]string{"base_url": "localhost:11434"},
			err: []string{"option base_url must be an http or https URL"}},
		{name: "credentials in base_url", model: "m", opts: map[string]string{"base_url": "https://user:" + testKey + "@proxy.example/v1"},
			err: []string{"must not carry credentials"}},
		{name: "bad response_format", model: "m", opts: map[string]string{"response_format": "xml"},
			err: []string{"option response_format must be one of json_schema, json_object, none"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			id, err := openai.New().Configure(context.Background(), judge.Config{Model: c.model, Options: c.opts})
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
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error %q shows the key", err)
			}
		})
	}
}

// TestLocalServerGetsNoKey: a server that needs no key is sent none.
func TestLocalServerGetsNoKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "completion_ollama.json"))
	j := openai.New()
	if _, err := j.Configure(context.Background(), judge.Config{Model: "qwen2.5:7b", Options: map[string]string{"base_url": srv.URL + "/v1"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Ask(context.Background(), question()); err != nil {
		t.Fatal(err)
	}
	if got := srv.Last(t).Header.Get("Authorization"); got != "" {
		t.Errorf("sent Authorization %q", got)
	}
}

func TestDescribe(t *testing.T) {
	id, err := openai.New().Describe(context.Background())
	want := judge.Identity{Plugin: "openai", Version: "1.0.0", Provider: "openai"}
	if err != nil || !reflect.DeepEqual(id, want) {
		t.Errorf("Describe: %+v, %v", id, err)
	}
}

func TestAskBeforeConfigure(t *testing.T) {
	if _, err := openai.New().Ask(context.Background(), question()); err == nil || !strings.Contains(err.Error(), "before it was configured") {
		t.Errorf("Ask before Configure: %v", err)
	}
}

func TestSchemaNotJSON(t *testing.T) {
	srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "completion.json"))
	q := question()
	q.AnswerSchema = []byte(`{"type":`)
	_, err := configure(t, srv.URL+"/v1", nil).Ask(context.Background(), q)
	if err == nil || !strings.Contains(err.Error(), "answer schema that is not JSON") {
		t.Errorf("a broken schema: %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests were sent with a broken schema", n)
	}
}

// TestConcurrentAsks: the engine asks several questions at once.
func TestConcurrentAsks(t *testing.T) {
	srv := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "completion.json"))
	j := configure(t, srv.URL+"/v1", map[string]string{"temperature": "0"})
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			a, err := j.Ask(context.Background(), question())
			if err == nil && a.Model != "gpt-4o-2024-08-06" {
				err = &judge.UnreadableError{Msg: "wrong model " + a.Model}
			}
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
