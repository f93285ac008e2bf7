package scrub

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
)

func TestString(t *testing.T) {
	s := New("k-123", "", "  ", "Bearer k-123", `p"w/x`)
	cases := map[string]string{
		"no secret":                    "no secret",
		"key k-123 here":               "key [redacted] here",
		"Authorization: Bearer k-123.": "Authorization: [redacted].",
		`{"echo":"p\"w/x"}`:            `{"echo":"[redacted]"}`,
		`raw p"w/x`:                    `raw [redacted]`,
	}
	for in, want := range cases {
		if got := s.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStringApart: a secret is replaced where it stands apart, not
// inside a longer word, so that a placeholder key (x, ollama) leaves the
// answers' words whole; a key echoed back is still replaced.
func TestStringApart(t *testing.T) {
	for _, tc := range []struct {
		secret, in, want string
	}{
		{"x", `{"contextual_completeness":{"score":3}}`, `{"contextual_completeness":{"score":3}}`},
		{"x", "key x refused", "key [redacted] refused"},
		{"x", "x", "[redacted]"},
		{"ollama", "served by ollama_runner and ollama.", "served by ollama_runner and [redacted]."},
		{"sk-test-1234567890", "invalid key sk-test-1234567890: refused", "invalid key [redacted]: refused"},
		{"sk-test-1234567890", `{"auth":"Bearer sk-test-1234567890"}`, `{"auth":"Bearer [redacted]"}`},
		// A secret that begins or ends with punctuation is replaced
		// whatever runs on from that end.
		{"-k1", "a-k1 b", "a[redacted] b"},
		{"aa", "aaa aa", "aaa [redacted]"},
	} {
		if got := New(tc.secret).String(tc.in); got != tc.want {
			t.Errorf("String(%q) with %q = %q, want %q", tc.in, tc.secret, got, tc.want)
		}
	}
	a := New("x").Answer(judge.Answer{JSON: []byte(`{"scores":{"contextual_completeness":{"score":3,"justification":"explains the context"}}}`), Model: "mixtral-8x7b"})
	if string(a.JSON) != `{"scores":{"contextual_completeness":{"score":3,"justification":"explains the context"}}}` || a.Model != "mixtral-8x7b" {
		t.Errorf("a placeholder key x changed the answer: %s, %q", a.JSON, a.Model)
	}
}

func TestAnswer(t *testing.T) {
	a := New("k-123").Answer(judge.Answer{JSON: []byte(`{"why":"the key k-123 works"}`), Model: "m-k-123", Tokens: judge.Tokens{Input: 3}})
	if string(a.JSON) != `{"why":"the key [redacted] works"}` || a.Model != "m-[redacted]" || a.Tokens.Input != 3 {
		t.Errorf("Answer: %s, %q, %+v", a.JSON, a.Model, a.Tokens)
	}
	plain := judge.Answer{JSON: []byte(`{}`), Model: "m"}
	if got := Secrets(nil).Answer(plain); string(got.JSON) != "{}" || got.Model != "m" {
		t.Errorf("no secrets: %+v", got)
	}
}

func TestError(t *testing.T) {
	clean := New("k-123").String
	cases := []struct {
		name  string
		err   error
		want  string
		check func(error) bool
	}{
		{"untouched", errors.New("fine"), "fine", func(e error) bool { return e.Error() == "fine" }},
		{"plain", errors.New("bad key k-123"), "bad key [redacted]", nil},
		{"rate limit keeps its wait", &judge.RateLimitError{RetryAfter: 3 * time.Second, Msg: "429 for k-123"}, "rate limited (retry after 3s): 429 for [redacted]",
			func(e error) bool {
				var rl *judge.RateLimitError
				return errors.As(e, &rl) && rl.RetryAfter == 3*time.Second
			}},
		{"unreadable", fmt.Errorf("x: %w", &judge.UnreadableError{Msg: "echo k-123"}), "unreadable reply: echo [redacted]",
			func(e error) bool { var ur *judge.UnreadableError; return errors.As(e, &ur) }},
		{"cancelled", fmt.Errorf("asking k-123: %w", context.Canceled), "asking [redacted]: context canceled",
			func(e error) bool { return errors.Is(e, context.Canceled) }},
		{"deadline", fmt.Errorf("asking k-123: %w", context.DeadlineExceeded), "asking [redacted]: context deadline exceeded",
			func(e error) bool { return errors.Is(e, context.DeadlineExceeded) }},
	}
	for _, c := range cases {
		got := Error(c.err, clean)
		if got.Error() != c.want || (c.check != nil && !c.check(got)) {
			t.Errorf("%s: %v (%T)", c.name, got, got)
		}
	}
	if Error(nil, clean) != nil {
		t.Error("Error(nil) is not nil")
	}
}
