package host

import (
	"cmp"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/internal/redact"
)

// secrets are the values rubric gave one plugin that it may print back
// (an "invalid key sk-..." before it dies): a judge's key from its
// environment or its options, a transport's headers and the server
// environment it was given. What the host quotes of the plugin (a crash
// message, a failed start, the log) has them hidden, as the stdio
// transport hides what it gives a server (redact.Credentials). A transport
// learns its values with each export, so the set grows.
type secrets struct {
	mu   sync.Mutex
	vals []string // longest first, as redact.Values wants them
}

// add adds values to the set.
func (s *secrets) add(vals ...string) {
	if len(vals) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.vals = append(s.vals, vals...)
	slices.SortFunc(s.vals, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b))
	})
	s.vals = slices.Compact(s.vals)
}

// hide returns text with every value of the set replaced by
// redact.Marker.
func (s *secrets) hide(text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return redact.Values(text, s.vals)
}

// hideArgs returns a log entry's arguments with the set's values hidden
// from those that are text.
func (s *secrets) hideArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out[i] = s.hide(v)
		case error:
			out[i] = s.hide(v.Error())
		default:
			out[i] = a
		}
	}
	return out
}

// writer passes what is written on to w with the set's values hidden.
func (s *secrets) writer(w io.Writer) io.Writer { return secretsWriter{s, w} }

type secretsWriter struct {
	s *secrets
	w io.Writer
}

func (sw secretsWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(sw.w, sw.s.hide(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// envSecrets are the values of the environment a plugin is given that
// may be credentials (redact.Credentials): among the variables its pin
// passes (plugins.NAME.env, chosen for it, as a server's --env is), and,
// for a built-in, which
// inherits rubric's whole environment, the variables whose names say
// they hold one (OPENAI_API_KEY, GITHUB_TOKEN).
func envSecrets(p Plugin) []string {
	env := map[string]string{}
	if !p.Builtin() {
		for _, n := range p.Env {
			if v, ok := os.LookupEnv(n); ok {
				env[n] = v
			}
		}
		return redact.Credentials(env, nil)
	}
	for _, kv := range os.Environ() {
		if n, v, ok := strings.Cut(kv, "="); ok && redact.SecretName(n) {
			env[n] = v
		}
	}
	return redact.Credentials(env, nil)
}

// optionSecrets are the values of a judge's options whose names say
// they hold a credential (api_key, token), and, for such an option that
// names an environment variable (api_key_env), that variable's value,
// judged by the option's name (api_key), not the variable's: the option
// says the variable holds the key, whatever the user called it (LLAMA,
// holding local-dev-key, was shown in a crash message).
func optionSecrets(options map[string]string) []string {
	var out []string
	for k, v := range options {
		if !redact.SecretName(k) {
			continue
		}
		if name, ok := strings.CutSuffix(strings.ToLower(k), "_env"); ok {
			// Apart from the api_key option itself, which may be given
			// too.
			k, v = name, os.Getenv(v)
		}
		out = append(out, redact.Credentials(map[string]string{k: v}, nil)...)
	}
	return redact.LongestFirst(out)
}
