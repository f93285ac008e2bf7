package redact

import (
	"cmp"
	"io"
	"slices"
	"strings"
)

// minValue is the shortest value Secrets takes from a variable whose name
// does not say it holds a credential: shorter ones (1, true, debug) are
// settings, and hiding every occurrence of them would leave a message
// unreadable while hiding nothing.
const minValue = 6

// minSecretValue is the shortest value Secrets takes from a variable
// whose name says it holds a credential (SecretName).
const minSecretValue = 3

// Secrets returns the values rubric itself gives a server, which the
// server may print back (an "invalid token ghp_..." on its stderr, in an
// error page): the values of its environment variables and of its HTTP
// headers, and of a header such as "Bearer TOKEN" the credential after
// the scheme too. Short values are left out as minValue says, unless the
// name says they are a credential. Longest first, so that Values hides a
// value whole before a shorter one inside it.
func Secrets(env, headers map[string]string) []string {
	var out []string
	add := func(name, v string) {
		v = strings.TrimSpace(v)
		if len(v) >= minValue || SecretName(name) && len(v) >= minSecretValue {
			out = append(out, v)
		}
	}
	for k, v := range env {
		add(k, v)
	}
	for k, v := range headers {
		add(k, v)
		if _, cred, ok := strings.Cut(strings.TrimSpace(v), " "); ok {
			add(k, cred)
		}
	}
	return LongestFirst(out)
}

// LongestFirst sorts secrets longest first (then by text) and drops
// repeats, in place, as Values needs them: a value is hidden whole before
// a shorter one inside it.
func LongestFirst(secrets []string) []string {
	slices.SortFunc(secrets, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b))
	})
	return slices.Compact(secrets)
}

// Values returns s with every occurrence of each of the secrets (as
// Secrets returns them) replaced by Marker where it stands apart (see
// Apart): for a server's words (its stderr, an error it answered with)
// quoted in a message or a file. A setting that is a word of the
// server's own ("verbose", "ollama") is hidden where the server quotes
// it, not inside its other words.
func Values(s string, secrets []string) string {
	for _, v := range secrets {
		s = Apart(s, v)
	}
	return s
}

// Apart replaces each occurrence of v in text by Marker
// unless a letter, digit or underscore runs on from its first or last
// character (when that character is one too) into the text around it.
func Apart(text, v string) string {
	if v == "" || !strings.Contains(text, v) {
		return text
	}
	var b strings.Builder
	from := 0 // text[:from] is written
	for at := 0; ; {
		i := strings.Index(text[at:], v)
		if i < 0 {
			break
		}
		i += at
		end := i + len(v)
		joined := (i > 0 && wordByte(text[i-1]) && wordByte(v[0])) ||
			(end < len(text) && wordByte(text[end]) && wordByte(v[len(v)-1]))
		if joined {
			at = i + 1
			continue
		}
		b.WriteString(text[from:i])
		b.WriteString(Marker)
		from, at = end, end
	}
	b.WriteString(text[from:])
	return b.String()
}

// wordByte reports whether c is an ASCII letter, digit or underscore.
func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Error returns err with the secrets hidden from its message as Values
// hides them; what it wraps is still found by errors.Is and errors.As.
// A nil err, or one whose message holds none of them, is returned as it is.
func Error(err error, secrets []string) error {
	if err == nil || len(secrets) == 0 {
		return err
	}
	msg := err.Error()
	if hidden := Values(msg, secrets); hidden != msg {
		return &hiddenError{err: err, msg: hidden}
	}
	return err
}

type hiddenError struct {
	err error
	msg string
}

func (e *hiddenError) Error() string { return e.msg }
func (e *hiddenError) Unwrap() error { return e.err }

// ValuesWriter returns a writer that passes everything to w with the
// secrets hidden as Values hides them. Each Write is hidden on its own,
// so give it whole lines.
func ValuesWriter(w io.Writer, secrets []string) io.Writer {
	if w == nil || len(secrets) == 0 {
		return w
	}
	return &valuesWriter{w: w, secrets: secrets}
}

type valuesWriter struct {
	w       io.Writer
	secrets []string
}

func (v *valuesWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(v.w, Values(string(p), v.secrets)); err != nil {
		return 0, err
	}
	return len(p), nil
}
