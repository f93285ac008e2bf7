package openai_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
)

// kind is what the engine does with an error.
type kind int

const (
	stop      kind = iota // a plain error: the run ends
	wait                  // *judge.RateLimitError: wait and ask again
	askAgain              // *judge.UnreadableError: ask again
	cancelled             // the caller's context ended
)

func (k kind) String() string {
	return [...]string{"a plain error", "a rate limit", "an unreadable reply", "a cancellation"}[k]
}

func kindOf(err error) kind {
	var rl *judge.RateLimitError
	var ur *judge.UnreadableError
	switch {
	case errors.As(err, &rl):
		return wait
	case errors.As(err, &ur):
		return askAgain
	case errors.Is(err, context.Canceled):
		return cancelled
	}
	return stop
}

func retryAfter(err error) time.Duration {
	var rl *judge.RateLimitError
	if errors.As(err, &rl) {
		return rl.RetryAfter
	}
	return -1
}

func TestErrorReplies(t *testing.T) {
	httpDate := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	cases := []struct {
		name   string
		status int
		header http.Header
		body   []byte
		kind   kind
		// wait is the RetryAfter wanted, for a rate limit: exact, or
		// within a second below it for an HTTP date.
		wait time.Duration
		says []string
	}{
		{name: "429 with Retry-After seconds", status: 429, header: http.Header{"Retry-After": {"2"}}, body: fixture(t, "error_429_rate.json"),
			kind: wait, wait: 2 * time.Second, says: []string{"429 Too Many Requests", "Rate limit reached for gpt-4o", "[rate_limit_exceeded]"}},
		{name: "429 with retry-after-ms", status: 429, header: http.Header{"Retry-After": {"2"}, "Retry-After-Ms": {"1720"}}, body: fixture(t, "error_429_rate.json"),
			kind: wait, wait: 1720 * time.Millisecond},
		{name: "429 with an HTTP date", status: 429, header: http.Header{"Retry-After": {httpDate}}, body: fixture(t, "error_429_rate.json"),
			kind: wait, wait: 30 * time.Second},
		{name: "429 without a wait", status: 429, body: fixture(t, "error_429_rate.json"),
			kind: wait, wait: 0},
		{name: "429 quota used up", status: 429, body: fixture(t, "error_429_quota.json"),
			kind: stop, says: []string{"You exceeded your current quota", "[insufficient_quota]", "check its plan and billing"}},
		{name: "500", status: 500, body: fixture(t, "error_500.json"),
			kind: wait, wait: 0, says: []string{"500 Internal Server Error", "The server had an error"}},
		{name: "502 from a gateway", status: 502, header: http.Header{"Content-Type": {"text/html"}}, body: fixture(t, "error_502_gateway.html"),
			kind: wait, says: []string{"502 Bad Gateway", "not JSON"}},
		{name: "503", status: 503, header: http.Header{"Retry-After": {"5"}}, body: fixture(t, "error_500.json"),
			kind: wait, wait: 5 * time.Second},
		{name: "504", status: 504, body: fixture(t, "error_500.json"), kind: wait},
		{name: "400 schema refused", status: 400, body: fixture(t, "error_400_schema.json"),
			kind: stop, says: []string{"400 Bad Request", "'additionalProperties' is required", `response_format = "json_object" or "none"`}},
		{name: "400 from vLLM", status: 400, body: fixture(t, "error_400_vllm.json"),
			kind: stop, says: []string{"maximum context length is 8192 tokens", "[BadRequestError]"}},
		{name: "401", status: 401, body: fixture(t, "error_401.json"),
			kind: stop, says: []string{"401 Unauthorized", "Incorrect API key provided", "[invalid_api_key]", "check the key in " + keyEnv}},
		{name: "401 echoing the key", status: 401, body: []byte(`{"error":{"message":"Incorrect API key provided: ` + testKey + `.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`),
			kind: stop, says: []string{"Incorrect API key provided: [redacted]"}},
		{name: "403", status: 403, body: []byte(`{"error":{"message":"Project proj_abc does not have access to model gpt-4o","type":"invalid_request_error","param":null,"code":"model_not_found"}}`),
			kind: stop, says: []string{"403 Forbidden", "does not have access", "may not use model \"gpt-4o\""}},
		{name: "404 model", status: 404, body: fixture(t, "error_404_model.json"),
			kind: stop, says: []string{"404 Not Found", "The model `gpt-4o-nope` does not exist", `check the model name "gpt-4o" and the base URL http://`}},
		{name: "404 from Ollama", status: 404, body: fixture(t, "error_404_ollama.json"),
			kind: stop, says: []string{`model "llama3.3" not found, try pulling it first`}},
		{name: "404 without a body", status: 404, body: nil,
			kind: stop, says: []string{"404 Not Found", "an empty body", "check the model name"}},
		{name: "200 malformed envelope", status: 200, body: []byte(`{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,`),
			kind: askAgain, says: []string{"not a chat completion", `begins "{\"id\":\"chatcmpl-1\"`}},
		{name: "200 not JSON", status: 200, header: http.Header{"Content-Type": {"text/html"}}, body: fixture(t, "error_502_gateway.html"),
			kind: askAgain, says: []string{"not a chat completion"}},
		{name: "200 empty content", status: 200, body: fixture(t, "completion_empty.json"),
			kind: askAgain, says: []string{"no content"}},
		{name: "200 no choices", status: 200, body: fixture(t, "completion_no_choices.json"),
			kind: askAgain, says: []string{"no choices"}},
		{name: "200 holding an error", status: 200, body: fixture(t, "error_500.json"),
			kind: askAgain, says: []string{"holds an error instead of an answer", "The server had an error"}},
		{name: "200 refusal", status: 200, body: fixture(t, "completion_refusal.json"),
			kind: askAgain, says: []string{"the model refused to answer: I'm sorry, I can't help with that request."}},
		{name: "200 cut off", status: 200, body: fixture(t, "completion_length.json"),
			kind: askAgain, says: []string{"cut off at max_tokens (64)", "raise the judge's max_tokens option"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, _ := serve(t, c.status, c.header, c.body)
			j := configure(t, srv.URL+"/v1", map[string]string{"max_tokens": "64"})
			_, err := j.Ask(context.Background(), question())
			if err == nil {
				t.Fatal("no error")
			}
			if got := kindOf(err); got != c.kind {
				t.Fatalf("%v (%T) is %v, want %v", err, err, got, c.kind)
			}
			if c.kind == wait {
				got := retryAfter(err)
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
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"chatcmpl-1","choices":[{"message":{"content":"`))
		pad := []byte(strings.Repeat("x", 1<<20))
		for range 17 {
			if _, err := w.Write(pad); err != nil {
				return
			}
		}
		w.Write([]byte(`"}}]}`))
	}))
	defer srv.Close()
	_, err := configure(t, srv.URL+"/v1", nil).Ask(context.Background(), question())
	if kindOf(err) != askAgain || !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("a 17 MiB reply: %v", err)
	}
}

// hanging starts a server that reads the request, closes started and
// then never answers, until the client goes away or the test ends.
func hanging(t *testing.T, started chan struct{}) *httptest.Server {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The server notices a client leaving only once the body is read.
		io.Copy(io.Discard, r.Body)
		close(started)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	return srv
}

func TestCancelMidRequest(t *testing.T) {
	started := make(chan struct{})
	srv := hanging(t, started)
	j := configure(t, srv.URL+"/v1", nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	begun := time.Now()
	_, err := j.Ask(ctx, question())
	if kindOf(err) != cancelled {
		t.Errorf("cancelled mid-request: %v (%T)", err, err)
	}
	if d := time.Since(begun); d > 5*time.Second {
		t.Errorf("Ask returned %v after the cancellation", d)
	}
}

func TestTimeout(t *testing.T) {
	srv := hanging(t, make(chan struct{}))
	_, err := configure(t, srv.URL+"/v1", map[string]string{"timeout": "100ms"}).Ask(context.Background(), question())
	if kindOf(err) != stop || !strings.Contains(err.Error(), "no reply within 100ms; raise the judge's timeout option") {
		t.Errorf("a server that never answers: %v (%T)", err, err)
	}
}

func TestConnectionDropped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer srv.Close()
	_, err := configure(t, srv.URL+"/v1", nil).Ask(context.Background(), question())
	if kindOf(err) != wait || !strings.Contains(err.Error(), "connection") {
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
	if kindOf(err) != stop || !strings.Contains(err.Error(), "is the server running") {
		t.Errorf("nothing listening: %v (%T)", err, err)
	}
}
