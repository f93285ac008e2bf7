package httpjudge

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		header http.Header
		want   time.Duration
	}{
		{"none", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"7"}}, 7 * time.Second},
		{"fractional seconds", http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond},
		{"zero", http.Header{"Retry-After": {"0"}}, 0},
		{"negative", http.Header{"Retry-After": {"-4"}}, 0},
		{"HTTP date ahead", http.Header{"Retry-After": {"Sun, 01 Mar 2026 12:00:45 GMT"}}, 45 * time.Second},
		{"HTTP date past", http.Header{"Retry-After": {"Sun, 01 Mar 2026 11:59:00 GMT"}}, 0},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
		{"milliseconds win", http.Header{"Retry-After": {"2"}, "Retry-After-Ms": {"1720"}}, 1720 * time.Millisecond},
		{"fractional milliseconds", http.Header{"Retry-After-Ms": {"250.5"}}, 250500 * time.Microsecond},
		{"bad milliseconds fall back", http.Header{"Retry-After": {"2"}, "Retry-After-Ms": {"x"}}, 2 * time.Second},
		{"absurd seconds", http.Header{"Retry-After": {"1e300"}}, 0},
	}
	for _, c := range cases {
		if got := RetryAfter(c.header, now); got != c.want {
			t.Errorf("%s: RetryAfter %v, want %v", c.name, got, c.want)
		}
	}
}

func TestRefused(t *testing.T) {
	c := &Client{Host: "api.example.com", Secrets: []string{"k-secret-123"}}
	cases := []struct {
		f       Failure
		limited bool
		want    string
	}{
		{Failure{Status: 429, Header: http.Header{"Retry-After": {"3"}}, Message: "Slow down.", Code: "rate_limit_error", Hint: "unused"},
			true, "rate limited (retry after 3s): api.example.com answered 429 Too Many Requests: Slow down [rate_limit_error]"},
		{Failure{Status: 529, Message: "Overloaded", Code: "overloaded_error"},
			true, "rate limited: api.example.com answered 529 Overloaded: Overloaded [overloaded_error]"},
		{Failure{Status: 503}, true, "rate limited: api.example.com answered 503 Service Unavailable"},
		{Failure{Status: 429, Message: "Quota used up", Final: true, Hint: "check billing"},
			false, "api.example.com answered 429 Too Many Requests: Quota used up; check billing"},
		{Failure{Status: 401, Message: "bad key k-secret-123", Code: "authentication_error", Hint: "check the key in KEY"},
			false, "api.example.com answered 401 Unauthorized: bad key [redacted] [authentication_error]; check the key in KEY"},
		{Failure{Status: 418}, false, "api.example.com answered 418 I'm a teapot"},
		{Failure{Status: 308, Header: http.Header{"Location": {"https://api.example.com/v1/chat/completions"}}},
			false, "api.example.com answered 308 Permanent Redirect; it redirects to https://api.example.com/v1/chat/completions: set the base URL to the address the API is served at, with --base-url (or base_url=URL in --judge-option or in --judge NAME:base_url=URL)"},
		{Failure{Status: 599}, false, "api.example.com answered 599"},
		{Failure{Status: 302, Header: http.Header{"Location": {"https://u:pw-9@login.example.com/sso?next=/v1&token=t-9"}}},
			false, "api.example.com answered 302 Found; it redirects to https://u:[redacted]@login.example.com/sso?next=/v1&token=[redacted]: set the base URL to the address the API is served at, with --base-url (or base_url=URL in --judge-option or in --judge NAME:base_url=URL)"},
		{Failure{Status: 400, Message: "bad callback http://cb.example/?sig=s-9"},
			false, "api.example.com answered 400 Bad Request: bad callback http://cb.example/?sig=[redacted]"},
	}
	for _, cs := range cases {
		err := c.Refused(cs.f)
		var rl *judge.RateLimitError
		if errors.As(err, &rl) != cs.limited {
			t.Errorf("status %d: %T, rate limit %v", cs.f.Status, err, cs.limited)
		}
		if err.Error() != cs.want {
			t.Errorf("status %d:\n got  %s\n want %s", cs.f.Status, err, cs.want)
		}
	}
}

func TestRedact(t *testing.T) {
	c := &Client{Secrets: []string{"local-token-42", ""}}
	cases := map[string]string{
		"Incorrect API key provided: sk-proj-abc*****************wxyz. See docs": "Incorrect API key provided: [redacted]. See docs",
		"key sk-ant-api03-AbC_d-E used":                                          "key [redacted] used",
		"token local-token-42 refused":                                           "token [redacted] refused",
		"key ab12**********yz9 is wrong":                                         "key [redacted] is wrong",
		"nothing secret here: task-runner":                                       "nothing secret here: task-runner",
	}
	for in, want := range cases {
		if got := c.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSnippet(t *testing.T) {
	c := &Client{}
	long := strings.Repeat("é", 150) // 300 bytes: the cut falls inside the text
	cases := []struct {
		in, want string
	}{
		{"", "an empty body"},
		{"  \n ", "an empty body"},
		{"<html>\n  <body>502</body>\n</html>", `"<html> <body>502</body> </html>"`},
		{long, `"` + strings.Repeat("é", 100) + `..."`},
		{"\xff\xfeok", `"?ok"`}, // a run of bad bytes becomes one "?"
	}
	for _, cs := range cases {
		if got := c.Snippet([]byte(cs.in)); got != cs.want {
			t.Errorf("Snippet(%q) = %s, want %s", cs.in, got, cs.want)
		}
	}
}

func TestAPIKey(t *testing.T) {
	t.Setenv("DEMO_KEY", "")
	t.Setenv("DEMO_SET", " k-1 ")
	cases := []struct {
		env           string
		hosted, named bool
		key, err      string
	}{
		{"DEMO_SET", true, false, "k-1", ""},
		{"DEMO_KEY", false, false, "", ""},
		{"DEMO_KEY", true, false, "", "the demo judge needs an API key for api.demo.com: set DEMO_KEY, or name another variable with --judge-option api_key_env=NAME (or in --judge demo:api_key_env=NAME)"},
		{"DEMO_KEY", false, true, "", "the demo judge's option api_key_env names DEMO_KEY, which is not set: set DEMO_KEY to the API key for api.demo.com, or name another variable with --judge-option api_key_env=NAME (or in --judge demo:api_key_env=NAME)"},
	}
	for _, c := range cases {
		key, err := APIKey("demo", c.env, "api.demo.com", c.hosted, c.named)
		if key != c.key || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s hosted=%v named=%v: %q, %v", c.env, c.hosted, c.named, key, err)
		}
	}
}

// TestTransportError: an error that left no reply names the setting the
// user mends it with as they can give it (--base-url, --judge-option),
// not the option's key alone, which no flag or config key is spelt as.
func TestTransportError(t *testing.T) {
	c := &Client{Host: "llm.example:8000"}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"refused", refused,
			"cannot connect to llm.example:8000 (connection refused): is the server running, and is the base URL right? Check --base-url (or base_url=URL in --judge-option or in --judge NAME:base_url=URL)"},
		{"no such host", &net.DNSError{Err: "no such host", Name: "llm.example"},
			"cannot find llm.example:8000 (no such host): check the base URL, --base-url (or base_url=URL in --judge-option or in --judge NAME:base_url=URL)"},
		{"slow", context.DeadlineExceeded,
			"llm.example:8000 sent no reply within 2m0s; if the model is slow, give it longer with --judge-option timeout=5m (or in --judge NAME:timeout=5m)"},
	}
	for _, cs := range cases {
		if got := c.transportError(context.Background(), 2*time.Minute, cs.err).Error(); got != cs.want {
			t.Errorf("%s:\n got  %s\n want %s", cs.name, got, cs.want)
		}
	}
}
