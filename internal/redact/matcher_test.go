package redact

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestCredential: values that look like credentials whatever their
// names, and settings that do not.
func TestCredential(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{
		{"ghp_SUPERSECRET777", true},
		{"sk-proj-abcdefgh", true},
		{"xoxb-1234-5678-abcdef", true},
		{"AKIAIOSFODNN7EXAMPLE", true},
		{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc", true},
		{"x7Kp9QmZ2vL4nR8s", true},
		{"9f86d081884c7d659a2feaa0c55ad015", true},
		{"3f2b8c1e-4d5a-4b6c-9e8f-0a1b2c3d4e5f", true},
		{"postgres://app:hunter22@db:5432/app", true},
		{"https://h/mcp?api_key=abc", true},
		{"sk-short", false},
		{"4096", false},
		{"production", false},
		{"my-server-2024-production", false},
		{"/home/me/project", false},
		{"/usr/local/lib/npm-global/@scope/server-2/dist/index.js", false},
		{"https://example.com/mcp", false},
		{"C:\\Users\\me\\bin", false},
		{"Bearer abc def", false},
		{"abcdefghijklmnopqrst", false},
		{"12345678901234567890", false},
	} {
		if got := Credential(c.v); got != c.want {
			t.Errorf("Credential(%q) = %v, want %v", c.v, got, c.want)
		}
	}
}

// TestCredentialsByName: a name that says credential hides even a short
// value; a count or a size named after tokens does not, nor the working
// directory, a socket, or any other setting.
func TestCredentialsByName(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{"MAX_TOKENS": "4096", "TOKEN_LIMIT": "8000", "maxTokens": "100000", "NUM_KEYS": "12"}, nil},
		{map[string]string{"API_KEY": "k3y", "DB_PASSWORD": "hunter2", "SLACK_SIGNING_SECRET": "abcdef"}, []string{"hunter2", "abcdef", "k3y"}},
		{map[string]string{"NODE_ENV": "production", "HOME": "/home/me", "PORT": "8080", "RUBRIC_DIR": "/opt/rubric/bin", "PWD": "/opt/rubric/bin", "OLDPWD": "/tmp",
			"SSH_AUTH_SOCK": "/tmp/ssh-XXXX/agent.1", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}, nil},
		{map[string]string{"API_KEY": "ab"}, nil},
	} {
		if got := Credentials(c.env, nil); !slices.Equal(got, c.want) {
			t.Errorf("Credentials(%v) = %q, want %q", c.env, got, c.want)
		}
	}
	got := Credentials(nil, map[string]string{"Authorization": "Bearer abc", "X-Auth-Type": "oauth", "Accept": "application/json"})
	if want := []string{"Bearer abc", "abc"}; !slices.Equal(got, want) {
		t.Errorf("headers: %q, want %q", got, want)
	}
}

// TestMatcher: one pass finds what looking for each secret in turn
// finds: nested secrets, secrets that share a prefix or a suffix,
// overlapping occurrences (hidden as one), and the apart rule.
func TestMatcher(t *testing.T) {
	for _, c := range []struct {
		secrets []string
		in      string
		want    string
	}{
		{[]string{"abc", "abcdef"}, "x abcdef y abc z", "x [redacted] y [redacted] z"},
		{[]string{"bcd", "abcde"}, "abcde bcd", "[redacted] [redacted]"},
		{[]string{"abc-", "-defghij"}, "abc-defghij", "[redacted]"},
		{[]string{"token1"}, "token1token1 token1", "token1token1 [redacted]"},
		{[]string{"he", "she", "his", "hers"}, "ushers: she, he; his hers", "ushers: [redacted], [redacted]; [redacted] [redacted]"},
		{[]string{"aaa"}, "aaaa aaa", "aaaa [redacted]"},
		{[]string{"-x-"}, "a-x-x-b", "a[redacted]b"},
		{nil, "nothing", "nothing"},
	} {
		if got := Values(c.in, LongestFirst(slices.Clone(c.secrets))); got != c.want {
			t.Errorf("Values(%q, %q) = %q, want %q", c.in, c.secrets, got, c.want)
		}
	}
}

// TestMatcherAgainstEachInTurn: on random texts over a small alphabet,
// where secrets overlap often, the matcher hides the same spans as
// finding each secret's occurrences one by one.
func TestMatcherAgainstEachInTurn(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte("ab-c "[r.IntN(5)])
		}
		return b.String()
	}
	for i := range 2000 {
		var secrets []string
		for range 1 + r.IntN(6) {
			if s := strings.TrimSpace(word(1 + r.IntN(5))); s != "" {
				secrets = append(secrets, s)
			}
		}
		in := word(r.IntN(40))
		if got, want := Values(in, secrets), eachInTurn(in, secrets); got != want {
			t.Fatalf("case %d: Values(%q, %q) = %q, want %q", i, in, secrets, got, want)
		}
	}
}

// eachInTurn is what the matcher must do, written plainly: every
// occurrence of every secret that stands apart, overlaps merged.
func eachInTurn(text string, secrets []string) string {
	covered := make([]bool, len(text))
	starts := map[int]bool{}
	for _, s := range secrets {
		for i := 0; i+len(s) <= len(text); i++ {
			if text[i:i+len(s)] == s && apart(text, i, i+len(s)) {
				for j := i; j < i+len(s); j++ {
					covered[j] = true
				}
				starts[i] = true
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		if !covered[i] {
			b.WriteByte(text[i])
			i++
			continue
		}
		b.WriteString(Marker)
		// A span ends where the cover ends, or where an adjacent
		// occurrence starts after one that ended.
		j := i + 1
		for j < len(text) && covered[j] && !(starts[j] && !overlapsBefore(text, secrets, j)) {
			j++
		}
		i = j
	}
	return b.String()
}

// overlapsBefore says whether an occurrence standing apart that starts
// before j covers j.
func overlapsBefore(text string, secrets []string, j int) bool {
	for _, s := range secrets {
		for i := max(0, j-len(s)+1); i < j; i++ {
			if i+len(s) <= len(text) && text[i:i+len(s)] == s && apart(text, i, i+len(s)) {
				return true
			}
		}
	}
	return false
}

// BenchmarkHidden: hiding a log line costs its length, not the number
// of servers whose secrets a scan has learnt.
func BenchmarkHidden(b *testing.B) {
	line := "[DEBUG] rubric: server 'notes' wrote on stderr: listening on /tmp/notes.sock, token sk-not-a-known-one\n"
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var h Hidden
			for i := range n {
				h.Add(fmt.Sprintf("ghp_server%06dSECRETvalue", i))
			}
			for b.Loop() {
				h.Values(line)
			}
		})
	}
}
