package mcphttp

import (
	"bytes"
	"html"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/internal/termtext"
)

// maxPageHead is how much of a web page's body is read to find its
// <title>, which a page puts in its head, near the start.
const maxPageHead = 16 << 10

// maxTitle is how many characters of a page's title a message quotes.
const maxTitle = 80

// readPageTitle reads the start of a web page's body and returns its
// title ("" when it has none there); the body stays whole for mcp-go,
// which reads it after.
func (c *conn) readPageTitle(resp *http.Response) string {
	head, err := c.peekBody(resp, maxPageHead)
	if err != nil && len(head) == 0 {
		return ""
	}
	return pageTitle(head)
}

// pageTitle is the text of the first <title> element in the start of a
// page: its character references decoded, its terminal escapes and
// control characters taken out (termtext.Printable), its white space
// folded, and cut at maxTitle characters, so that a message can quote
// it ("Login - Acme") to tell the user what answered instead of the
// MCP endpoint.
func pageTitle(head []byte) string {
	lower := bytes.ToLower(head)
	open := bytes.Index(lower, []byte("<title"))
	if open < 0 {
		return ""
	}
	// <title> or <title attr=...>, not <titles>.
	rest := lower[open+len("<title"):]
	if len(rest) == 0 || rest[0] != '>' && !unicode.IsSpace(rune(rest[0])) {
		return ""
	}
	gt := bytes.IndexByte(rest, '>')
	if gt < 0 {
		return ""
	}
	start := open + len("<title") + gt + 1
	end := bytes.Index(lower[start:], []byte("</title"))
	if end < 0 {
		end = len(head) - start // cut off by the read: what there is
	}
	text := termtext.Printable(html.UnescapeString(string(head[start : start+end])))
	text = strings.Join(strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == utf8.RuneError }), " ")
	if utf8.RuneCountInString(text) > maxTitle {
		text = string([]rune(text)[:maxTitle]) + "…"
	}
	return text
}
