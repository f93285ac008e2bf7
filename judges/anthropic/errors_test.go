package anthropic_test

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
	httpDate := time.Now().Add(20 * time.Second).UTC().Format(http.TimeFormat)
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
		{name: "429 with retry-after seconds", status: 429, header: http.Header{"Retry-After": {"12"}}, body: judgetest.Fixture(t, "error_429.json"),
			kind: judgetest.Wait, wait: 12 * time.Second, says: []string{"429 Too Many Requests", "would exceed the rate limit", "[rate_limit_error]"}},
		{name: "429 with an HTTP date", status: 429, header: http.Header{"Retry-After": {httpDate}}, body: judgetest.Fixture(t, "error_429.json"),
			kind: judgetest.Wait, wait: 20 * time.Second},
		{name: "529 overloaded", status: 529, body: judgetest.Fixture(t, "error_529.json"),
			kind: judgetest.Wait, wait: 0, says: []string{"529 Overloaded: Overloaded [overloaded_error]"}},
		{name: "529 with retry-after", status: 529, header: http.Header{"Retry-After": {"4"}}, body: judgetest.Fixture(t, "error_529.json"),
			kind: judgetest.Wait, wait: 4 * time.Second},
		{name: "500", status: 500, body: judgetest.Fixture(t, "error_500.json"),
			kind: judgetest.Wait, says: []string{"500 Internal Server Error: Internal server error [api_error]"}},
		{name: "503 with a text body", status: 503, header: http.Header{"Content-Type": {"text/plain"}}, body: []byte("upstream connect error or disconnect/reset before headers"),
			kind: judgetest.Wait, says: []string{"503 Service Unavailable", "not JSON", "upstream connect error"}},
		{name: "400", status: 400, body: judgetest.Fixture(t, "error_400.json"),
			kind: judgetest.Stop, says: []string{"400 Bad Request", "tools.0.custom.input_schema.type: Field required", "[invalid_request_error]", "check the model and the judge's options"}},
		{name: "401", status: 401, body: judgetest.Fixture(t, "error_401.json"),
			kind: judgetest.Stop, says: []string{"401 Unauthorized: invalid x-api-key [authentication_error]", "check the key in ANTHROPIC_API_KEY"}},
		{name: "403", status: 403, body: judgetest.Fixture(t, "error_403.json"),
			kind: judgetest.Stop, says: []string{"does not have permission", "[permission_error]", `may not use model "claude-sonnet-4-5"`}},
		{name: "404", status: 404, body: judgetest.Fixture(t, "error_404.json"),
			kind: judgetest.Stop, says: []string{"model: claude-sonnet-9 [not_found_error]", `check the model name "claude-sonnet-4-5" and the base URL http://`}},
		{name: "200 malformed envelope", status: 200, body: []byte(`{"id":"msg_01","type":"message","content":[{"type":"tool_use",`),
			kind: judgetest.AskAgain, says: []string{"not a message", `begins "{\"id\":\"msg_01\"`}},
		{name: "200 of another type", status: 200, body: []byte(`{"type":"completion","completion":"{}"}`),
			kind: judgetest.AskAgain, says: []string{`not a message (type "completion")`}},
		{name: "200 holding an error", status: 200, body: judgetest.Fixture(t, "error_529.json"),
			kind: judgetest.AskAgain, says: []string{"holds an error instead of an answer: Overloaded [overloaded_error]"}},
		{name: "200 text, no tool_use", status: 200, body: judgetest.Fixture(t, "message_text_only.json"),
			kind: judgetest.AskAgain, says: []string{`no call of the answer tool (stop_reason "end_turn"); it wrote "The description is terse`}},
		{name: "200 another tool", status: 200, body: judgetest.Fixture(t, "message_other_tool.json"),
			kind: judgetest.AskAgain, says: []string{"no call of the answer tool"}},
		{name: "200 empty content", status: 200, body: judgetest.Fixture(t, "message_empty.json"),
			kind: judgetest.AskAgain, says: []string{"no call of the answer tool"}},
		{name: "200 refusal", status: 200, body: judgetest.Fixture(t, "message_refusal.json"),
			kind: judgetest.AskAgain, says: []string{`the model refused to answer; it wrote "I can't help with that."`}},
		{name: "200 cut off", status: 200, body: judgetest.Fixture(t, "message_max_tokens.json"),
			kind: judgetest.AskAgain, says: []string{"cut off at max_tokens (4096)", "raise the judge's max_tokens option"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := judgetest.Serve(t, c.status, c.header, c.body)
			_, err := configure(t, srv.URL, nil).Ask(context.Background(), question())
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
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error %q shows the key", err)
			}
		})
	}
}

func TestReplyOverLimit(t *testing.T) {
	big := `{"type":"message","content":[{"type":"text","text":"` + strings.Repeat("x", 16<<20) + `"}]}`
	srv := judgetest.Serve(t, 200, nil, []byte(big))
	_, err := configure(t, srv.URL, nil).Ask(context.Background(), question())
	if judgetest.KindOf(err) != judgetest.AskAgain || !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("a reply over 16 MiB: %v", err)
	}
}

func TestCancelMidRequest(t *testing.T) {
	started := make(chan struct{})
	srv := judgetest.Hanging(t, started)
	j := configure(t, srv.URL, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	_, err := j.Ask(ctx, question())
	if judgetest.KindOf(err) != judgetest.Cancelled {
		t.Errorf("cancelled mid-request: %v (%T)", err, err)
	}
}

func TestTimeout(t *testing.T) {
	srv := judgetest.Hanging(t, make(chan struct{}))
	_, err := configure(t, srv.URL, map[string]string{"timeout": "150ms"}).Ask(context.Background(), question())
	if judgetest.KindOf(err) != judgetest.Stop || !strings.Contains(err.Error(), "no reply within 150ms") {
		t.Errorf("a server that never answers: %v (%T)", err, err)
	}
}

func TestConnectionDropped(t *testing.T) {
	srv := judgetest.Dropping(t)
	_, err := configure(t, srv.URL, nil).Ask(context.Background(), question())
	if judgetest.KindOf(err) != judgetest.Wait {
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
	_, err = configure(t, "http://"+addr, nil).Ask(context.Background(), question())
	if judgetest.KindOf(err) != judgetest.Stop || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("nothing listening: %v (%T)", err, err)
	}
}

// TestRedirectNotFollowed: a redirect is reported, not followed, so the
// key in x-api-key never reaches another host.
func TestRedirectNotFollowed(t *testing.T) {
	elsewhere := judgetest.Serve(t, 200, nil, judgetest.Fixture(t, "message_tool_use.json"))
	srv := judgetest.Serve(t, http.StatusTemporaryRedirect, http.Header{"Location": {elsewhere.URL + "/v1/messages"}}, nil)
	_, err := configure(t, srv.URL, nil).Ask(context.Background(), question())
	if judgetest.KindOf(err) != judgetest.Stop || !strings.Contains(err.Error(), "307 Temporary Redirect; it redirects to "+elsewhere.URL+"/v1/messages") {
		t.Errorf("a redirect: %v (%T)", err, err)
	}
	if n := len(elsewhere.Requests()); n != 0 {
		t.Errorf("the redirect was followed (%d requests)", n)
	}
}
