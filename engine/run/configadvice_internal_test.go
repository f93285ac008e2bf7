package run

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
)

// TestConfigAdvice: the advice of an HTTP transport's error, which names
// the target flags, is worded for a server of a client configuration,
// which takes none; the error is still what it wraps.
func TestConfigAdvice(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"server wants credentials (HTTP 401 Unauthorized) and none were sent: pass them with --header, for example --header 'Authorization=Bearer <token>'",
			`server wants credentials (HTTP 401 Unauthorized) and none were sent: give them in the server's "headers" in .mcp.json, for example "headers": {"Authorization": "Bearer <token>"}`},
		{"server refused the credentials (HTTP 403 Forbidden) sent in the header(s) X-Key: check their values with --header (rubric does not print them)",
			`server refused the credentials (HTTP 403 Forbidden) sent in the header(s) X-Key: check their values in the server's "headers" in .mcp.json (rubric does not print them)`},
		{"server answered initialize with HTTP 404 Not Found: check the URL, and whether the server speaks the streamable HTTP transport (http) or the older HTTP+SSE one (sse)",
			`server answered initialize with HTTP 404 Not Found: check the URL, and whether the server speaks the streamable HTTP transport (http) or the older HTTP+SSE one (then write "type": "sse" in the server's entry in .mcp.json)`},
		{"https://h/ answered initialize with a web page (HTTP 200 OK, text/html), not as an MCP endpoint: check that the URL is the server's MCP endpoint (often ending in /mcp, or /sse for --transport sse), and that it needs no sign-in (--header)",
			`https://h/ answered initialize with a web page (HTTP 200 OK, text/html), not as an MCP endpoint: check that the URL is the server's MCP endpoint (often ending in /mcp, or /sse for "type": "sse"), and that it needs no sign-in (the server's "headers" in .mcp.json)`},
		{"server opened an event stream but never named the endpoint to send requests to: if it speaks the streamable HTTP transport, use http rather than sse",
			`server opened an event stream but never named the endpoint to send requests to: if it speaks the streamable HTTP transport, write "type": "http" rather than "sse" in the server's entry in .mcp.json`},
		{"cannot reach http://127.0.0.1:1/mcp: connection refused: is the server running, and listening at that address and port?", "cannot reach http://127.0.0.1:1/mcp: connection refused: is the server running, and listening at that address and port?"},
	} {
		inner := transport.Permanent(errors.New(c.in))
		got := configAdvice(inner, ".mcp.json")
		if got.Error() != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.in, got, c.want)
		}
		if !transport.IsPermanent(got) {
			t.Errorf("%s: the advised error is no longer what it wraps", c.in)
		}
	}
}

// TestConfigAdviceInTransport: the HTTP transport still gives each advice
// configAdvice rewords, so that none goes back to naming a flag the
// configuration's servers do not take without a test noticing.
func TestConfigAdviceInTransport(t *testing.T) {
	var src []byte
	for _, f := range []string{"conn.go", "mcphttp.go"} {
		b, err := os.ReadFile("../../plugins/transports/mcphttp/" + f)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	for _, a := range configAdvices {
		if !strings.Contains(string(src), a[0]) {
			t.Errorf("the HTTP transport no longer says %q: reword configAdvices with it", a[0])
		}
	}
}
