package mcphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/modernmcp"
)

// exchange is one HTTP request rubric sent and the status it got.
type exchange struct {
	verb, method             string // HTTP method; JSON-RPC method
	header, version, session string // Mcp-Method, MCP-Protocol-Version, Mcp-Session-Id
	status                   int
}

// recorder is a reverse proxy in front of a server that notes every
// exchange.
type recorder struct {
	mu   sync.Mutex
	seen []exchange
}

func (r *recorder) front(t *testing.T, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = func(resp *http.Response) error {
		body, _ := resp.Request.Context().Value(bodyKey{}).([]byte)
		var msg struct{ Method string }
		json.Unmarshal(body, &msg)
		h := resp.Request.Header
		r.mu.Lock()
		r.seen = append(r.seen, exchange{resp.Request.Method, msg.Method, h.Get("Mcp-Method"), h.Get("Mcp-Protocol-Version"), h.Get("Mcp-Session-Id"), resp.StatusCode})
		r.mu.Unlock()
		return nil
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), bodyKey{}, body)))
	}))
	t.Cleanup(ts.Close)
	return ts.URL + u.Path
}

type bodyKey struct{}

func (r *recorder) exchanges() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen
}

// TestExportSDKServers reads the TypeScript SDK v2 test server over
// streamable HTTP. Serving both eras it is read after the legacy
// handshake, as before; modern-only, it refuses initialize with HTTP 400
// and error -32022, and is read with server/discover and tools/list, each
// carrying the headers revision 2026-07-28 requires and no session: one
// round trip more. The tools are those it sends, keyword for keyword.
func TestExportSDKServers(t *testing.T) {
	const modern = "2026-07-28"
	for _, c := range []struct {
		name    string
		options []string
		era     string
		version string
		want    []exchange
	}{
		{"both eras", nil, "legacy", "2025-06-18", []exchange{
			{verb: "POST", method: "initialize", status: 200},
			{verb: "POST", method: "notifications/initialized", version: "2025-06-18", status: 202},
			{verb: "POST", method: "tools/list", version: "2025-06-18", status: 200},
		}},
		{"modern only", []string{"--modern-only"}, "modern", modern, []exchange{
			{verb: "POST", method: "initialize", status: 400},
			{verb: "POST", method: "server/discover", header: "server/discover", version: modern, status: 200},
			{verb: "POST", method: "tools/list", header: "tools/list", version: modern, status: 200},
		}},
		{"modern only, two tools a page", []string{"--modern-only", "--page-size", "2"}, "modern", modern, []exchange{
			{verb: "POST", method: "initialize", status: 400},
			{verb: "POST", method: "server/discover", header: "server/discover", version: modern, status: 200},
			{verb: "POST", method: "tools/list", header: "tools/list", version: modern, status: 200},
			{verb: "POST", method: "tools/list", header: "tools/list", version: modern, status: 200},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var rec recorder
			target := rec.front(t, modernmcp.HTTP(t, c.options...))
			s, err := Streamable{ClientVersion: "test"}.Export(context.Background(), transport.Target{Location: target})
			if err != nil {
				t.Fatal(err)
			}
			want := modernmcp.Tools(t, c.era)
			if len(s.Tools) != len(want) {
				t.Fatalf("%d tools, the server defines %d", len(s.Tools), len(want))
			}
			for i, w := range want {
				if got, want := string(s.Tools[i].Canonical), string(surface.Canonical(w)); got != want {
					t.Errorf("tool %d differs from the server's:\n got %s\nwant %s", i, got, want)
				}
			}
			for k, want := range map[string]string{"era": c.era, "protocolVersion": c.version, "name": "rubric-modern-test", "version": "1.2.3", "url": target} {
				if s.Server[k] != want {
					t.Errorf("server %s is %v, want %s", k, s.Server[k], want)
				}
			}
			if got := rec.exchanges(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("exchanges:\n%s\nwant:\n%s", show(got), show(c.want))
			}
		})
	}
}

func show(xs []exchange) string {
	var b strings.Builder
	for _, x := range xs {
		b.WriteString("  ")
		b.WriteString(strings.TrimSpace(strings.Join([]string{x.verb, x.method, "Mcp-Method=" + x.header, "version=" + x.version, "session=" + x.session, http.StatusText(x.status)}, " ")))
		b.WriteString("\n")
	}
	return b.String()
}

// BenchmarkExportSDKServers reads the SDK v2 test server over HTTP, once
// serving both eras (read after the legacy handshake) and once modern-only
// (initialize refused, then server/discover and tools/list): the
// difference is what reading a modern-only server costs over a legacy one.
func BenchmarkExportSDKServers(b *testing.B) {
	for _, c := range []struct {
		name    string
		options []string
	}{
		{"legacy", nil},
		{"modern-only", []string{"--modern-only"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			target := transport.Target{Location: modernmcp.HTTP(b, c.options...)}
			for b.Loop() {
				if _, err := (Streamable{ClientVersion: "bench"}).Export(context.Background(), target); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
