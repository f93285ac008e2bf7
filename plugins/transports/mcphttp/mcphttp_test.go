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
	"sync"
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
	want := map[string]any{"name": "web", "version": "3.1.0", "protocolVersion": "2025-06-18", "era": "legacy", "url": target.Location}
	if !reflect.DeepEqual(s.Server, want) || s.Source != target.Location || s.Format != "tools/list" {
		t.Errorf("server %v, source %q, format %q", s.Server, s.Source, s.Format)
	}
	return out, nil
}

func TestExport(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			if info, err := k.tr.Describe(context.Background()); err != nil || info.Name != k.name || info.Locality != transport.Endpoint {
				t.Errorf("Describe() = %+v, %v", info, err)
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
			if want := "server wants credentials (HTTP 401 Unauthorized) and none were sent: pass them with --header"; err == nil || !strings.Contains(err.Error(), want) {
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
	// halfway starts its answer, then sends no more of it: an answer
	// slower than --request-timeout, once reported as one that is not
	// JSON.
	halfway := jsonServer(func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "1000")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"a",`, id)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	t.Cleanup(halfway.Close)
	rpcErr := jsonServer(func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, id)
	})
	t.Cleanup(rpcErr.Close)
	answer := func(ctype, body string) *httptest.Server {
		ts := jsonServer(func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
			w.Header().Set("Content-Type", ctype)
			fmt.Fprintf(w, body, id)
		})
		t.Cleanup(ts.Close)
		return ts
	}
	// refuse answers every POST with status and a JSON-RPC error.
	refuse := func(status int, rpcError string) *httptest.Server {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var msg struct{ ID json.RawMessage }
			json.NewDecoder(r.Body).Decode(&msg)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":%s}`, msg.ID, rpcError)
		}))
		t.Cleanup(ts.Close)
		return ts
	}
	// modernBroken refuses initialize as a modern-only server does, then
	// fails server/discover.
	modernBroken := refuse(http.StatusBadRequest, `{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"]}}`)
	modernLater := refuse(http.StatusBadRequest, `{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2027-01-01"]}}`)
	unauthorized := refuse(http.StatusUnauthorized, `{"code":-32001,"message":"Unauthorized"}`)
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	malformed := answer("application/json", `{"jsonrpc":"2.0","id":%s,"result":{"tools":[}`)
	malformedEvent := answer("text/event-stream", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[}\n\n")
	deepJSON := answer("application/json", `{"jsonrpc":"2.0","id":%s,"result":{"tools":`+deep+`}}`)
	sseBig := httptest.NewServer(server.NewSSEServer(newServer(1, big)))
	t.Cleanup(sseBig.Close)
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(newServer(7, "d")))
	mcpServer := httptest.NewServer(mux)
	t.Cleanup(mcpServer.Close)
	// page answers every request with a sign-in page, as a product's site
	// or a proxy does at a URL that is not the MCP endpoint.
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>Login - Acme</title><p>Please log in</p>")
	}))
	t.Cleanup(page.Close)

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
			"cannot reach http://127.0.0.1:1/mcp: connection refused: is the server running, and listening at that address and port?"},
		{"connection refused, sse", SSE{}, transport.Target{Location: "http://127.0.0.1:1/sse"},
			"cannot reach http://127.0.0.1:1/sse: connection refused: is the server running, and listening at that address and port?"},
		{"a password stays out", Streamable{}, transport.Target{Location: "http://me:hunter2@127.0.0.1:1/mcp"},
			"cannot reach http://me:[redacted]@127.0.0.1:1/mcp: connection refused: is the server running, and listening at that address and port?"},
		{"a token in the query stays out", Streamable{}, transport.Target{Location: "http://127.0.0.1:1/mcp?token=hunter2&page=1"},
			"cannot reach http://127.0.0.1:1/mcp?token=[redacted]&page=1: connection refused: is the server running, and listening at that address and port?"},
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
		{"an answer cut off by the wait", Streamable{}, transport.Target{Location: halfway.URL, Limits: shortList},
			"no answer to tools/list within 200ms"},
		{"malformed JSON", Streamable{}, transport.Target{Location: malformed.URL},
			`server answered tools/list with something that is not a JSON-RPC message: "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[}" (it is not valid JSON: invalid character '}'`},
		{"malformed event", Streamable{}, transport.Target{Location: malformedEvent.URL},
			`server answered tools/list with something that is not a JSON-RPC message: "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[}"`},
		{"JSON nested too deep", Streamable{}, transport.Target{Location: deepJSON.URL},
			`[[[[[["… (it is nested deeper than the 10000 levels a JSON decoder reads)`},
		{"error answer", Streamable{}, transport.Target{Location: rpcErr.URL},
			"server answered tools/list with error -32601: Method not found"},
		{"wrong path", Streamable{}, transport.Target{Location: mcpServer.URL + "/nope"},
			"no MCP server answers at " + mcpServer.URL + "/nope: the streamable HTTP transport's initialize got HTTP 404 Not Found"},
		// The HTTP+SSE transport opens with a GET of its event stream, no
		// initialize: the refusal is of that GET.
		{"wrong path, sse", SSE{}, transport.Target{Location: mcpServer.URL + "/nope"},
			"server answered the GET that opens its event stream with HTTP 404 Not Found: check the URL, and whether the server speaks the streamable HTTP transport (http) or the older HTTP+SSE one (sse)"},
		// The start timeout is what ends this one; it must be long enough
		// for the event stream to open first.
		{"sse to an http server", SSE{}, transport.Target{Location: mcpServer.URL + "/mcp", Limits: transport.Limits{StartTimeout: 2 * time.Second}},
			"server opened an event stream but never named the endpoint to send requests to: if it speaks the streamable HTTP transport, use http rather than sse"},
		{"modern-only, discover refused", Streamable{}, transport.Target{Location: modernBroken.URL},
			`the server speaks only MCP 2026-07-28 and answered server/discover with error -32022: Unsupported protocol version {"supported":["2026-07-28"]}`},
		{"a later revision only", Streamable{}, transport.Target{Location: modernLater.URL},
			`server answered initialize with error -32022: Unsupported protocol version {"supported":["2027-01-01"]}: the server speaks only MCP 2027-01-01, and rubric speaks 2025-06-18 and 2026-07-28`},
		{"401 with a JSON-RPC error", Streamable{}, transport.Target{Location: unauthorized.URL},
			"server wants credentials (HTTP 401 Unauthorized) and none were sent"},
		{"a web page", Streamable{}, transport.Target{Location: page.URL + "/html"},
			page.URL + "/html answered initialize with a web page titled \"Login - Acme\" (HTTP 200 OK, text/html), not as an MCP endpoint: check that the URL is the server's MCP endpoint (often ending in /mcp, or /sse for --transport sse), and that it needs no sign-in (--header)"},
		{"a web page, sse", SSE{}, transport.Target{Location: page.URL + "/html"},
			page.URL + "/html answered initialize with a web page titled \"Login - Acme\" (HTTP 200 OK, text/html), not as an MCP endpoint"},
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

// seen records the credentials each request to a server carried.
type seen struct {
	mu    sync.Mutex
	creds []string // "Authorization=...,X-Api-Key=..." per request
}

func (s *seen) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.creds = append(s.creds, fmt.Sprintf("Authorization=%s,X-Api-Key=%s,Cookie=%s", r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"), r.Header.Get("Cookie")))
		s.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (s *seen) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.creds...)
}

// redirectTo answers every request with status code and a Location of
// target plus the request's path.
func redirectTo(target string, code int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, code)
	})
}

// TestExportRedirects runs redirects between two listeners on loopback,
// which are two origins: one to another origin is refused by default,
// naming both URLs, and the other server hears nothing; allowed, it is
// followed without any credential, and the surface says where the tools
// came from. A redirect within the origin keeps the credentials.
func TestExportRedirects(t *testing.T) {
	var other seen
	elsewhere := httptest.NewServer(other.wrap(server.NewStreamableHTTPServer(newServer(2, "Elsewhere."))))
	defer elsewhere.Close()
	creds := map[string]string{"Authorization": "Bearer s3cret", "X-Api-Key": "k3y", "Cookie": "session=c00kie"}
	for _, code := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			from := httptest.NewServer(redirectTo(elsewhere.URL, code))
			defer from.Close()
			before := len(other.requests())
			_, err := Streamable{}.Export(context.Background(), transport.Target{Location: from.URL + "/mcp", Headers: creds})
			want := fmt.Sprintf("server at %s/mcp redirected to %s/mcp, on another origin: rubric does not follow it", from.URL, elsewhere.URL)
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--follow-redirects") {
				t.Errorf("error %v\nwant it to contain %q", err, want)
			}
			if got := other.requests()[before:]; len(got) != 0 {
				t.Errorf("the other origin was asked %d times: %q", len(got), got)
			}
			if code == http.StatusFound {
				return // a 302 turns the POST into a GET, which MCP cannot follow anyway
			}

			s, err := Streamable{}.Export(context.Background(), transport.Target{Location: from.URL + "/mcp", Headers: creds, FollowRedirects: true})
			if err != nil {
				t.Fatalf("with FollowRedirects: %v", err)
			}
			if len(s.Tools) != 2 || s.Source != from.URL+"/mcp" || s.Server["url"] != from.URL+"/mcp" || s.Server["redirected_to"] != elsewhere.URL+"/mcp" {
				t.Errorf("%d tools, source %q, server %v", len(s.Tools), s.Source, s.Server)
			}
			wantWarn := []string{fmt.Sprintf("the server at %s/mcp redirected to %s/mcp, on another origin; the tools are that server's, and it was sent no credentials", from.URL, elsewhere.URL)}
			if !reflect.DeepEqual(s.Warnings, wantWarn) {
				t.Errorf("warnings %q\nwant %q", s.Warnings, wantWarn)
			}
			got := other.requests()[before:]
			if len(got) == 0 {
				t.Fatal("the other origin heard nothing")
			}
			for _, r := range got {
				if r != "Authorization=,X-Api-Key=,Cookie=" {
					t.Errorf("the other origin got credentials: %s", r)
				}
			}
		})
	}

	t.Run("same origin", func(t *testing.T) {
		mux := http.NewServeMux()
		mux.Handle("/mcp", requireAuth("Bearer s3cret", server.NewStreamableHTTPServer(newServer(3, "Here."))))
		mux.Handle("/old/mcp", http.RedirectHandler("/mcp", http.StatusPermanentRedirect))
		here := httptest.NewServer(mux)
		defer here.Close()
		s, err := Streamable{}.Export(context.Background(), transport.Target{Location: here.URL + "/old/mcp", Headers: creds})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Tools) != 3 || s.Server["redirected_to"] != here.URL+"/mcp" || s.Warnings != nil {
			t.Errorf("%d tools, server %v, warnings %q", len(s.Tools), s.Server, s.Warnings)
		}
	})

	t.Run("a loop", func(t *testing.T) {
		mux := http.NewServeMux()
		mux.Handle("/a", http.RedirectHandler("/b", http.StatusTemporaryRedirect))
		mux.Handle("/b", http.RedirectHandler("/a", http.StatusTemporaryRedirect))
		loop := httptest.NewServer(mux)
		defer loop.Close()
		_, err := Streamable{}.Export(context.Background(), transport.Target{Location: loop.URL + "/a"})
		if want := "server redirected more than 10 times"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to contain %q", err, want)
		}
	})
}

// TestExportSSEEndpointElsewhere serves a legacy event stream whose
// endpoint is on another origin: it is refused at once, naming both
// origins, not after the start timeout (an hour here).
func TestExportSSEEndpointElsewhere(t *testing.T) {
	var other seen
	elsewhere := httptest.NewServer(other.wrap(http.NotFoundHandler()))
	defer elsewhere.Close()
	stream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s/message?session=1\n\n", elsewhere.URL)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer stream.Close()
	_, err := SSE{}.Export(context.Background(), transport.Target{
		Location: stream.URL + "/sse", Headers: map[string]string{"Authorization": "Bearer s3cret"},
		Limits: transport.Limits{StartTimeout: time.Hour},
	})
	want := fmt.Sprintf("server at %s named an endpoint on another origin, %s, to send requests to: rubric refuses it", stream.URL, elsewhere.URL)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to contain %q", err, want)
	}
	if got := other.requests(); len(got) != 0 {
		t.Errorf("the other origin was asked: %q", got)
	}
}

// TestStreamableFallsBackToSSE: a server of only the older HTTP+SSE
// transport (mcp-go's, over real HTTP) answers the streamable initialize
// POST with 405; the http transport then reads it over HTTP+SSE at the
// same URL, as the MCP specification's backwards compatibility and VS
// Code do, and says so in a warning that names the URL. When HTTP+SSE
// does not read it either, the error says that both were tried: a URL
// where neither finds a server is to be checked (not read with sse,
// which was just tried), and one where HTTP+SSE got further gives
// HTTP+SSE's reason (credentials wanted, a web page).
func TestStreamableFallsBackToSSE(t *testing.T) {
	sse := httptest.NewServer(server.NewSSEServer(newServer(3, "Finds things.")))
	defer sse.Close()
	s, err := Streamable{ClientVersion: "test"}.Export(context.Background(), transport.Target{Location: sse.URL + "/sse"})
	if err != nil {
		t.Fatalf("an HTTP+SSE server read as http: %v", err)
	}
	if len(s.Tools) != 3 {
		t.Errorf("tools: %d, want 3", len(s.Tools))
	}
	want := "the server at " + sse.URL + "/sse answered the streamable HTTP transport's initialize with HTTP 405 Method Not Allowed, so it was read over the older HTTP+SSE transport at the same URL"
	if len(s.Warnings) != 1 || !strings.HasPrefix(s.Warnings[0], want) {
		t.Errorf("warnings %q, want one beginning %q", s.Warnings, want)
	}

	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(newServer(1, "d")))
	// A POST is refused as by a server of HTTP+SSE alone; the GET that
	// would open its stream wants credentials, or is a web page.
	mux.HandleFunc("/locked", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
	})
	mux.HandleFunc("/site", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<title>Welcome</title>")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, c := range []struct{ name, path, want string }{
		{"nothing there", "/nope",
			"no MCP server answers at " + srv.URL + "/nope: the streamable HTTP transport's initialize got HTTP 404 Not Found, and the older HTTP+SSE transport's, tried next at the same URL, HTTP 404 Not Found: check the URL (an MCP endpoint often ends in /mcp, or /sse for an HTTP+SSE server)"},
		{"nothing at a path ending in /mcp either", "/nope/mcp",
			"no MCP server answers at " + srv.URL + "/nope/mcp: the streamable HTTP transport's initialize got HTTP 404 Not Found, and the older HTTP+SSE transport's, tried next at the same URL, HTTP 404 Not Found: check the URL: something answers HTTP at this host and port, but not MCP at this path; is it the MCP server's port, and does the server's documentation or start-up log give another path?"},
		{"credentials wanted", "/locked",
			"the server at " + srv.URL + "/locked answered the streamable HTTP transport's initialize with HTTP 404 Not Found, and the older HTTP+SSE transport, tried next at the same URL, failed: server wants credentials (HTTP 401 Unauthorized) and none were sent: pass them with --header"},
		{"a web page", "/site",
			"the server at " + srv.URL + "/site answered the streamable HTTP transport's initialize with HTTP 405 Method Not Allowed, and the older HTTP+SSE transport, tried next at the same URL, failed: " + srv.URL + "/site answered initialize with a web page titled \"Welcome\""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Streamable{}.Export(context.Background(), transport.Target{Location: srv.URL + c.path})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error:\n%v\nwant it to begin:\n%s", err, c.want)
			}
			if err != nil && strings.Contains(err.Error(), "or the older HTTP+SSE one (sse)") {
				t.Errorf("the error advises sse, which was tried: %v", err)
			}
		})
	}
}
