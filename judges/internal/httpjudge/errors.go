package httpjudge

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/judges/internal/scrub"
)

// Failure is what a provider said about a request it did not answer.
type Failure struct {
	// Status is the reply's HTTP status code.
	Status int
	// Header is the reply's headers, where Retry-After is read.
	Header http.Header
	// Message is the provider's own message, "" when its body had none.
	Message string
	// Code is the provider's error type or code ("invalid_api_key",
	// "overloaded_error"), "" when it gave none.
	Code string
	// Hint is the user's next step, added to errors that end the run.
	Hint string
	// Final marks a transient status that waiting will not mend (an
	// exhausted quota, say): it ends the run like any other refusal.
	Final bool
}

// Transient says whether a status means "slow down or try again soon":
// 429 and Anthropic's 529, and the server errors a retry usually mends.
func Transient(status int) bool {
	switch status {
	case http.StatusTooManyRequests, 529,
		http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// Refused turns a failure into the error the engine acts on: a
// *judge.RateLimitError for a transient status (with the wait the
// provider asked for), a plain error with the provider's message and the
// hint for any other.
func (c *Client) Refused(f Failure) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s answered %s", c.Host, StatusLine(f.Status))
	if m := strings.TrimRight(strings.TrimSpace(f.Message), "."); m != "" {
		b.WriteString(": ")
		b.WriteString(m)
	}
	if f.Code != "" {
		fmt.Fprintf(&b, " [%s]", f.Code)
	}
	msg := c.Redact(b.String())
	if Transient(f.Status) && !f.Final {
		return &judge.RateLimitError{RetryAfter: RetryAfter(f.Header, c.now()), Msg: msg}
	}
	hint := f.Hint
	if loc := f.Header.Get("Location"); f.Status >= 300 && f.Status < 400 && loc != "" && hint == "" {
		hint = fmt.Sprintf("it redirects to %s: set the base URL to the address the API is served at, with %s", c.Redact(loc), BaseURLSetting)
	}
	if hint != "" {
		msg += "; " + hint
	}
	return fmt.Errorf("%s", msg)
}

// StatusLine words a status as "429 Too Many Requests".
func StatusLine(status int) string {
	text := http.StatusText(status)
	if status == 529 {
		text = "Overloaded"
	}
	if text == "" {
		return strconv.Itoa(status)
	}
	return fmt.Sprintf("%d %s", status, text)
}

// RetryAfter reads how long a reply asks the caller to wait: the
// retry-after-ms header (milliseconds, which OpenAI sends), else
// Retry-After in seconds or as an HTTP date. It is 0 when neither is
// there or readable, and never negative.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 && s < 1e9 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// keyLike matches what providers echo of a key in their messages: a whole
// or masked "sk-..." key, or a word with a run of asterisks.
var keyLike = regexp.MustCompile(`\bsk-[A-Za-z0-9_\-*]{3,}|[^\s.,;:]*\*{4,}[^\s.,;:]*`)

// Redact removes the client's secrets, anything shaped like a key, and
// the credentials of any URL it quotes (redact.Text), from s.
func (c *Client) Redact(s string) string {
	s = c.strip(s)
	return redact.Text(keyLike.ReplaceAllString(s, redact.Marker))
}

// strip replaces the client's secrets in s by redact.Marker.
func (c *Client) strip(s string) string { return scrub.New(c.Secrets...).String(s) }

// scrub takes the client's secrets out of what a judge returns: the
// answer's text and model, and the error's message (as Redact words it).
func (c *Client) scrub(a judge.Answer, err error) (judge.Answer, error) {
	return scrub.New(c.Secrets...).Answer(a), scrub.Error(err, c.Redact)
}

// Snippet words the start of a body that could not be read, for a
// message: at most 200 bytes of it, on one line, without secrets.
func (c *Client) Snippet(body []byte) string {
	const max = 200
	cut := len(body) > max
	if cut {
		body = body[:max]
	}
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "?")), " ")
	if s == "" {
		return "an empty body"
	}
	if cut {
		s += "..."
	}
	return strconv.Quote(c.Redact(s))
}
