// Package scrub takes the secrets a judge holds (its API key, the values
// of the headers that carry it, a token in its environment) out of what
// the judge returns, before it reaches the engine's report, answer cache
// or record: an endpoint or a command line that echoes a key back in an
// answer, a model's name or an error message then stores a marker, not
// the key.
package scrub

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/redact"
)

// Secrets are the values no answer or message may carry. The zero value
// holds none.
type Secrets []string

// New returns the non-blank values given, the longest first, so that a
// value holding another ("Bearer KEY" and KEY) is replaced whole.
func New(values ...string) Secrets {
	var s Secrets
	for _, v := range values {
		if strings.TrimSpace(v) != "" && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	slices.SortStableFunc(s, func(a, b string) int { return len(b) - len(a) })
	return s
}

// String replaces every secret in text, as it is and as it reads inside a
// JSON string, by redact.Marker. A secret is replaced where it stands
// apart, not inside a longer word: a placeholder key that a local server
// ignores (OPENAI_API_KEY=x, "ollama") would otherwise be cut out of the
// words of every answer ("conte[redacted]tual_completeness"), breaking
// answers and guarding nothing, while a key echoed back stands between
// spaces, quotes or punctuation.
func (s Secrets) String(text string) string {
	for _, v := range s {
		text = redact.Apart(text, v)
		if q, err := json.Marshal(v); err == nil {
			if esc := string(q[1 : len(q)-1]); esc != v {
				text = redact.Apart(text, esc)
			}
		}
	}
	return text
}

// Answer returns a with the secrets taken out of its text and its model.
// A secret inside a JSON string leaves valid JSON behind, the marker
// being plain text.
func (s Secrets) Answer(a judge.Answer) judge.Answer {
	if len(s) == 0 {
		return a
	}
	if len(a.JSON) > 0 {
		if t := s.String(string(a.JSON)); t != string(a.JSON) {
			a.JSON = []byte(t)
		}
	}
	a.Model = s.String(a.Model)
	return a
}

// Error returns err with its message passed through clean: err itself when
// clean changes nothing, else an error of the same kind to the engine (a
// rate limit with its wait, an unreadable reply, a cancellation) or a
// plain one, holding the cleaned message and nothing of the original.
func Error(err error, clean func(string) string) error {
	if err == nil {
		return nil
	}
	msg := clean(err.Error())
	if msg == err.Error() {
		return err
	}
	var rl *judge.RateLimitError
	var ur *judge.UnreadableError
	switch {
	case errors.As(err, &rl):
		return &judge.RateLimitError{RetryAfter: rl.RetryAfter, Msg: clean(rl.Msg)}
	case errors.As(err, &ur):
		return &judge.UnreadableError{Msg: clean(ur.Msg)}
	case errors.Is(err, context.Canceled):
		return &cleaned{msg, context.Canceled}
	case errors.Is(err, context.DeadlineExceeded):
		return &cleaned{msg, context.DeadlineExceeded}
	}
	return errors.New(msg)
}

// cleaned is a cancellation whose message had a secret taken out: it is
// still the context's error to errors.Is, and holds nothing else.
type cleaned struct {
	msg   string
	cause error
}

func (e *cleaned) Error() string { return e.msg }
func (e *cleaned) Unwrap() error { return e.cause }
