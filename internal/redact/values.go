package redact

import (
	"cmp"
	"io"
	"slices"
	"strings"
	"sync"
)

// minSecretValue is the shortest value Credentials takes from a
// variable or header whose name says it holds a credential
// (credentialName), and ArgSecrets from a command line.
const minSecretValue = 3

// Credentials returns the values rubric gives a server that are
// secret, which the server may print back (an "invalid token ghp_..." on
// its stderr, in an error page): the values of its environment variables
// (those a client configuration takes from the user's by ${VAR} too,
// by the variable's name) and of its HTTP headers whose names say they
// hold a credential (credentialName: API_KEY, GITHUB_TOKEN,
// Authorization, but not MAX_TOKENS or TOKEN_LIMIT, which are counts,
// nor PWD), and, whatever
// the name, values that look like one (Credential: ghp_..., a long
// random string, a URL with a password). For a header such as "Bearer
// TOKEN" the credential after the scheme too. The rest (a mode, a
// number, a directory) is a setting, kept readable wherever a server or
// a log quotes it. Longest first, as Values needs them.
func Credentials(env, headers map[string]string) []string {
	return given(env, headers, func(name, v string) bool {
		return credentialName(name) && len(v) >= minSecretValue || Credential(v)
	})
}

// given returns the values of env and headers that secret says are
// secrets, with the credential after a header's scheme, longest first.
func given(env, headers map[string]string, secret func(name, v string) bool) []string {
	var out []string
	add := func(name, v string) {
		if v = strings.TrimSpace(v); secret(name, v) {
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

// credentialPrefixes begin the tokens of well-known issuers (OpenAI and
// Anthropic, GitHub, GitLab, Slack, AWS, Google, Stripe, npm, Hugging
// Face, JSON Web Tokens): a value starting with one and long enough is a
// credential whatever the name of the variable holding it.
var credentialPrefixes = []string{
	"sk-", "sk_", "pk_", "rk_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
	"xoxb-", "xoxp-", "xoxa-", "xoxs-", "xapp-", "AKIA", "ASIA", "AIza", "ya29.", "npm_", "hf_",
	"pypi-", "eyJ",
}

// Credential says whether a value looks like a credential, whatever its
// name: a token of a well-known issuer (credentialPrefixes), a URL
// carrying a password or a credential parameter (URL would redact it),
// a UUID, or a run of 16 or more letters and digits, between separators
// (- _ . /), that mixes both as random strings do, or is hexadecimal.
// Words joined by dashes (my-server-2024-production), paths, numbers,
// and URLs without a credential are not.
func Credential(v string) bool {
	v = strings.TrimSpace(v)
	if strings.ContainsAny(v, " \t\r\n") {
		return false
	}
	if strings.Contains(v, "://") {
		return URL(v) != v
	}
	for _, p := range credentialPrefixes {
		if strings.HasPrefix(v, p) && len(v) >= len(p)+8 {
			return true
		}
	}
	if isUUID(v) {
		return true
	}
	for _, seg := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' }) {
		if len(seg) >= 16 && randomLooking(seg) {
			return true
		}
	}
	return false
}

// randomLooking says whether seg, a run of a value between separators,
// is made as a generated token is: letters and digits (and the + and =
// of base64) only, with at least two digits and two letters, or
// hexadecimal digits with at least one digit and one letter.
func randomLooking(seg string) bool {
	letters, digits, hex := 0, 0, true
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letters++
			hex = hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
		case c == '+' || c == '=':
			hex = false
		default:
			return false
		}
	}
	return digits >= 2 && letters >= 2 || hex && digits >= 1 && letters >= 1
}

// isUUID says whether v is written as a UUID (8-4-4-4-12 hexadecimal
// digits), as many API keys are.
func isUUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < len(v); i++ {
		switch i {
		case 8, 13, 18, 23:
			if v[i] != '-' {
				return false
			}
		default:
			if c := v[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
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
// Credentials and ArgSecrets return them) replaced by Marker where it stands apart (see
// Apart): for a server's words (its stderr, an error it answered with)
// quoted in a message or a file. A setting that is a word of the
// server's own ("verbose", "ollama") is hidden where the server quotes
// it, not inside its other words. Occurrences that overlap are hidden
// as one. The secrets are read in one pass over s, however many they
// are.
func Values(s string, secrets []string) string {
	if len(secrets) == 0 {
		return s
	}
	return newMatcher(secrets).hide(s)
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
		if !apart(text, i, end) {
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
	return &hidingWriter{w: w, hide: newMatcher(secrets).hide}
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
	if !SecretName(name) || slices.Contains(notCredentials, strings.ToUpper(name)) {
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
	"max", "min", "limit", "count", "size", "length", "timeout", "ttl", "sock", "socket", "address", "addr",
}

// notCredentials are variables every shell sets whose names hold a
// part of a credential's name (pwd): the working directory.
var notCredentials = []string{"PWD", "OLDPWD"}

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
// them as Values does: for a log made before they are known. The
// secrets are kept in a few matchers, each of about twice the secrets
// of the next: an Add builds a matcher of its own values, merged with
// the smaller ones as they come to match it in size. So a line is read
// once per matcher (a number that grows as the logarithm of the secrets
// added), never once per secret, and a scan of n servers builds its
// matchers in time n log n, not n squared. The zero value is empty and
// ready; it is safe for concurrent use.
type Hidden struct {
	mu sync.RWMutex
	// levels are the matchers, the largest first, with their secrets.
	levels []hiddenLevel
}

// hiddenLevel is one matcher of a Hidden and the secrets it finds.
type hiddenLevel struct {
	secrets []string
	m       *matcher
}

// Add adds values to h; empty ones are left out.
func (h *Hidden) Add(values ...string) {
	var add []string
	for _, v := range values {
		if v != "" {
			add = append(add, v)
		}
	}
	if len(add) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	keep := len(h.levels)
	for keep > 0 && len(h.levels[keep-1].secrets) <= 2*len(add) {
		add = append(add, h.levels[keep-1].secrets...)
		keep--
	}
	add = LongestFirst(add)
	// A new slice: a Values running holds the old one.
	h.levels = append(slices.Clone(h.levels[:keep]), hiddenLevel{secrets: add, m: newMatcher(add)})
}

// Values is s with h's secrets hidden as Values hides them.
func (h *Hidden) Values(s string) string {
	h.mu.RLock()
	levels := h.levels
	h.mu.RUnlock()
	var spans []span
	for _, l := range levels {
		spans = l.m.find(s, spans)
	}
	return cover(s, spans)
}

// Writer returns a writer that passes everything to w with the secrets
// h holds at the time of each Write hidden. Each Write is hidden on its
// own, so give it whole lines.
func (h *Hidden) Writer(w io.Writer) io.Writer { return &hidingWriter{w: w, hide: h.Values} }
