// Package redact takes credentials out of URLs, and out of text that
// quotes URLs, before they are printed or stored: the password of a URL's
// userinfo (or the whole userinfo when it is a single word, as a token
// put before the host usually is), and the values of query and fragment
// parameters whose names say they hold a credential (token, key, secret,
// password, auth, sig, ...). Each is replaced by Marker; the rest of the
// URL is kept byte for byte, so a redacted URL still says which server
// and which path were meant.
//
// It works on the text, not on a parsed URL: a malformed URL, which
// net/url refuses and an error then quotes, is redacted all the same.
package redact

import (
	"bytes"
	"io"
	"regexp"
	"strings"
)

// Marker is what a redacted value becomes.
const Marker = "[redacted]"

// secretParts are the fragments of a parameter name that mark its value
// as a credential. A name containing any of them, in any case, is
// redacted: a harmless parameter caught by one (a "keyword", a "design")
// costs a value in a message; a credential missed costs the credential.
var secretParts = []string{
	"token", "key", "secret", "passw", "pwd", "auth", "sig", "credential",
	"session", "jwt", "bearer", "cookie", "private", "code",
}

// SecretName says whether a query or fragment parameter of this name
// holds a credential, by the built-in list of name parts and the extra
// ones given (compared without regard to case).
func SecretName(name string, extra ...string) bool {
	n := strings.ToLower(name)
	for _, p := range secretParts {
		if strings.Contains(n, p) {
			return true
		}
	}
	for _, p := range extra {
		if p != "" && strings.Contains(n, strings.ToLower(p)) {
			return true
		}
	}
	return false
}

// URL returns s with its credentials replaced by Marker: the userinfo's
// password (user:[redacted]@host), or a userinfo of one word
// ([redacted]@host), and the value of every query or fragment parameter
// that SecretName (with the extra name parts) says is a credential.
// Anything else in s is unchanged; a string with no credentials comes
// back as it was.
func URL(s string, extra ...string) string {
	rest := s
	var b strings.Builder
	b.Grow(len(s))
	if i := strings.Index(rest, "://"); i >= 0 && validScheme(rest[:i]) {
		b.WriteString(rest[:i+3])
		rest = rest[i+3:]
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		authority := rest[:end]
		if at := strings.LastIndexByte(authority, '@'); at >= 0 {
			b.WriteString(userinfo(authority[:at]))
			b.WriteString(authority[at:])
		} else {
			b.WriteString(authority)
		}
		rest = rest[end:]
	}
	path, query, fragment := rest, "", ""
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path, fragment = path[:i], path[i+1:]
	}
	hasQuery := false
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path, query, hasQuery = path[:i], path[i+1:], true
	}
	b.WriteString(path)
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(params(query, extra))
	}
	if fragment != "" || strings.Contains(rest, "#") {
		b.WriteByte('#')
		b.WriteString(params(fragment, extra))
	}
	return b.String()
}

// validScheme says whether s can be a URL's scheme (RFC 3986: a letter,
// then letters, digits, "+", "-" or ".").
func validScheme(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

// userinfo redacts the userinfo before a URL's host.
func userinfo(u string) string {
	if user, _, ok := strings.Cut(u, ":"); ok {
		return user + ":" + Marker
	}
	if u == "" {
		return u
	}
	return Marker
}

// params redacts the values of the credential parameters in a query or
// fragment (name=value pairs joined by & or ;), keeping everything else.
func params(q string, extra []string) string {
	if !strings.Contains(q, "=") {
		return q
	}
	var b strings.Builder
	start := 0
	for i := 0; i <= len(q); i++ {
		if i < len(q) && q[i] != '&' && q[i] != ';' {
			continue
		}
		pair := q[start:i]
		if name, _, ok := strings.Cut(pair, "="); ok && SecretName(unescape(name), extra...) {
			pair = name + "=" + Marker
		}
		b.WriteString(pair)
		if i < len(q) {
			b.WriteByte(q[i])
		}
		start = i + 1
	}
	return b.String()
}

// unescape decodes %XX escapes and "+" in a parameter name as far as
// they are well formed, so that "api%5Fkey" is seen as "api_key".
func unescape(s string) string {
	if !strings.ContainsAny(s, "%+") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '+':
			b.WriteByte(' ')
		case s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// urlInText finds what looks like a URL in free text: a scheme, "://",
// and everything up to a space, a quote or an angle bracket.
var urlInText = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[^\s"'<>` + "`" + `]+`)

// Text returns s with every URL in it redacted as URL does: for error
// messages and logs, which quote the URL a request went to (net/http's
// `Post "https://user:pw@host/?token=..."`).
func Text(s string, extra ...string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	return urlInText.ReplaceAllStringFunc(s, func(u string) string {
		// Punctuation that ends a sentence or a clause ("cannot reach
		// URL: refused") is the text's, not the URL's.
		end := strings.TrimRight(u, ".,:;)!")
		return URL(end, extra...) + u[len(end):]
	})
}

// Writer returns a writer that passes everything to w with its URLs
// redacted as Text redacts them, for a log or a stream of messages. Each
// Write is redacted on its own, so give it whole lines: a logger writes
// one line per call.
func Writer(w io.Writer, extra ...string) io.Writer {
	return &writer{w: w, extra: extra}
}

type writer struct {
	w     io.Writer
	extra []string
}

func (r *writer) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte("://")) {
		return r.w.Write(p)
	}
	if _, err := io.WriteString(r.w, Text(string(p), r.extra...)); err != nil {
		return 0, err
	}
	return len(p), nil
}
