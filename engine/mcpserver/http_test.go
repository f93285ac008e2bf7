package mcpserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
)

// TestHTTPPath: streamable HTTP answers MCP at /mcp, the path rubric mcp
// --http prints and the README gives, and nowhere else: any other path is
// a 404 that names the URL to use, whatever the method.
func TestHTTPPath(t *testing.T) {
	srv := New(Options{})
	defer srv.Close()
	ts := httptest.NewServer(srv.HTTPHandler())
	defer ts.Close()
	host := strings.TrimPrefix(ts.URL, "http://")
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	hint := "rubric mcp serves MCP at /mcp only; point the client at http://" + host + "/mcp"
	for _, c := range []struct {
		method, path string
		status       int
		body         string // part of the body
	}{
		{"POST", "/mcp", http.StatusOK, `"serverInfo":{"name":"rubric"`},
		{"POST", "/mcp?x=1", http.StatusOK, `"serverInfo":{"name":"rubric"`},
		{"POST", "/anything", http.StatusNotFound, hint},
		{"POST", "/", http.StatusNotFound, hint},
		{"POST", "/mcp/", http.StatusNotFound, hint},
		{"POST", "/mcp/extra", http.StatusNotFound, hint},
		{"POST", "/sse", http.StatusNotFound, hint},
		{"GET", "/", http.StatusNotFound, hint},
		{"DELETE", "/other", http.StatusNotFound, hint},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			req, err := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(initialize))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != c.status {
				// Not read: a GET served as MCP is an event stream
				// that does not end.
				t.Fatalf("%s %s: %s (%s); want %d", c.method, c.path, resp.Status, resp.Header.Get("Content-Type"), c.status)
			}
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(body), c.body) {
				t.Errorf("%s %s: %s %q; want %q in the body", c.method, c.path, resp.Status, body, c.body)
			}
		})
	}
}

// countingBody is a request body of n bytes that counts what is read.
type countingBody struct{ n, read int64 }

func (b *countingBody) Read(p []byte) (int, error) {
	if b.read >= b.n {
		return 0, io.EOF
	}
	k := min(int64(len(p)), b.n-b.read)
	for i := range p[:k] {
		p[i] = ' '
	}
	b.read += k
	return int(k), nil
}

func (b *countingBody) Close() error { return nil }

// TestHTTPBodyBound: a request larger than any target may be (--max-bytes
// and the envelope) is refused as it is read, not held whole in memory
// and refused afterwards: the handler stops reading past the bound.
func TestHTTPBodyBound(t *testing.T) {
	srv := New(Options{Target: transport.Target{Limits: transport.Limits{MaxBytes: 1 << 10}}})
	defer srv.Close()
	bound := srv.maxRequest()
	body := &countingBody{n: 8 * bound}
	req := httptest.NewRequest("POST", HTTPPath, body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	rec := httptest.NewRecorder()
	srv.HTTPHandler().ServeHTTP(rec, req)
	if rec.Code == http.StatusOK {
		t.Errorf("a request of %d bytes was answered %d", body.n, rec.Code)
	}
	if body.read > 2*bound {
		t.Errorf("read %d bytes of the request, beyond the bound of %d", body.read, bound)
	}
}
