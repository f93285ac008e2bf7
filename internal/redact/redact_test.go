package redact

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"nothing secret", "https://api.example.com/v1", "https://api.example.com/v1"},
		{"plain query kept", "https://h/search?q=tools&page=2", "https://h/search?q=tools&page=2"},
		{"password", "https://alice:hunter2@h:8443/v1", "https://alice:[redacted]@h:8443/v1"},
		{"empty password", "https://alice:@h/", "https://alice:[redacted]@h/"},
		{"token as the user", "https://ghp_abc123@github.com/x", "https://[redacted]@github.com/x"},
		{"@ in the password", "http://u:p@ss@h/", "http://u:[redacted]@h/"},
		{"@ in the path is not userinfo", "https://h/users/@me?x=1", "https://h/users/@me?x=1"},
		{"token", "https://h/mcp?token=s3cr3t", "https://h/mcp?token=[redacted]"},
		{"several, in order", "https://h/?a=1&api_key=k1&b=2&access_token=t2", "https://h/?a=1&api_key=[redacted]&b=2&access_token=[redacted]"},
		{"case and compounds", "https://h/?X-Amz-Signature=ab&X-Amz-Credential=cd&Password=ef&clientSecret=gh",
			"https://h/?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]&Password=[redacted]&clientSecret=[redacted]"},
		{"escaped name", "https://h/?api%5Fkey=k&auth%20token=t", "https://h/?api%5Fkey=[redacted]&auth%20token=[redacted]"},
		{"semicolons", "https://h/?sig=1;x=2", "https://h/?sig=[redacted];x=2"},
		{"no value", "https://h/?token", "https://h/?token"},
		{"empty value", "https://h/?token=", "https://h/?token=[redacted]"},
		{"fragment", "https://h/cb#access_token=t&state=s", "https://h/cb#access_token=[redacted]&state=s"},
		{"plain fragment kept", "https://h/doc#section-2", "https://h/doc#section-2"},
		{"empty query and fragment kept", "https://h/?#", "https://h/?#"},
		{"both", "https://u:p@h/?key=k#sig=s", "https://u:[redacted]@h/?key=[redacted]#sig=[redacted]"},
		{"no scheme", "h:80/path?secret=x", "h:80/path?secret=[redacted]"},
		{"malformed", "http://u:p@h/%zz?token=%zz", "http://u:[redacted]@h/%zz?token=[redacted]"},
		{"not a URL", "just words", "just words"},
		{"empty", "", ""},
	}
	for _, c := range cases {
		if got := URL(c.in); got != c.want {
			t.Errorf("%s: URL(%q)\n got  %s\n want %s", c.name, c.in, got, c.want)
		}
	}
}

func TestURLExtraNames(t *testing.T) {
	in := "https://h/?tenant=acme&q=1"
	if got := URL(in); got != in {
		t.Errorf("without extra names: %s", got)
	}
	if got, want := URL(in, "TENANT"), "https://h/?tenant=[redacted]&q=1"; got != want {
		t.Errorf("with an extra name: %s, want %s", got, want)
	}
}

func TestSecretName(t *testing.T) {
	cases := map[string]bool{
		"token": true, "api_key": true, "apiKey": true, "X-API-KEY": true, "secret": true,
		"password": true, "passwd": true, "pwd": true, "auth": true, "authorization": true,
		"sig": true, "signature": true, "session_id": true, "jwt": true, "code": true,
		"q": false, "page": false, "cursor": false, "limit": false, "name": false, "": false,
	}
	for name, want := range cases {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestText(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{`Post "https://u:pw@h/v1/chat?key=k1": dial tcp: lookup h: no such host`,
			`Post "https://u:[redacted]@h/v1/chat?key=[redacted]": dial tcp: lookup h: no such host`},
		{"redirects to https://other/x?token=t and http://a:b@c/",
			"redirects to https://other/x?token=[redacted] and http://a:[redacted]@c/"},
		{"no URL here, only a=b and token=x", "no URL here, only a=b and token=x"},
		{"<https://h/?sig=1>", "<https://h/?sig=[redacted]>"},
		{"cannot reach https://h/?token=t: refused (see https://h/?key=k).", "cannot reach https://h/?token=[redacted]: refused (see https://h/?key=[redacted])."},
	}
	for _, c := range cases {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q)\n got  %s\n want %s", c.in, got, c.want)
		}
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := Writer(&b, "tenant")
	for _, line := range []string{
		"[WARN]  rubric: cannot reach https://u:pw@h/mcp?token=t1&tenant=acme: refused\n",
		"[INFO]  rubric: no URL here, token=t2 is not one\n",
	} {
		if n, err := w.Write([]byte(line)); n != len(line) || err != nil {
			t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(line))
		}
	}
	want := "[WARN]  rubric: cannot reach https://u:[redacted]@h/mcp?token=[redacted]&tenant=[redacted]: refused\n" +
		"[INFO]  rubric: no URL here, token=t2 is not one\n"
	if b.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", b.String(), want)
	}
}

// TestValues: the secret values rubric gave a server (those whose names
// say they are credentials, those that look like one whatever the name,
// the token after a header's scheme) are hidden wherever the server's
// words quote them, where they stand apart, not inside a longer word;
// settings (a count, a mode, a directory) are left readable.
func TestValues(t *testing.T) {
	secrets := Credentials(
		map[string]string{"GITHUB_TOKEN": "ghp_SUPERSECRET777", "DEBUG": "1", "LOG_LEVEL": "debug", "API_KEY": "k3y", "WORKSPACE": "/home/me/project", "STYLE": "verbose",
			"MAX_TOKENS": "4096", "TOKEN_LIMIT": "8000", "maxTokens": "2048", "SECRET_FILE": "/run/secrets/db", "AUTH_TYPE": "oauth2",
			"MY_PAT": "github_pat_11ABCDEFG0123456789", "UPSTREAM": "x7Kp9QmZ2vL4nR8sT1", "DATABASE_URL": "postgres://app:hunter22@db:5432/app", "TENANT": "3f2b8c1e-4d5a-4b6c-9e8f-0a1b2c3d4e5f",
			"SERVER_NAME": "my-server-2024-production", "PUBLIC_URL": "https://example.com/mcp"},
		map[string]string{"Authorization": "Bearer sk-abcdef123", "X-Mode": "fast", "X-Request-Source": "rubric-ci"},
	)
	tests := []struct{ in, want string }{
		{"auth failed for token ghp_SUPERSECRET777", "auth failed for token [redacted]"},
		{"got header Bearer sk-abcdef123; token sk-abcdef123 invalid", "got header [redacted]; token [redacted] invalid"},
		{"key k3y refused, debug level 1, mode fast", "key [redacted] refused, debug level 1, mode fast"},
		// Counts, kinds, paths and words are settings: readable.
		{"cannot open /home/me/project/x", "cannot open /home/me/project/x"},
		{"max tokens 4096, limit 8000, 2048 per call", "max tokens 4096, limit 8000, 2048 per call"},
		{"reading /run/secrets/db with oauth2", "reading /run/secrets/db with oauth2"},
		{"server my-server-2024-production at https://example.com/mcp from rubric-ci", "server my-server-2024-production at https://example.com/mcp from rubric-ci"},
		// Values that look like credentials, whatever their names.
		{"bad pat github_pat_11ABCDEFG0123456789", "bad pat [redacted]"},
		{"upstream x7Kp9QmZ2vL4nR8sT1 refused", "upstream [redacted] refused"},
		{"cannot connect to postgres://app:hunter22@db:5432/app", "cannot connect to [redacted]"},
		{"tenant 3f2b8c1e-4d5a-4b6c-9e8f-0a1b2c3d4e5f unknown", "tenant [redacted] unknown"},
		{"nothing of theirs", "nothing of theirs"},
		// A value is hidden where it stands apart, not inside the
		// server's other words.
		{"k3ys are fine, k3y is not", "k3ys are fine, [redacted] is not"},
	}
	for _, tt := range tests {
		if got := Values(tt.in, secrets); got != tt.want {
			t.Errorf("Values(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Credentials(nil, nil); len(got) != 0 {
		t.Errorf("Credentials of nothing = %q", got)
	}
}
