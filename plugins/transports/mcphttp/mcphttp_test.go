package mcphttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/proctest"
)

// newServer is an mcp-go server with n tools, listed five to a page, each
// input schema carrying keywords mcp.Tool would drop.
func newServer(n int, description string) *server.MCPServer {
	s := server.NewMCPServer("web", "3.1.0", server.WithPaginationLimit(5))
	for i := 0; i < n; i++ {
		schema := fmt.Sprintf(`{"type":"object","title":"In %d","properties":{"q":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`, i)
		s.AddTool(mcp.NewToolWithRawSchema(fmt.Sprintf("t%02d", i), description, json.RawMessage(schema)), nil)
	}
	return s
}

// requireAuth lets through only requests that carry the given
// Authorization header.
func requireAuth(want string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != want {
			w.Header().Set("WWW-Authenticate", "Bearer")
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// kind is one of the two transports, with how to serve an mcp-go server
// for it.
type kind struct {
	name  string
	tr    transport.Transport
	serve func(*server.MCPServer) http.Handler
	path  string
}

var kinds = []kind{
	{"http", Streamable{ClientVersion: "test"}, func(s *server.MCPServer) http.Handler { return server.NewStreamableHTTPServer(s) }, "/mcp"},
	{"sse", SSE{ClientVersion: "test"}, func(s *server.MCPServer) http.Handler { return server.NewSSEServer(s) }, "/sse"},
}

func names(t *testing.T, tr transport.Transport, target transport.Target) ([]string, error) {
	t.Helper()
	s, err := tr.Export(context.Background(), target)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, tool := range s.Tools {
		out = append(out, tool.Name)
	}
	if got := string(s.Tools[0].Canonical); !strings.Contains(got, `"anyOf":[{"type":"string"},{"type":"null"}]`) || !strings.Contains(got, `"title":"In 0"`) {
		t.Errorf("the schema lost keywords: %s", got)
	}
	want := map[string]any{"name": "web", "version": "3.1.0", "protocolVersion": "2025-06-18", "url": target.Location}
	if !reflect.DeepEqual(s.Server, want) || s.Source != target.Location || s.Format != "tools/list" {
		t.Errorf("server %v, source %q, format %q", s.Server, s.Source, s.Format)
	}
	return out, nil
}

func TestExport(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			if got := k.tr.Name(); got != k.name {
				t.Errorf("Name() = %q", got)
			}
			ts := httptest.NewServer(k.serve(newServer(12, "Finds things.")))
			defer ts.Close()
			got, err := names(t, k.tr, transport.Target{Location: ts.URL + k.path})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i := 0; i < 12; i++ {
				want = append(want, fmt.Sprintf("t%02d", i))
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("tools %v", got)
			}
		})
	}
}

func TestExportHeaders(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			ts := httptest.NewServer(requireAuth("Bearer s3cret", k.serve(newServer(2, "Finds things."))))
			defer ts.Close()
			url := ts.URL + k.path
			if _, err := names(t, k.tr, transport.Target{Location: url, Headers: map[string]string{"Authorization": "Bearer s3cret"}}); err != nil {
				t.Fatalf("with the right header: %v", err)
			}

			_, err := k.tr.Export(context.Background(), transport.Target{Location: url})
			if want := "server refused the credentials (HTTP 401 Unauthorized): it wants some; pass them with --header"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("without the header: %v\nwant %q", err, want)
			}

			_, err = k.tr.Export(context.Background(), transport.Target{Location: url, Headers: map[string]string{"authorization": "Bearer wrong-secret"}})
			if want := "server refused the credentials (HTTP 401 Unauthorized) sent in the header(s) Authorization: check their values"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("with a wrong header: %v\nwant %q", err, want)
			}
			if err != nil && strings.Contains(err.Error(), "wrong-secret") {
				t.Errorf("the error shows the header's value: %v", err)
			}
		})
	}
}

func TestExportForbidden(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "go away", http.StatusForbidden)
	}))
	defer ts.Close()
	for _, k := range kinds {
		_, err := k.tr.Export(context.Background(), transport.Target{Location: ts.URL + k.path, Headers: map[string]string{"X-Api-Key": "k"}})
		if want := "server refused the credentials (HTTP 403 Forbidden) sent in the header(s) X-Api-Key"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v\nwant %q", k.name, err, want)
		}
	}
}

// jsonServer answers initialize, accepts notifications and answers
// tools/list with list(w), by hand, over Streamable HTTP.
func jsonServer(list func(w http.ResponseWriter, r *http.Request, id json.RawMessage)) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&msg)
		switch msg.Method {
		case "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"h","version":"1"}}}`, msg.ID)
		case "tools/list":
			list(w, r, msg.ID)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
}

func TestExportFailures(t *testing.T) {
	big := strings.Repeat("x", 200<<10)
	oversize := jsonServer(func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"a","description":"%s"}]}}`, id, big)
	})
	t.Cleanup(oversize.Close)
	oversizeEvent := jsonServer(func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
		w.Header().Set("Content-Type", "text/event-stream")
		// Small events pass; the one too large fails.
		for i := 0; i < 20; i++ {
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"%s\"}}\n\n", strings.Repeat("y", 10<<10))
		}
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[{\"name\":\"a\",\"description\":\"%s\"}]}}\n\n", id, big)
	})
	t.Cleanup(oversizeEvent.Close)
	hang := jsonServer(func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
		<-r.Context().Done()
	})
	t.Cleanup(hang.Close)
	rpcErr := jsonServer(func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, id)
	})
	t.Cleanup(rpcErr.Close)
	sseBig := httptest.NewServer(server.NewSSEServer(newServer(1, big)))
	t.Cleanup(sseBig.Close)
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(newServer(7, "d")))
	mcpServer := httptest.NewServer(mux)
	t.Cleanup(mcpServer.Close)
	sseServer := httptest.NewServer(server.NewSSEServer(newServer(1, "d")))
	t.Cleanup(sseServer.Close)

	// Only the cases about a timeout set a short one: every other case
	// must fail on what it is sent, at once, and would show the wrong
	// message if it waited for the default timeouts instead.
	small := transport.Limits{MaxBytes: 64 << 10}
	shortList := transport.Limits{RequestTimeout: 200 * time.Millisecond}
	cases := []struct {
		name   string
		tr     transport.Transport
		target transport.Target
		want   string
	}{
		{"connection refused", Streamable{}, transport.Target{Location: "http://127.0.0.1:1/mcp"},
			"cannot reach http://127.0.0.1:1/mcp: connection refused"},
		{"connection refused, sse", SSE{}, transport.Target{Location: "http://127.0.0.1:1/sse"},
			"cannot reach http://127.0.0.1:1/sse: connection refused"},
		{"a password stays out", Streamable{}, transport.Target{Location: "http://me:hunter2@127.0.0.1:1/mcp"},
			"cannot reach http://me:xxxxx@127.0.0.1:1/mcp: connection refused"},
		{"not a URL", Streamable{}, transport.Target{Location: "localhost:8080"},
			`"localhost:8080" is not an http:// or https:// URL`},
		{"oversize JSON", Streamable{}, transport.Target{Location: oversize.URL, Limits: small},
			"tools/list response exceeds 64 KiB (raise --max-bytes)"},
		{"oversize event", Streamable{}, transport.Target{Location: oversizeEvent.URL, Limits: small},
			"tools/list response exceeds 64 KiB (raise --max-bytes)"},
		{"oversize event, sse", SSE{}, transport.Target{Location: sseBig.URL + "/sse", Limits: small},
			"tools/list response exceeds 64 KiB (raise --max-bytes)"},
		{"no answer", Streamable{}, transport.Target{Location: hang.URL, Limits: shortList},
			"no answer to tools/list within 200ms"},
		{"error answer", Streamable{}, transport.Target{Location: rpcErr.URL},
			"server answered tools/list with error -32601: Method not found"},
		{"wrong path", Streamable{}, transport.Target{Location: mcpServer.URL + "/nope"},
			"server answered initialize with HTTP 404 Not Found: check the URL"},
		{"wrong path, sse", SSE{}, transport.Target{Location: mcpServer.URL + "/nope"},
			"server answered initialize with HTTP 404 Not Found: check the URL"},
		{"http to an sse server", Streamable{}, transport.Target{Location: sseServer.URL + "/sse"},
			"server answered initialize with HTTP 405 Method Not Allowed: check the URL, and whether the server speaks the streamable HTTP transport (http) or the older HTTP+SSE one (sse)"},
		// The start timeout is what ends this one; it must be long enough
		// for the event stream to open first.
		{"sse to an http server", SSE{}, transport.Target{Location: mcpServer.URL + "/mcp", Limits: transport.Limits{StartTimeout: 2 * time.Second}},
			"server opened an event stream but never named the endpoint to send requests to: if it speaks the streamable HTTP transport, use http rather than sse"},
		{"too many tools", Streamable{}, transport.Target{Location: mcpServer.URL + "/mcp", Limits: transport.Limits{MaxTools: 5}},
			"server listed more than 5 tools (raise --max-tools)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.tr.Export(context.Background(), c.target)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

// TestExportInterrupted interrupts the read once the server has the
// tools/list request, which it never answers: only the interrupt can end
// Export before the hour-long timeout.
func TestExportInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ts := jsonServer(func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
		cancel()
		<-r.Context().Done()
	})
	defer ts.Close()
	_, err := Streamable{}.Export(ctx, transport.Target{Location: ts.URL, Limits: transport.Limits{StartTimeout: time.Hour, RequestTimeout: time.Hour}})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "tools/list") {
		t.Errorf("error %v: want context.Canceled while waiting for tools/list", err)
	}
}

func TestExportLeavesNothingRunning(t *testing.T) {
	for _, k := range kinds {
		ts := httptest.NewServer(k.serve(newServer(3, "d")))
		before := runtime.NumGoroutine()
		if _, err := k.tr.Export(context.Background(), transport.Target{Location: ts.URL + k.path}); err != nil {
			t.Fatal(err)
		}
		ts.Close() // ends the server's goroutines; ours must end by themselves
		proctest.Goroutines(t, before)
	}
}
