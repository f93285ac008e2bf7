package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcptransport "github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/rubrics"
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
			req, err := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(initializeRequest))
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
	// Answered with the bound and what to do, not mcp-go's "read
	// request body error: http: request body too large".
	want := `"the request is more than the 1025 KiB rubric mcp reads (--max-bytes, 1 KiB, for an inline target, and 1 MiB for the rest): score the server itself (target command or url), or start rubric mcp with a larger --max-bytes"`
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), want) {
		t.Errorf("a request of %d bytes was answered %d %s; want 413 and %s", body.n, rec.Code, rec.Body.String(), want)
	}
	if body.read > 2*bound {
		t.Errorf("read %d bytes of the request, beyond the bound of %d", body.read, bound)
	}
}

// TestHTTPTooLargeCall: mcp-go's streamable HTTP client, calling score
// with an inline target larger than --max-bytes, hears the bound and
// what to do; a call within it is served on the same session.
func TestHTTPTooLargeCall(t *testing.T) {
	srv := New(Options{DefaultRubric: "schema-quality", Rubrics: Rubrics{Find: rubrics.FindContext, Source: rubrics.Source, Builtins: rubrics.Names()},
		Target: transport.Target{Limits: transport.Limits{MaxBytes: 1 << 10}}})
	defer srv.Close()
	ts := httptest.NewServer(srv.HTTPHandler())
	defer ts.Close()
	tr, err := mcptransport.NewStreamableHTTP(ts.URL + HTTPPath)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	if _, err := c.Initialize(context.Background(), init); err != nil {
		t.Fatal(err)
	}
	score := func(desc string) (*mcp.CallToolResult, error) {
		req := mcp.CallToolRequest{}
		req.Params.Name = "score"
		req.Params.Arguments = map[string]any{"target": map[string]any{"tools": map[string]any{"tools": []any{map[string]any{
			"name": "echo", "description": desc, "inputSchema": map[string]any{"type": "object"}}}}}}
		return c.CallTool(context.Background(), req)
	}
	_, err = score(strings.Repeat("x", 2<<20))
	if err == nil || !strings.Contains(err.Error(), "start rubric mcp with a larger --max-bytes") {
		t.Errorf("a call of 2 MiB: %v; want the bound and what to do", err)
	}
	if res, err := score("Echoes the text it is given."); err != nil || res.IsError {
		t.Errorf("a small call after it: %v %+v", err, res)
	}
}

// TestHTTPSession: over real HTTP, a request other than initialize that
// carries no Mcp-Session-Id header (a POST, a DELETE, the GET that
// opens a session's stream) is 400 Bad Request with a JSON-RPC
// error that says to initialize first, and one whose session the
// server never issued, or a DELETE ended, is 404 Not Found with an
// error that says to initialize again (MCP's streamable HTTP transport,
// session management), whatever the method: mcp-go checked only that
// the id was written as one of its own, and served it. With the session
// initialize gave, a request is served. A client of revision
// 2026-07-28, which has no sessions, is served without one.
func TestHTTPSession(t *testing.T) {
	srv := New(Options{})
	defer srv.Close()
	ts := httptest.NewServer(srv.HTTPHandler())
	defer ts.Close()
	post := func(method, body string, header map[string]string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, ts.URL+HTTPPath, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(ct, "text/event-stream") {
			// A stream was opened, which would not end: its headers say
			// enough.
			return resp, "(a stream of " + ct + ")"
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, string(b)
	}
	resp, body := post("POST", initializeRequest, nil)
	session := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || session == "" {
		t.Fatalf("initialize: %s %s, session %q", resp.Status, body, session)
	}
	resp, body = post("POST", initializeRequest, nil)
	ended := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || ended == "" || ended == session {
		t.Fatalf("a second initialize: %s %s, session %q (the first %q)", resp.Status, body, ended, session)
	}
	// Written as mcp-go writes its own ids, but never issued.
	const never = "mcp-session-7d444840-9dc0-11d1-b245-5ffdce74fad2"
	const list = `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`
	const unknown = `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"this request's Mcp-Session-Id names no session of this server (never issued, ended by a DELETE or a restart of rubric mcp, or forgotten as the oldest when more than 4096 were open): send initialize again for a new session"}}`
	const unknownPart = "~names no session of this server (never issued, ended by a DELETE or a restart of rubric mcp, or forgotten as the oldest when more than 4096 were open): send initialize again for a new session"
	const missing = `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"this request has no Mcp-Session-Id header: send initialize first, then every other request with the Mcp-Session-Id header its response carries"}}`
	const modern = `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`
	version := map[string]string{"MCP-Protocol-Version": "2025-11-25"}
	for _, c := range []struct {
		name, method, body string
		header             map[string]string
		status             int
		want               string // the body, or part of it after a prefix of "~"
	}{
		{"no session", "POST", list, nil, http.StatusBadRequest, missing},
		{"no session, with a version", "POST", list, version, http.StatusBadRequest, missing},
		{"a notification with no session", "POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil, http.StatusBadRequest, "~" + `"id":null,"error":{"code":-32600,"message":"this request has no Mcp-Session-Id header`},
		{"DELETE with no session", "DELETE", "", nil, http.StatusBadRequest, "~send initialize first"},
		{"GET with no session", "GET", "", nil, http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"this request has no Mcp-Session-Id header: send initialize first, then every other request with the Mcp-Session-Id header its response carries"}}`},
		{"an unknown session", "POST", list, map[string]string{"Mcp-Session-Id": "mcp-session-nosuch"}, http.StatusNotFound, unknown},
		{"a session never issued", "POST", list, map[string]string{"Mcp-Session-Id": never, "MCP-Protocol-Version": "2025-11-25"}, http.StatusNotFound, unknown},
		{"GET of a session never issued", "GET", "", map[string]string{"Mcp-Session-Id": never, "MCP-Protocol-Version": "2025-11-25"}, http.StatusNotFound, unknownPart},
		{"DELETE of a session never issued", "DELETE", "", map[string]string{"Mcp-Session-Id": never, "MCP-Protocol-Version": "2025-11-25"}, http.StatusNotFound, unknownPart},
		{"DELETE of the second session", "DELETE", "", map[string]string{"Mcp-Session-Id": ended, "MCP-Protocol-Version": "2025-11-25"}, http.StatusOK, ""},
		{"the ended session", "POST", list, map[string]string{"Mcp-Session-Id": ended, "MCP-Protocol-Version": "2025-11-25"}, http.StatusNotFound, unknown},
		{"GET of the ended session", "GET", "", map[string]string{"Mcp-Session-Id": ended, "MCP-Protocol-Version": "2025-11-25"}, http.StatusNotFound, unknownPart},
		{"DELETE of the ended session", "DELETE", "", map[string]string{"Mcp-Session-Id": ended, "MCP-Protocol-Version": "2025-11-25"}, http.StatusNotFound, unknownPart},
		{"the session", "POST", list, map[string]string{"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}, http.StatusOK, "~" + `"name":"lint_tool"`},
		{"GET of the session", "GET", "", map[string]string{"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}, http.StatusOK, "(a stream of text/event-stream)"},
		{"not JSON", "POST", "{", nil, http.StatusBadRequest, "~request body is not valid json"},
		{"revision 2026-07-28", "POST", modern, map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}, http.StatusOK, "~" + `"name":"lint_tool"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, body := post(c.method, c.body, c.header)
			want, part := strings.CutPrefix(c.want, "~")
			if resp.StatusCode != c.status || (part && !strings.Contains(body, want)) || (!part && body != want) {
				t.Errorf("%s: %s %s; want %d and %s", c.name, resp.Status, body, c.status, c.want)
			}
		})
	}
}

// TestHTTPForgottenSessionsEnd: a session forgotten as the oldest, when
// a client initializes past the bound without ever sending DELETE, is
// ended in mcp-go too, as a DELETE would end it; mcp-go kept every such
// session registered (and its state with it) until a DELETE that never
// came, so initialize in a loop still grew the server without bound.
// The sessions the bound keeps stay registered, and one ended by a
// DELETE is unregistered as before.
func TestHTTPForgottenSessionsEnd(t *testing.T) {
	srv := New(Options{})
	defer srv.Close()
	srv.maxSessions = 2
	ts := httptest.NewServer(srv.HTTPHandler())
	defer ts.Close()
	send := func(method, body, session string) *http.Response {
		t.Helper()
		resp, err := mcpRequest(ts, method, body, session)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	var ids []string
	for range 5 {
		resp := send("POST", initializeRequest, "")
		id := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != http.StatusOK || id == "" {
			t.Fatalf("initialize: %s, session %q", resp.Status, id)
		}
		ids = append(ids, id)
	}
	registered := func(id string) bool {
		err := srv.mcp.SendNotificationToSpecificClient(id, "notifications/message", nil)
		return !errors.Is(err, server.ErrSessionNotFound)
	}
	for i, id := range ids {
		if want := i >= len(ids)-2; registered(id) != want {
			t.Errorf("session %d of %d (bound 2): registered in mcp-go %v, want %v", i, len(ids), registered(id), want)
		}
	}
	if resp := send("DELETE", "", ids[4]); resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE of the newest session: %s", resp.Status)
	}
	if registered(ids[4]) || !registered(ids[3]) {
		t.Errorf("after a DELETE of the newest: it registered %v (want false), the one before %v (want true)", registered(ids[4]), registered(ids[3]))
	}
}

// heldIDs is the session ids of HTTPHandler whose first Generate waits,
// once it has issued its id, until release is closed: the stage of an
// initialize that mcp-go is still handling (it registers the session only
// after writing the answer).
type heldIDs struct {
	*sessionIDs
	started   atomic.Bool
	generated chan struct{}
	release   chan struct{}
}

func (h *heldIDs) Generate() string {
	id := h.sessionIDs.Generate()
	if h.started.CompareAndSwap(false, true) {
		close(h.generated)
		<-h.release
	}
	return id
}

// TestHTTPSessionForgottenDuringItsInitialize: a session forgotten as the
// oldest while its own initialize is still being handled is ended in
// mcp-go before mcp-go registers it; the initialize then registers it,
// and nothing ends it again: it is in no list of sessionIDs, so no later
// Generate forgets it, and its client (a loop of initializes) sends no
// DELETE. Concurrent initializes past the bound so still grow the server.
// The wiring is HTTPHandler's, with the first Generate held at the stage.
func TestHTTPSessionForgottenDuringItsInitialize(t *testing.T) {
	srv := New(Options{})
	defer srv.Close()
	ids := &sessionIDs{max: 1}
	held := &heldIDs{sessionIDs: ids, generated: make(chan struct{}), release: make(chan struct{})}
	streamable := server.NewStreamableHTTPServer(srv.mcp, server.WithEndpointPath(HTTPPath), server.WithSessionIdManager(held))
	ids.forget = func(id string) { endSession(streamable, id) }
	ts := httptest.NewServer(srv.bounded(ids, streamable))
	defer ts.Close()
	post := func() (string, error) {
		resp, err := mcpRequest(ts, "POST", initializeRequest, "")
		if err != nil {
			return "", err
		}
		if resp.StatusCode != http.StatusOK {
			return "", errors.New(resp.Status)
		}
		return resp.Header.Get("Mcp-Session-Id"), nil
	}
	type result struct {
		id  string
		err error
	}
	first := make(chan result, 1)
	go func() {
		id, err := post()
		first <- result{id, err}
	}()
	<-held.generated
	second, err := post() // the bound is 1: forgets the first
	if err != nil {
		t.Fatalf("second initialize: %v", err)
	}
	close(held.release)
	r := <-first
	if r.err != nil {
		t.Fatalf("first initialize: %v", r.err)
	}
	registered := func(id string) bool {
		err := srv.mcp.SendNotificationToSpecificClient(id, "notifications/message", nil)
		return !errors.Is(err, server.ErrSessionNotFound)
	}
	if ids.known(r.id) {
		t.Fatalf("the first session is still live in sessionIDs: the bound of 1 did not forget it")
	}
	if registered(r.id) {
		t.Errorf("the first session, forgotten as the oldest, is registered in mcp-go after its initialize ended, and nothing will end it")
	}
	if !registered(second) {
		t.Errorf("the second session, the live one, is not registered")
	}
}

// initializeRequest is the initialize a client of revision 2025-11-25
// sends first.
const initializeRequest = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// startSession initializes a session on ts and returns its id, failing
// the test unless the server answered with one.
func startSession(t *testing.T, ts *httptest.Server) string {
	t.Helper()
	resp, err := mcpRequest(ts, "POST", initializeRequest, "")
	if err != nil {
		t.Fatal(err)
	}
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %s, session %q", resp.Status, id)
	}
	return id
}

// mcpRequest sends an MCP request to ts's HTTPPath with the headers a
// client of revision 2025-11-25 sends, and session's when it is given,
// and returns the response with its body read and closed.
func mcpRequest(ts *httptest.Server, method, body, session string) (*http.Response, error) {
	req, err := http.NewRequest(method, ts.URL+HTTPPath, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp, err
}

// openStream opens the listening stream of session (a GET) on ts with the
// headers a client of revision 2025-11-25 sends, and returns the
// response once its headers have arrived: mcp-go writes them after it
// has found (or made) the session the stream belongs to, so the server
// is past that stage. The caller closes the body.
func openStream(t *testing.T, ts *httptest.Server, session string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, ts.URL+HTTPPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestHTTPStreamTakesNoSession: the GET that opens a session's listening
// stream belongs to a session initialize made: it neither makes one
// (which would take one of the bounded slots and push out the oldest
// live session) nor refreshes the one it names (the bound forgets the
// oldest issued, whatever streams it has). With a bound of 2, two
// sessions each with streams open are both live; a GET naming none is
// refused and takes no slot; a third initialize forgets the first
// session, though it opened the latest stream.
func TestHTTPStreamTakesNoSession(t *testing.T) {
	srv := New(Options{})
	defer srv.Close()
	srv.maxSessions = 2
	ts := httptest.NewServer(srv.HTTPHandler())
	defer ts.Close()
	const list = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	live := func(id string) bool {
		t.Helper()
		resp, err := mcpRequest(ts, "POST", list, id)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode == http.StatusOK
	}
	first, second := startSession(t, ts), startSession(t, ts)
	for _, id := range []string{second, first, second, first} {
		resp := openStream(t, ts, id)
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("GET of a live session: %s %s", resp.Status, resp.Header.Get("Content-Type"))
		}
	}
	for range 3 {
		resp := openStream(t, ts, "")
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("GET naming no session: %s, want 400", resp.Status)
		}
	}
	if !live(first) || !live(second) {
		t.Fatalf("with streams open, the sessions of a bound of 2 are live: first %v, second %v; want both", live(first), live(second))
	}
	third := startSession(t, ts)
	if live(first) || !live(second) || !live(third) {
		t.Errorf("after a third initialize: first live %v (want false: the oldest issued, its stream the latest), second %v, third %v (want true)", live(first), live(second), live(third))
	}
}

// TestHTTPStreamEndsWithItsSession: a session's listening stream ends
// when the session does, forgotten as the oldest past the bound or
// ended by a DELETE: mcp-go kept it open, unbounded by the bound on
// sessions, and its client, hearing nothing, never learnt to initialize
// again; a stream opened again on the ended session is 404. The stream
// of a live session stays open (it is closed by the client at the end).
// Each stream's end is what its reader sees, EOF, not a clock.
func TestHTTPStreamEndsWithItsSession(t *testing.T) {
	srv := New(Options{})
	defer srv.Close()
	srv.maxSessions = 2
	ts := httptest.NewServer(srv.HTTPHandler())
	defer ts.Close()
	// ended reads a stream to its end, and says so on the channel.
	ended := func(resp *http.Response) <-chan error {
		done := make(chan error, 1)
		go func() {
			_, err := io.Copy(io.Discard, resp.Body)
			done <- err
		}()
		return done
	}
	forgotten, deleted, kept := startSession(t, ts), startSession(t, ts), ""
	streams := map[string]*http.Response{}
	for _, id := range []string{forgotten, deleted} {
		resp := openStream(t, ts, id)
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET of a live session: %s", resp.Status)
		}
		streams[id] = resp
	}
	forgottenEnd, deletedEnd := ended(streams[forgotten]), ended(streams[deleted])

	kept = startSession(t, ts) // the bound of 2 forgets the oldest
	if err := <-forgottenEnd; err != nil {
		t.Errorf("the stream of the forgotten session ended with %v, want its end", err)
	}
	if resp, err := mcpRequest(ts, "DELETE", "", deleted); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	if err := <-deletedEnd; err != nil {
		t.Errorf("the stream of the deleted session ended with %v, want its end", err)
	}
	for _, id := range []string{forgotten, deleted} {
		resp := openStream(t, ts, id)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("a stream opened again on an ended session: %s, want 404", resp.Status)
		}
	}
	resp := openStream(t, ts, kept)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a stream of the live session: %s", resp.Status)
	}
}

// TestBusyPortSuggestsAnother: an address already listened on is
// refused with another to try, the next port on the same host, where the
// message suggested 127.0.0.1:8765 even when that was the port taken.
func TestBusyPortSuggestsAnother(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	err = (&Server{}).ServeHTTP(context.Background(), ln.Addr().String(), func(net.Addr) { t.Error("listening on a port taken") })
	want := fmt.Sprintf("give a free host:port, such as 127.0.0.1:%d, or port 0 for any free one)", port+1)
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("err = %v, want it to end %q", err, want)
	}
	for addr, want := range map[string]string{":8765": "127.0.0.1:8766", "localhost:99999": "127.0.0.1:8765", "nonsense": "127.0.0.1:8765", "[::1]:9000": "[::1]:9001"} {
		if got := otherPort(addr); got != want {
			t.Errorf("otherPort(%q) = %q, want %q", addr, got, want)
		}
	}
}
