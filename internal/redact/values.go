package redact

import (
	"cmp"
	"io"
	"slices"
	"strings"
	"sync"
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
	return &hidingWriter{w: w, hide: func(s string) string { return Values(s, secrets) }}
}

// hidingWriter passes each Write to w as hide writes it.
type hidingWriter struct {
	w    io.Writer
	hide func(string) string
}

func (v *hidingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(v.w, v.hide(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ArgSecrets returns the values a command line gives what its name says
// is a credential (SecretName): VALUE in --token VALUE, --api-key=VALUE
// and API_KEY=VALUE, and in a header written as one argument
// ("Authorization: Bearer VALUE") both the whole value and the
// credential after its scheme. A server's list entry or a command typed
// after -- holds them in the clear, with no ${VAR} to say so; the
// session hides them as it hides a configuration's variables. Values
// shorter than minSecretValue are left out. Longest first, as Values
// needs them.
func ArgSecrets(args []string) []string {
	var out []string
	add := func(v string) {
		if v = strings.TrimSpace(v); len(v) >= minSecretValue {
			out = append(out, v)
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if name, ok := strings.CutPrefix(a, "-"); ok {
			name = strings.TrimPrefix(name, "-")
			if n, v, ok := strings.Cut(name, "="); ok {
				if credentialName(n) {
					add(v)
				} else {
					// --header=Authorization: Bearer VALUE
					secretHeader(v, add)
				}
				continue
			}
			if credentialName(name) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				addHeader(args[i], add)
				add(args[i])
			}
			continue
		}
		if n, v, ok := strings.Cut(a, "="); ok && envName(n) && credentialName(n) {
			add(v)
			continue
		}
		secretHeader(a, add)
	}
	return LongestFirst(out)
}

// credentialName says whether the value of a flag or variable of this
// name is a credential: its name says it is one (SecretName), its last
// word does not say the value is something else (valueWords), and its
// first word is not one that makes it a count or a switch
// (modifierWords). --server-token is a credential; --token-server is not.
func credentialName(name string) bool {
	if !SecretName(name) {
		return false
	}
	words := nameWords(name)
	return len(words) == 0 || !slices.Contains(valueWords, words[len(words)-1]) && !slices.Contains(modifierWords, words[0])
}

// valueWords, as the last word of a flag's or variable's name, say its
// value is not the credential its other words name: where one is kept
// (--token-file PATH, --api-key-env NAME, --session-dir DIR), a number
// about one (--token-limit 8000), what kind it is (--auth-type oauth),
// who issues it (--auth-server URL, --auth-provider github). Hiding such
// a value hides a path, a word or a number wherever a message quotes
// it, and hides nothing secret.
var valueWords = []string{
	"file", "path", "dir", "directory", "env", "var", "name", "type", "mode", "url", "uri",
	"server", "host", "port", "endpoint", "issuer", "provider", "scope", "scopes", "method", "strategy",
	"max", "min", "limit", "count", "size", "length", "timeout", "ttl",
}

// modifierWords, as the first word of a flag's or variable's name, make
// it a count (--max-tokens 4096) or a switch (--no-auth, --enable-auth),
// which takes no value, so that the argument after it is not its.
var modifierWords = []string{"max", "min", "num", "no", "disable", "enable", "skip", "without", "require", "allow"}

// nameWords are the words of a flag's or variable's name, in lower case:
// split at what is not a letter or digit and where a capital follows a
// small letter (maxTokens is max and tokens).
func nameWords(name string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(name); i++ {
		split := i == len(name) || !wordByte(name[i]) || name[i] == '_'
		camel := !split && i > start && name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z'
		if split || camel {
			if i > start {
				out = append(out, strings.ToLower(name[start:i]))
			}
			start = i
			if split {
				start = i + 1
			}
		}
	}
	return out
}

// secretHeader adds, when a is a header written as one argument whose
// name says it holds a credential ("Authorization: Bearer TOKEN",
// "X-API-Key: TOKEN"), its value and the credential after its scheme.
func secretHeader(a string, add func(string)) {
	if n, _, ok := strings.Cut(a, ":"); ok && SecretName(n) {
		addHeader(a, add) // addHeader checks that n can be a header name
	}
}

// addHeader adds, when v is a header written as one argument
// ("Authorization: Bearer TOKEN"), its value and the credential after
// its scheme.
func addHeader(v string, add func(string)) {
	if n, rest, ok := strings.Cut(v, ":"); ok && envName(strings.ReplaceAll(n, "-", "_")) {
		add(rest)
		if _, cred, ok := strings.Cut(strings.TrimSpace(rest), " "); ok {
			add(cred)
		}
	}
}

// envName says whether s can be the name of an environment variable:
// letters, digits and underscores, not starting with a digit.
func envName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !wordByte(s[i]) {
			return false
		}
	}
	return true
}

// Hidden is a set of secrets that grows while a run goes on (a scan
// learns each server's as it takes its job), and a writer that hides
// them as Values does: for a log made before they are known. The zero
// value is empty and ready; it is safe for concurrent use.
type Hidden struct {
	mu      sync.RWMutex
	secrets []string
}

// Add adds values to h; empty ones are left out.
func (h *Hidden) Add(values ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(h.secrets)
	for _, v := range values {
		if v != "" {
			h.secrets = append(h.secrets, v)
		}
	}
	if len(h.secrets) > n {
		h.secrets = LongestFirst(h.secrets)
	}
}

// Values is s with h's secrets hidden as Values hides them.
func (h *Hidden) Values(s string) string {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return Values(s, h.secrets)
}

// Writer returns a writer that passes everything to w with the secrets
// h holds at the time of each Write hidden. Each Write is hidden on its
// own, so give it whole lines.
func (h *Hidden) Writer(w io.Writer) io.Writer { return &hidingWriter{w: w, hide: h.Values} }
