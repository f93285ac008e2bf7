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
