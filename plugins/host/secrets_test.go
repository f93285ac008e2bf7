package host

import (
	"slices"
	"testing"
)

// TestOptionSecrets: a judge's options whose names say they hold a
// credential are hidden, and so is the value of the variable an
// api_key_env option names, whatever that variable is called and
// whatever the key looks like: the option says it is the key. A path
// (token_file) and a setting stay readable.
func TestOptionSecrets(t *testing.T) {
	t.Setenv("LLAMA", "local-dev-key")
	t.Setenv("OPENAI_API_KEY", "sk-0123456789abcdef")
	t.Setenv("EMPTY_KEY", "")
	for _, c := range []struct {
		name    string
		options map[string]string
		want    []string
	}{
		{"a key given inline", map[string]string{"api_key": "k3y", "model": "m"}, []string{"k3y"}},
		{"a variable of any name", map[string]string{"api_key_env": "LLAMA"}, []string{"local-dev-key"}},
		{"written in capitals", map[string]string{"API_KEY_ENV": "LLAMA"}, []string{"local-dev-key"}},
		{"a variable named for a key", map[string]string{"api_key_env": "OPENAI_API_KEY"}, []string{"sk-0123456789abcdef"}},
		{"an empty variable", map[string]string{"api_key_env": "EMPTY_KEY"}, nil},
		{"both", map[string]string{"api_key": "k3y", "api_key_env": "LLAMA"}, []string{"local-dev-key", "k3y"}},
		{"a path and a setting", map[string]string{"token_file": "/home/me/.token", "temperature": "0"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := optionSecrets(c.options); !slices.Equal(got, c.want) {
				t.Errorf("optionSecrets(%v) = %q, want %q", c.options, got, c.want)
			}
		})
	}
}
