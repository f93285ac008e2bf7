package mcphttp

import (
	"strings"
	"testing"
)

// TestPageTitle: the title a message quotes is the page's own words, read
// from the start of the page, made safe for a terminal and kept short.
func TestPageTitle(t *testing.T) {
	for _, c := range []struct {
		name, page, want string
	}{
		{"a sign-in page", "<!doctype html><html><head><title>Login - Acme</title></head>", "Login - Acme"},
		{"any case, with attributes", `<HTML><TITLE lang="en">Login - Acme</TITLE>`, "Login - Acme"},
		{"character references", "<title>Tom &amp; Jerry&#39;s &lt;portal&gt;</title>", "Tom & Jerry's <portal>"},
		{"white space folded", "<title>\n    Login\n\t-  Acme\n  </title>", "Login - Acme"},
		{"terminal escapes and controls taken out", "<title>Log\x1b[2Jin\x07 - &#27;]0;pwned&#7;Acme\u202e</title>", "Login - Acme"},
		{"no title", "<html><body>Hello</body></html>", ""},
		{"not a title element", "<titles>no</titles>", ""},
		{"an empty title", "<title></title>", ""},
		{"cut off by the read", "<title>Login - Ac", "Login - Ac"},
		{"too long", "<title>" + strings.Repeat("a", 200) + "</title>", strings.Repeat("a", maxTitle) + "…"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := pageTitle([]byte(c.page)); got != c.want {
				t.Errorf("pageTitle(%q) = %q, want %q", c.page, got, c.want)
			}
		})
	}
}
