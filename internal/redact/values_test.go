package redact

import (
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strings"
	"testing"
)

// TestLongestFirst: longest first, ties by text, repeats dropped, so
// that Values hides "abcdef" whole before "abc" inside it.
func TestLongestFirst(t *testing.T) {
	got := LongestFirst([]string{"abc", "abcdef", "xyz", "abc", "zz-long"})
	want := []string{"zz-long", "abcdef", "abc", "xyz"}
	if !slices.Equal(got, want) {
		t.Errorf("LongestFirst = %q, want %q", got, want)
	}
}

// TestArgSecrets: the values a command line gives what its name says is
// a credential, as a flag's value, a variable or a header; nothing else.
func TestArgSecrets(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"flag and value", []string{"server", "--token", "sk-abcdef123456"}, []string{"sk-abcdef123456"}},
		{"flag=value", []string{"server", "--api-key=abc123def"}, []string{"abc123def"}},
		{"one dash", []string{"server", "-password", "hunter22"}, []string{"hunter22"}},
		{"variable", []string{"env", "API_KEY=sekret-value-99", "server"}, []string{"sekret-value-99"}},
		{"header", []string{"mcp-remote", "https://x.example/mcp", "--header", "Authorization: Bearer tok123456"}, []string{"Bearer tok123456", "tok123456"}},
		{"a flag with no value", []string{"server", "--token", "--verbose"}, nil},
		{"short", []string{"server", "--token", "ab"}, nil},
		{"no credential", []string{"npx", "-y", "@scope/server", "--port", "8080", "MODE=debug", "/tmp/dir"}, nil},
		{"a path with =", []string{"server", "--out=/tmp/a=b"}, nil},
		{"a URL", []string{"server", "https://host/x?a=b"}, nil},
		{"header=", []string{"mcp-remote", "https://x.example/mcp", "--header=Authorization: Bearer tok123456"}, []string{"Bearer tok123456", "tok123456"}},
		{"header= of no credential", []string{"mcp-remote", "--header=Accept: application/json"}, nil},
		{"a key header", []string{"server", "-H", "X-API-Key: abc123def"}, []string{"abc123def"}},
		{"a count", []string{"server", "--max-tokens", "4096", "--tokenLimit=8000"}, nil},
		{"a count, camel case", []string{"server", "--maxTokens", "4096"}, nil},
		{"a file", []string{"server", "--token-file", "/home/u/.token", "GITHUB_TOKEN_FILE=/run/secrets/gh"}, nil},
		{"a directory", []string{"server", "--session-dir", "/tmp/sessions"}, nil},
		{"a variable's name", []string{"server", "--api-key-env", "MY_API_KEY"}, nil},
		{"a kind", []string{"server", "--auth-type", "oauth"}, nil},
		{"who issues it", []string{"server", "--auth-server", "https://auth.example.com", "--oauth-provider", "github", "--auth-scopes", "repo"}, nil},
		{"a switch", []string{"server", "--no-auth", "/tmp/data"}, nil},
		{"a switch, then a credential", []string{"server", "--no-auth", "--token", "sk-abcdef123456"}, []string{"sk-abcdef123456"}},
		{"camel case credential", []string{"server", "--apiKey", "abc123def"}, []string{"abc123def"}},
		{"a credential named after its server", []string{"server", "--server-token", "sk-abcdef123456", "PROVIDER_API_KEY=sekret-value-99"}, []string{"sekret-value-99", "sk-abcdef123456"}},
	} {
		got := ArgSecrets(c.args)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: ArgSecrets(%q) = %q, want %q", c.name, c.args, got, c.want)
		}
	}
}

// TestHidden: a writer made before a secret is known hides it from the
// writes after it is added.
func TestHidden(t *testing.T) {
	var h Hidden
	var b strings.Builder
	w := h.Writer(&b)
	io.WriteString(w, "starting with sk-abcdef123456\n")
	h.Add("sk-abcdef123456", "")
	io.WriteString(w, "server said: bad token sk-abcdef123456\n")
	want := "starting with sk-abcdef123456\nserver said: bad token " + Marker + "\n"
	if b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}

// TestHiddenGrowsByLevels: a scan adds one server's secrets at a time;
// every one is hidden, and a line is read by a number of matchers that
// grows as the logarithm of the secrets added, not by one per secret.
func TestHiddenGrowsByLevels(t *testing.T) {
	var h Hidden
	const n = 5000
	for i := range n {
		h.Add(fmt.Sprintf("ghp_server%06dSECRET", i))
	}
	if got, limit := len(h.levels), 2*bits.Len(n)+1; got > limit {
		t.Errorf("%d matchers for %d secrets, want at most %d", got, n, limit)
	}
	total := 0
	for _, l := range h.levels {
		total += len(l.secrets)
	}
	if total != n {
		t.Errorf("the matchers hold %d secrets, want %d", total, n)
	}
	for _, i := range []int{0, 1, 2, n / 2, n - 2, n - 1} {
		line := fmt.Sprintf("bad token ghp_server%06dSECRET, and ghp_server%06dSECRETS is another word\n", i, i)
		want := fmt.Sprintf("bad token %s, and ghp_server%06dSECRETS is another word\n", Marker, i)
		if got := h.Values(line); got != want {
			t.Errorf("Values(%q) = %q, want %q", line, got, want)
		}
	}
}
