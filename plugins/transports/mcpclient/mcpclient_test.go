package mcpclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	mcptransport "github.com/mark3labs/mcp-go/client/transport"

	"github.com/rubricmcp/rubric/engine/transport"
)

// request is what the scripted server saw.
type request struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Params json.RawMessage `json:"params"`
}

// script answers one request with the lines to write back, raw. A nil
// answer leaves the request unanswered.
type script func(r request) []string

// scripted connects an mcp-go transport to an in-process server that
// answers with s, over pipes. It returns the transport and the requests
// and notifications the server received, in order, once the client has
// closed.
func scripted(t *testing.T, s script) (mcptransport.Interface, func() []request) {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	tr := mcptransport.NewIO(toClient, fromClient, nil)
	mcptransport.WithCommandLogger(slog.New(slog.DiscardHandler))(tr)
	var seen []request
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer fromServer.Close()
		in := bufio.NewScanner(toServer)
		for in.Scan() {
			var r request
			if err := json.Unmarshal(in.Bytes(), &r); err != nil {
				t.Errorf("the client sent %q: %v", in.Text(), err)
				continue
			}
			seen = append(seen, r)
			if r.ID == nil {
				continue
			}
			for _, line := range s(r) {
				line = strings.ReplaceAll(line, "$ID", string(r.ID))
				if _, err := io.WriteString(fromServer, line+"\n"); err != nil {
					return
				}
			}
		}
	}()
	t.Cleanup(func() { toServer.Close(); wg.Wait() })
	return tr, func() []request { toServer.Close(); wg.Wait(); return seen }
}

const initOK = `{"jsonrpc":"2.0","id":$ID,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"0.1"}}}`

// pages answers initialize, then tools/list with the given results in
// turn, keyed by the cursor asked for ("" for the first page).
func pages(results map[string]string) script {
	return func(r request) []string {
		if r.Method == "initialize" {
			return []string{initOK}
		}
		var p struct{ Cursor string }
		json.Unmarshal(r.Params, &p)
		res, ok := results[p.Cursor]
		if !ok {
			return nil
		}
		return []string{`{"jsonrpc":"2.0","id":$ID,"result":` + res + `}`}
	}
}

func TestListFollowsCursors(t *testing.T) {
	tr, seen := scripted(t, pages(map[string]string{
		"":   `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"null"}],"title":"X"}}},"x-vendor":1.50}],"nextCursor":"p2"}`,
		"p2": `{"tools":[{"name":"b"},{"name":"c","title":"See"}],"nextCursor":"p3"}`,
		"p3": `{"tools":[],"nextCursor":null}`,
	}))
	s, err := List(context.Background(), tr, Config{ClientVersion: "9.9", Source: "srv --flag", Server: map[string]any{"url": "http://x"}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range s.Tools {
		names = append(names, tool.Name)
	}
	if !reflect.DeepEqual(names, []string{"a", "b", "c"}) {
		t.Errorf("tools %v", names)
	}
	if got := string(s.Tools[0].Canonical); !strings.Contains(got, `"anyOf":[{"type":"string"},{"type":"null"}],"title":"X"`) || !strings.Contains(got, `"x-vendor":1.5`) {
		t.Errorf("the definition lost keywords: %s", got)
	}
	if s.Format != "tools/list" || s.Source != "srv --flag" {
		t.Errorf("format %q, source %q", s.Format, s.Source)
	}
	want := map[string]any{"url": "http://x", "name": "s", "version": "0.1", "protocolVersion": "2025-06-18", "era": "legacy"}
	if !reflect.DeepEqual(s.Server, want) {
		t.Errorf("server %v, want %v", s.Server, want)
	}

	reqs := seen()
	var methods []string
	for _, r := range reqs {
		methods = append(methods, r.Method)
	}
	if want := []string{"initialize", "notifications/initialized", "tools/list", "tools/list", "tools/list"}; !reflect.DeepEqual(methods, want) {
		t.Errorf("methods %v, want %v", methods, want)
	}
	if got, want := string(reqs[0].Params), `{"capabilities":{},"clientInfo":{"name":"rubric","version":"9.9"},"protocolVersion":"2025-06-18"}`; got != want {
		t.Errorf("initialize params %s\nwant %s", got, want)
	}
	if got := string(reqs[4].Params); got != `{"cursor":"p3"}` {
		t.Errorf("third page asked with %s", got)
	}
}

// bigPages is n pages of one tool each, its description size bytes long.
func bigPages(n, size int) map[string]string {
	m := map[string]string{}
	for i := 0; i < n; i++ {
		next := fmt.Sprintf(`,"nextCursor":"p%d"`, i+1)
		if i == n-1 {
			next = ""
		}
		m[fmt.Sprintf("p%d", i)] = fmt.Sprintf(`{"tools":[{"name":"t%d","description":"%s"}]%s}`, i, strings.Repeat("x", size), next)
	}
	m[""] = m["p0"]
	return m
}

func TestListRejects(t *testing.T) {
	cases := []struct {
		name   string
		pages  map[string]string
		limits transport.Limits
		want   string
	}{
		{"repeated cursor", map[string]string{"": `{"tools":[{"name":"a"}],"nextCursor":"x"}`, "x": `{"tools":[{"name":"b"}],"nextCursor":"x"}`}, transport.Limits{},
			`server repeated the tools/list cursor "x" on page 2`},
		{"too many tools", map[string]string{"": `{"tools":[{"name":"a"}],"nextCursor":"x"}`, "x": `{"tools":[{"name":"b"},{"name":"c"}]}`}, transport.Limits{MaxTools: 2},
			"server listed more than 2 tools (raise --max-tools)"},
		{"tools not an array", map[string]string{"": `{"tools":{"name":"a"}}`}, transport.Limits{},
			`tools/list page 1: "tools" must be an array of tool objects, found an object`},
		{"a tool not an object", map[string]string{"": `{"tools":[{"name":"a"}],"nextCursor":"x"}`, "x": `{"tools":[{"name":"b"},"c"]}`}, transport.Limits{},
			"tools/list page 2: tools[1] must be a tool object, found a string"},
		{"no tools", map[string]string{"": `{"items":[]}`}, transport.Limits{},
			`tools/list page 1: the result has no "tools" array`},
		{"null result", map[string]string{"": `null`}, transport.Limits{},
			`tools/list page 1: want a result object holding "tools", found null`},
		{"numeric cursor", map[string]string{"": `{"tools":[],"nextCursor":2}`}, transport.Limits{},
			"tools/list page 1: nextCursor must be a string, found a number"},
		{"nameless tool", map[string]string{"": `{"tools":[{"description":"?"}]}`}, transport.Limits{},
			`$.tools[0]: tool has no "name"`},
		{"same name on two pages", map[string]string{"": `{"tools":[{"name":"a"}],"nextCursor":"x"}`, "x": `{"tools":[{"name":"a"}]}`}, transport.Limits{},
			`duplicate tool name "a"`},
		// Each page is within MaxBytes; together they pass 4 × MaxBytes.
		{"more bytes in all than allowed", bigPages(8, 300), transport.Limits{MaxBytes: 350},
			"server sent more than 1400 bytes in 4 pages of tools/list, more than a whole list may hold (4 × --max-bytes; raise --max-bytes)"},
		{"no answer", map[string]string{}, transport.Limits{RequestTimeout: 100 * time.Millisecond},
			"no answer to tools/list within 100ms"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tr, _ := scripted(t, pages(c.pages))
			_, err := List(context.Background(), tr, Config{Limits: c.limits, Source: "srv"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v\nwant it to contain %q", err, c.want)
			}
			// What the server sent is what it would send again; only a
			// server that did not answer may answer next time.
			if want := c.name != "no answer"; transport.IsPermanent(err) != want {
				t.Errorf("error %v: permanent %v, want %v", err, transport.IsPermanent(err), want)
			}
		})
	}
}

func TestListHandshake(t *testing.T) {
	// Only the case about the timeout sets a short one.
	short := transport.Limits{StartTimeout: 100 * time.Millisecond}
	cases := []struct {
		name   string
		answer []string
		limits transport.Limits
		want   string
	}{
		{"error answer", []string{`{"jsonrpc":"2.0","id":$ID,"error":{"code":-32602,"message":"Unsupported protocol version","data":{"supported":["2024-11-05"]}}}`}, transport.Limits{},
			`server answered initialize with error -32602: Unsupported protocol version {"supported":["2024-11-05"]}`},
		{"no answer", nil, short, "no answer to initialize within 100ms"},
		{"not a result object", []string{`{"jsonrpc":"2.0","id":$ID,"result":[1]}`}, transport.Limits{}, "server answered initialize with something other than an initialize result"},
		{"empty answer", []string{`{"jsonrpc":"2.0","id":$ID}`}, transport.Limits{}, "server answered initialize with neither a result nor an error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tr, _ := scripted(t, func(request) []string { return c.answer })
			_, err := List(context.Background(), tr, Config{Limits: c.limits})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

func TestListOlderServer(t *testing.T) {
	tr, _ := scripted(t, func(r request) []string {
		if r.Method == "initialize" {
			return []string{
				`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}`,
				``,
				`{"jsonrpc":"2.0","id":$ID,"result":{"protocolVersion":"2024-11-05","capabilities":{},"serverInfo":{"name":"old","version":"1"},"instructions":"Be kind."}}`,
			}
		}
		return []string{`{"jsonrpc":"2.0","id":$ID,"result":{"tools":[{"name":"q"}]}}`}
	})
	s, err := List(context.Background(), tr, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Server["protocolVersion"] != "2024-11-05" || s.Server["instructions"] != "Be kind." || len(s.Tools) != 1 {
		t.Errorf("surface: %+v", s)
	}
}

func TestListAsksTheTransportWhy(t *testing.T) {
	lost, lose := context.WithCancel(context.Background())
	defer lose()
	var asked []string
	tr, _ := scripted(t, func(r request) []string {
		if r.Method == "initialize" {
			return []string{initOK}
		}
		lose() // the server is gone; no answer will come
		return nil
	})
	// With an hour to wait, only Lost can end List soon.
	_, err := List(context.Background(), tr, Config{
		Limits: transport.Limits{RequestTimeout: time.Hour},
		Lost:   lost,
		Fault: func(method string, err error) error {
			asked = append(asked, method)
			return errors.New("server went away")
		},
	})
	if err == nil || err.Error() != "server went away" {
		t.Errorf("error %v, want the transport's explanation", err)
	}
	if !reflect.DeepEqual(asked, []string{"tools/list"}) {
		t.Errorf("Fault asked about %v", asked)
	}
}

// connecting is a transport whose Start waits until it is closed, as an
// HTTP transport still connecting does. Nothing else of it is called.
type connecting struct {
	mcptransport.Interface
	closed chan struct{}
	once   sync.Once
}

func (c *connecting) Start(context.Context) error {
	<-c.closed
	return mcptransport.ErrTransportClosed
}

func (c *connecting) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// TestListStartDeadlineIsWordedBeforeTheClose: when the start deadline
// ends a Start, the failure is worded from what the transport knew then.
// Closing the transport is rubric's doing (for stdio it closes the
// server's stdin, and the server exits), so what follows the close must
// not be reported as the server's own failure.
func TestListStartDeadlineIsWordedBeforeTheClose(t *testing.T) {
	tr := &connecting{closed: make(chan struct{})}
	_, err := List(context.Background(), tr, Config{
		Limits: transport.Limits{StartTimeout: 2 * time.Second},
		Deadline: func(ctx context.Context, _ time.Duration) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancelCause(ctx)
			cancel(context.DeadlineExceeded) // over before Start is asked
			return ctx, func() {}
		},
		Fault: func(method string, err error) error {
			select {
			case <-tr.closed:
				return errors.New("server exited with status 0 before answering " + method)
			default:
				return nil // alive: a timeout
			}
		},
	})
	if want := "no answer to initialize within 2s"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

func TestListInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tr, _ := scripted(t, func(r request) []string {
		if r.Method == "initialize" {
			return []string{initOK}
		}
		cancel()
		return nil
	})
	_, err := List(ctx, tr, Config{Fault: func(string, error) error { return errors.New("not this") }})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "tools/list") {
		t.Errorf("error %v: want context.Canceled, naming tools/list", err)
	}
}

func TestTooLargeError(t *testing.T) {
	for _, c := range []struct {
		err  TooLargeError
		want string
	}{
		{TooLargeError{Method: "tools/list", Limit: 64 << 20}, "tools/list response exceeds 64 MiB (raise --max-bytes)"},
		{TooLargeError{Limit: 1500}, "a response exceeds 1500 bytes (raise --max-bytes)"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// refuseLegacy is how a server that speaks only revision 2026-07-28
// answers initialize (as the TypeScript SDK v2 does).
const refuseLegacy = `{"jsonrpc":"2.0","id":$ID,"error":{"code":-32022,"message":"Unsupported protocol version: 2025-06-18","data":{"supported":["2026-07-28"],"requested":"2025-06-18"}}}`

const discoverOK = `{"jsonrpc":"2.0","id":$ID,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"instructions":"Ask nicely.","resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"m","version":"2.0"}}}}`

// modern answers as a modern-only server: initialize refused, then
// server/discover, then tools/list pages keyed by cursor.
func modern(discover string, results map[string]string) script {
	return func(r request) []string {
		switch r.Method {
		case "initialize":
			return []string{refuseLegacy}
		case "server/discover":
			return []string{discover}
		}
		var p struct{ Cursor string }
		json.Unmarshal(r.Params, &p)
		res, ok := results[p.Cursor]
		if !ok {
			return nil
		}
		return []string{`{"jsonrpc":"2.0","id":$ID,"result":` + res + `}`}
	}
}

// TestListModernOnly: a server that refuses initialize is read with
// server/discover and tools/list, each carrying the envelope, one round
// trip more than a legacy server costs.
func TestListModernOnly(t *testing.T) {
	tr, seen := scripted(t, modern(discoverOK, map[string]string{
		"":   `{"tools":[{"name":"a","icons":[{"src":"https://x/a.png","sizes":["48x48"]}],"execution":{"taskSupport":"optional"},"_meta":{"x/y":1}}],"nextCursor":"p2","resultType":"complete","ttlMs":0,"cacheScope":"private"}`,
		"p2": `{"tools":[{"name":"b"}],"resultType":"complete"}`,
	}))
	s, err := List(context.Background(), tr, Config{ClientVersion: "9.9", Server: map[string]any{"command": []any{"srv"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(s.Tools[0].Canonical); got != `{"_meta":{"x/y":1},"execution":{"taskSupport":"optional"},"icons":[{"sizes":["48x48"],"src":"https://x/a.png"}],"name":"a"}` {
		t.Errorf("the definition is not as sent: %s", got)
	}
	want := map[string]any{"command": []any{"srv"}, "name": "m", "version": "2.0", "protocolVersion": "2026-07-28", "era": "modern", "instructions": "Ask nicely."}
	if !reflect.DeepEqual(s.Server, want) {
		t.Errorf("server %v\nwant %v", s.Server, want)
	}
	reqs := seen()
	var methods []string
	for _, r := range reqs {
		methods = append(methods, r.Method)
	}
	if want := []string{"initialize", "server/discover", "tools/list", "tools/list"}; !reflect.DeepEqual(methods, want) {
		t.Errorf("methods %v, want %v", methods, want)
	}
	envelope := `"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"rubric","version":"9.9"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	for i, want := range []string{"{" + envelope + "}", "{" + envelope + "}", "{" + envelope + `,"cursor":"p2"}`} {
		if got := string(reqs[i+1].Params); got != want {
			t.Errorf("%s params %s\nwant %s", reqs[i+1].Method, got, want)
		}
	}
}

func TestListModernFailures(t *testing.T) {
	short := transport.Limits{StartTimeout: 100 * time.Millisecond}
	cases := []struct {
		name string
		s    script
		cfg  Config
		want string
	}{
		{"discover refused", modern(`{"jsonrpc":"2.0","id":$ID,"error":{"code":-32603,"message":"boom"}}`, nil), Config{},
			"the server speaks only MCP 2026-07-28 and answered server/discover with error -32603: boom"},
		{"discover unanswered", modern("", nil), Config{Limits: short},
			"the server speaks only MCP 2026-07-28 (it refused initialize with error -32022: Unsupported protocol version: 2025-06-18 {\"requested\":\"2025-06-18\",\"supported\":[\"2026-07-28\"]}), and then: no answer to server/discover within 100ms"},
		{"a later revision only", func(r request) []string {
			return []string{`{"jsonrpc":"2.0","id":$ID,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2027-03-01"]}}}`}
		}, Config{}, `server answered initialize with error -32022: Unsupported protocol version {"supported":["2027-03-01"]}: the server speaks only MCP 2027-03-01, and rubric speaks 2025-06-18 and 2026-07-28: a newer rubric may read it`},
		{"discover names a later revision", modern(`{"jsonrpc":"2.0","id":$ID,"result":{"supportedVersions":["2027-03-01"],"capabilities":{}}}`, nil), Config{},
			"the server speaks only MCP 2027-03-01, and rubric speaks 2025-06-18 and 2026-07-28: a newer rubric may read it"},
		{"no initialize, no discover", func(r request) []string {
			return []string{`{"jsonrpc":"2.0","id":$ID,"error":{"code":-32601,"message":"Method not found"}}`}
		}, Config{}, "the server does not know initialize (error -32601: Method not found), and server/discover, with which MCP 2026-07-28 opens, failed too: server answered server/discover with error -32601: Method not found"},
		{"input required", modern(discoverOK, map[string]string{"": `{"resultType":"input_required","inputRequests":{}}`}), Config{},
			`tools/list page 1: the server answered with resultType "input_required", not "complete"`},
		{"legacy-only transport", modern(discoverOK, nil), Config{LegacyOnly: "http"},
			"server answered initialize with error -32022: Unsupported protocol version: 2025-06-18 {\"requested\":\"2025-06-18\",\"supported\":[\"2026-07-28\"]}: the server may speak only MCP 2026-07-28, which this transport does not carry; use http"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tr, _ := scripted(t, c.s)
			_, err := List(context.Background(), tr, c.cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

// TestListTellsModernRefusals: which refusals of initialize make List try
// revision 2026-07-28.
func TestListTellsModernRefusals(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{&RPCError{Method: "initialize", Code: -32022, Data: map[string]any{"supported": []any{"2026-07-28"}}}, true},
		{&RPCError{Method: "initialize", Code: -32022}, true},
		{&RPCError{Method: "initialize", Code: -32602, Data: map[string]any{"supported": []any{"2026-07-28", "2027-01-01"}}}, true},
		{&RPCError{Method: "initialize", Code: -32601, Message: "Method not found"}, true},
		{&RPCError{Method: "initialize", Code: -32602, Data: map[string]any{"supported": []any{"2024-11-05"}}}, false},
		{&RPCError{Method: "initialize", Code: -32022, Data: map[string]any{"supported": []any{"2027-01-01"}}}, false},
		{&RPCError{Method: "tools/list", Code: -32022}, false},
		{errors.New("no answer to initialize within 60s"), false},
		{nil, false},
	} {
		if got := modernOnly(c.err) != nil; got != c.want {
			t.Errorf("modernOnly(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
