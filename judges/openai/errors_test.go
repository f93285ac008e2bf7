package openai_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
)

func TestErrorReplies(t *testing.T) {
	httpDate := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	cases := []struct {
		name   string
		status int
		header http.Header
		body   []byte
		kind   judgetest.Kind
		// wait is the RetryAfter wanted, for a rate limit: exact, or
		// within a second below it for an HTTP date.
		wait time.Duration
		says []string
	}{
		{name: "429 with Retry-After seconds", status: 429, header: http.Header{"Retry-After": {"2"}}, body: judgetest.Fixture(t, "error_429_rate.json"),
			kind: judgetest.Wait, wait: 2 * time.Second, says: []string{"429 Too Many Requests", "Rate limit reached for gpt-4o", "[rate_limit_exceeded]"}},
		{name: "429 with retry-after-ms", status: 429, header: http.Header{"Retry-After": {"2"}, "Retry-After-Ms": {"1720"}}, body: judgetest.Fixture(t, "error_429_rate.json"),
			kind: judgetest.Wait, wait: 1720 * time.Millisecond},
		{name: "429 with an HTTP date", status: 429, header: http.Header{"Retry-After": {httpDate}}, body: judgetest.Fixture(t, "error_429_rate.json"),
			kind: judgetest.Wait, wait: 30 * time.Second},
		{name: "429 without a wait", status: 429, body: judgetest.Fixture(t, "error_429_rate.json"),
			kind: judgetest.Wait, wait: 0},
		{name: "429 quota used up", status: 429, body: judgetest.Fixture(t, "error_429_quota.json"),
			kind: judgetest.Stop, says: []string{"You exceeded your current quota", "[insufficient_quota]", "check its plan and billing"}},
		{name: "500", status: 500, body: judgetest.Fixture(t, "error_500.json"),
			kind: judgetest.Wait, wait: 0, says: []string{"500 Internal Server Error", "The server had an error"}},
		{name: "502 from a gateway", status: 502, header: http.Header{"Content-Type": {"text/html"}}, body: judgetest.Fixture(t, "error_502_gateway.html"),
			kind: judgetest.Wait, says: []string{"502 Bad Gateway", "not JSON"}},
		{name: "503", status: 503, header: http.Header{"Retry-After": {"5"}}, body: judgetest.Fixture(t, "error_500.json"),
			kind: judgetest.Wait, wait: 5 * time.Second},
		{name: "504", status: 504, body: judgetest.Fixture(t, "error_500.json"), kind: judgetest.Wait},
		{name: "400 schema refused", status: 400, body: judgetest.Fixture(t, "error_400_schema.json"),
			kind: judgetest.Stop, says: []string{"400 Bad Request", "'additionalProperties' is required", `response_format = "json_object" or "none"`}},
		{name: "400 from vLLM", status: 400, body: judgetest.Fixture(t, "error_400_vllm.json"),
			kind: judgetest.Stop, says: []string{"maximum context length is 8192 tokens", "[BadRequestError]"}},
		{name: "401", status: 401, body: judgetest.Fixture(t, "error_401.json"),
			kind: judgetest.Stop, says: []string{"401 Unauthorized", "Incorrect API key provided", "[invalid_api_key]", "check the key in " + keyEnv}},
		{name: "401 echoing the key", status: 401, body: []byte(`{"error":{"message":"Incorrect API key provided: ` + testKey + `.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`),
			kind: judgetest.Stop, says: []string{"Incorrect API key provided: [redacted]"}},
		{name: "403", status: 403, body: []byte(`{"error":{"message":"Project proj_abc does not have access to model gpt-4o","type":"invalid_request_error","param":null,"code":"model_not_found"}}`),
			kind: judgetest.Stop, says: []string{"403 Forbidden", "does not have access", "may not use model \"gpt-4o\""}},
		{name: "404 model", status: 404, body: judgetest.Fixture(t, "error_404_model.json"),
			kind: judgetest.Stop, says: []string{"404 Not Found", "The model `gpt-4o-nope` does not exist", `check the model name "gpt-4o" and the base URL http://`}},
		{name: "404 from Ollama", status: 404, body: judgetest.Fixture(t, "error_404_ollama.json"),
			kind: judgetest.Stop, says: []string{`model "llama3.3" not found, try pulling it first`}},
		{name: "404 without a body", status: 404, body: nil,
			kind: judgetest.Stop, says: []string{"404 Not Found; check the model name"}},
		{name: "200 malformed envelope", status: 200, body: []byte(`{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,`),
			kind: judgetest.AskAgain, says: []string{"not a chat completion", `begins "{\"id\":\"chatcmpl-1\"`}},
		{name: "200 not JSON", status: 200, header: http.Header{"Content-Type": {"text/html"}}, body: judgetest.Fixture(t, "error_502_gateway.html"),
			kind: judgetest.AskAgain, says: []string{"not a chat completion"}},
		{name: "200 empty content", status: 200, body: judgetest.Fixture(t, "completion_empty.json"),
			kind: judgetest.AskAgain, says: []string{"no content"}},
		{name: "200 no choices", status: 200, body: judgetest.Fixture(t, "completion_no_choices.json"),
			kind: judgetest.AskAgain, says: []string{"no choices"}},
		{name: "200 holding an error", status: 200, body: judgetest.Fixture(t, "error_500.json"),
			kind: judgetest.AskAgain, says: []string{"holds an error instead of an answer", "The server had an error"}},
		{name: "200 refusal", status: 200, body: judgetest.Fixture(t, "completion_refusal.json"),
			kind: judgetest.AskAgain, says: []string{"the model refused to answer: I'm sorry, I can't help with that request."}},
		{name: "200 cut off", status: 200, body: judgetest.Fixture(t, "completion_length.json"),
			kind: judgetest.AskAgain, says: []string{"cut off at max_tokens (64)", "raise the judge's max_tokens option"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := judgetest.Serve(t, c.status, c.header, c.body)
			j := configure(t, srv.URL+"/v1", map[string]string{"max_tokens": "64"})
			_, err := j.Ask(context.Background(), question())
			if err == nil {
				t.Fatal("no error")
			}
			if got := judgetest.KindOf(err); got != c.kind {
				t.Fatalf("%v (%T) is %v, want %v", err, err, got, c.kind)
			}
			if c.kind == judgetest.Wait {
				got := judgetest.RetryAfter(err)
				if got > c.wait || got < c.wait-time.Second || (c.wait == 0 && got != 0) {
					t.Errorf("RetryAfter %v, want %v", got, c.wait)
				}
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			if strings.Contains(err.Error(), testKey) || strings.Contains(err.Error(), "****") {
				t.Errorf("error %q shows a key", err)
			}
		})
	}
}

func TestReplyOverLimit(t *testing.T) {
	big := `{"id":"chatcmpl-1","choices":[{"message":{"content":"` + strings.Repeat("x", 16<<20) + `"}}]}`
	srv := judgetest.Serve(t, 200, nil, []byte(big))
	_, err := configure(t, srv.URL+"/v1", nil).Ask(context.Background(), question())
	if judgetest.KindOf(err) != judgetest.AskAgain || !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("a reply over 16 MiB: %v", err)
	}
}

func TestCancelMidRequest(t *testing.T) {
	started := make(chan struct{})
	srv := judgetest.Hanging(t, started)
	j := configure(t, srv.URL+"/v1", nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	begun := time.Now()
	_, err := j.Ask(ctx, question())
	if judgetest.KindOf(err) != judgetest.Cancelled {
		t.Errorf("cancelled mid-request: %v (%T)", err, err)
	}
	if d := time.Since(begun); d > 5*time.Second {
		t.Errorf("Ask returned %v after the cancellation", d)
	}
}

func TestTimeout(t *testing.T) {
	srv := judgetest.Hanging(t, make(chan struct{}))
	_, err := configure(t, srv.URL+"/v1", map[string]string{"timeout": "100ms"}).Ask(context.Background(), question())
	if judgetest.KindOf(err) != judgetest.Stop || !strings.Contains(err.Error(), "no reply within 100ms; raise the judge's timeout option") {
		t.Errorf("a server that never answers: %v (%T)", err, err)
	}
}

func TestConnectionDropped(t *testing.T) {
	srv := judgetest.Dropping(t)
	_, err := configure(t, srv.URL+"/v1", nil).Ask(context.Background(), question())
	if judgetest.KindOf(err) != judgetest.Wait || !strings.Contains(err.Error(), "connection") {
		t.Errorf("a dropped connection: %v (%T)", err, err)
	}
}

func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = configure(t, "http://"+addr+"/v1", nil).Ask(context.Background(), question())
	if judgetest.KindOf(err) != judgetest.Stop || !strings.Contains(err.Error(), "is the server running") {
		t.Errorf("nothing listening: %v (%T)", err, err)
	}
}
