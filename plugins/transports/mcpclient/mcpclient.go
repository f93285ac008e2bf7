// Package mcpclient lists an MCP server's tools over a connection that an
// mcp-go client transport provides, keeping every tool exactly as the
// server sent it.
//
// It speaks both eras of the protocol. It opens with the legacy initialize
// handshake (2025-06-18), then lists tools page by page. A server that
// speaks only revision 2026-07-28 refuses initialize in one answer (error
// -32022, naming the versions it supports); List then switches to that
// revision, where there is no handshake and no session: every request
// carries its own _meta envelope (protocol version, client info and
// capabilities), server/discover says who the server is, and tools/list
// follows. Opening with initialize costs a legacy server nothing, and a
// modern-only one one round trip; opening with server/discover would cost
// every legacy server a round trip, and a legacy server of the Python SDK
// raises on a request before initialize instead of answering it
// (bench/README.md has the measurements).
//
// The stdio and HTTP transports share it; each owns its connection (a child
// process, an HTTP client) and explains its own failures through
// Config.Fault, so that a user reads "server exited with status 1" rather
// than "transport closed".
//
// The requests go through the transport's SendRequest, not the typed mcp-go
// client: mcp.Tool keeps only part of an input schema (anyOf, title and the
// rest are dropped), and a surface must hold the JSON the server sent,
// keyword for keyword.
package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	mcptransport "github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// ProtocolVersion is the MCP revision rubric asks for in initialize. A
// server may answer with another one; the surface records what it chose.
const ProtocolVersion = "2025-06-18"

// ModernVersion is the stateless MCP revision rubric speaks to a server
// that refuses initialize.
const ModernVersion = "2026-07-28"

// The eras a surface's server info names under "era".
const (
	// EraLegacy is a server read after the initialize handshake.
	EraLegacy = "legacy"
	// EraModern is a server read with per-request envelopes (2026-07-28).
	EraModern = "modern"
)

// The _meta keys of revision 2026-07-28.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
)

// codeUnsupportedVersion is the error revision 2026-07-28 answers a
// request of a protocol version the server does not serve with.
const codeUnsupportedVersion = -32022

// HeaderMethod is the HTTP header that carries a modern request's method.
const HeaderMethod = "Mcp-Method"

// ClientName is the name rubric gives itself in initialize.
const ClientName = "rubric"

// Config says how to list one server.
type Config struct {
	// ClientVersion is rubric's version, sent in clientInfo.
	ClientVersion string
	// Limits bound the work; zero fields take their defaults.
	Limits transport.Limits
	// Source becomes Surface.Source: the command or URL as the user gave it
	// (a URL without its password).
	Source string
	// Server holds what the transport knows of the server, such as
	// "command" (the argv, as []any) or "url". List adds serverInfo's name
	// and version, the era (EraLegacy or EraModern), the protocolVersion
	// spoken and any instructions.
	Server map[string]any
	// LegacyOnly, when set, keeps List to the initialize handshake, for a
	// transport that revision 2026-07-28 does not carry (HTTP+SSE). It
	// names the transport to use instead, for the message that a server
	// refusing initialize may speak only that revision.
	LegacyOnly string
	// Fault, when set, explains a failed request better than the client
	// can: a server that exited, a response over MaxBytes, a refused
	// connection. It is given the method that was pending and the error the
	// transport returned, and returns nil when it knows nothing more.
	Fault func(method string, err error) error
	// Lost, when set, is cancelled once the transport knows the server is
	// gone or broke the protocol; the pending request stops waiting at once
	// instead of running into its timeout.
	Lost context.Context
	// Dropped, when set, says what the transport received and could not
	// take as an answer (lines that are not JSON-RPC, an answer with an id
	// never sent), or "" when nothing; a timeout's message ends with it, so
	// that the user learns what did arrive.
	Dropped func() string
	// Deadline, when set, replaces context.WithTimeout for the bound on
	// each request (Limits.StartTimeout for start plus initialize,
	// Limits.RequestTimeout for each page): a test gives one that ends
	// when the test has reached a stage, not when a clock says. The
	// context it returns must end with the cause context.DeadlineExceeded.
	Deadline func(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc)
}

// withTimeout bounds a request by limit through cfg.Deadline when set.
func (s *session) withTimeout(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if s.cfg.Deadline != nil {
		return s.cfg.Deadline(ctx, limit)
	}
	return context.WithTimeout(ctx, limit)
}

// TooLargeError is a response longer than Limits.MaxBytes.
type TooLargeError struct {
	// Method is the request that was answered ("tools/list"); empty when
	// unknown.
	Method string
	// Limit is the byte limit exceeded.
	Limit int64
}

// Error says which response was too large and what to do about it.
func (e *TooLargeError) Error() string {
	what := "a response"
	if e.Method != "" {
		what = e.Method + " response"
	}
	return fmt.Sprintf("%s exceeds %s (raise --max-bytes)", what, transport.Sized(e.Limit))
}

// List starts tr (a no-op when it is already started), performs the
// initialize handshake (or, for a server that speaks only revision
// 2026-07-28, server/discover), lists every tool by following nextCursor,
// and closes tr before returning, whatever happened.
//
// Limits.StartTimeout bounds Start plus the handshake; Limits.RequestTimeout
// bounds each tools/list page. When ctx ends, List returns an error
// wrapping ctx's error.
func List(ctx context.Context, tr mcptransport.Interface, cfg Config) (*surface.Surface, error) {
	s := &session{ctx: ctx, tr: tr, cfg: cfg, limits: cfg.Limits.WithDefaults()}
	defer tr.Close()
	if b, ok := tr.(mcptransport.BidirectionalInterface); ok {
		b.SetRequestHandler(answer)
	}
	start, cancel := s.withTimeout(ctx, s.limits.StartTimeout)
	defer cancel()
	if err := s.start(start); err != nil {
		return nil, err
	}
	info, err := s.initialize(start)
	if refused := modernOnly(err); refused != nil {
		if cfg.LegacyOnly != "" {
			return nil, transport.Permanent(fmt.Errorf("%w: the server may speak only MCP %s, which this transport does not carry; use %s", err, ModernVersion, cfg.LegacyOnly))
		}
		info, err = s.discover(start, refused)
	} else if later := laterOnly(err); later != nil {
		return nil, transport.Permanent(fmt.Errorf("%w: the server speaks only MCP %s, and rubric speaks %s and %s: a newer rubric may read it", err, strings.Join(later, ", "), ProtocolVersion, ModernVersion))
	}
	if err != nil {
		return nil, err
	}
	tools, err := s.listTools()
	if err != nil {
		return nil, err
	}
	doc := splice(tools)
	surf, err := surface.ParseToolsList(cfg.Source, doc)
	if err != nil {
		return nil, transport.Permanent(err) // a surface.Error, which the plugin wire would not keep
	}
	surf.Server = serverInfo(cfg.Server, info)
	return surf, nil
}

type session struct {
	ctx    context.Context
	tr     mcptransport.Interface
	cfg    Config
	limits transport.Limits
	nextID int64
	modern bool // requests carry the 2026-07-28 envelope
}

// start runs tr.Start under the start deadline. Start is given the
// session's context, not the deadline's: some transports (legacy SSE) tie
// their event stream to it, and the stream must outlive the handshake.
func (s *session) start(deadline context.Context) error {
	done := make(chan error, 1)
	go func() { done <- s.tr.Start(s.ctx) }()
	lost := context.Background().Done() // never
	if s.cfg.Lost != nil {
		lost = s.cfg.Lost.Done()
	}
	select {
	case err := <-done:
		if err != nil {
			return s.failed(deadline, "initialize", err)
		}
		return nil
	case <-lost:
		// The transport knows Start cannot succeed (a legacy stream named
		// an endpoint it refuses, say): end it now, not at the deadline.
		s.tr.Close()
		err := <-done
		if err == nil {
			err = mcptransport.ErrTransportClosed
		}
		return s.failed(deadline, "initialize", err)
	case <-deadline.Done():
		// A Start that ended as the deadline did is heard first.
		select {
		case err := <-done:
			if err == nil {
				err = deadline.Err()
			}
			return s.failed(deadline, "initialize", err)
		default:
		}
		// The failure is worded before the transport is closed: closing a
		// stdio transport closes the server's stdin, and a server that
		// then exits would be reported as having exited by itself.
		failure := s.failed(deadline, "initialize", deadline.Err())
		// Closing the transport ends a Start that is still connecting;
		// wait for it so that nothing outlives List.
		s.tr.Close()
		<-done
		return failure
	}
}

// answer answers a request from the server: a ping with the empty result
// the specification asks for, anything else with "method not found", since
// rubric offers the server nothing (no sampling, no roots).
func answer(_ context.Context, req mcptransport.JSONRPCRequest) (*mcptransport.JSONRPCResponse, error) {
	if req.Method == string(mcp.MethodPing) {
		return mcptransport.NewJSONRPCResultResponse(req.ID, json.RawMessage(`{}`)), nil
	}
	return mcptransport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND, "rubric only lists tools; it does not serve "+req.Method, nil), nil
}

// initResult is the part of an initialize result that the surface keeps.
type initResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	ServerInfo      map[string]any `json:"serverInfo"`
	Instructions    string         `json:"instructions"`
	// Era is EraLegacy or EraModern; not part of the answer.
	Era string `json:"-"`
}

func (s *session) initialize(deadline context.Context) (*initResult, error) {
	params := map[string]any{
		"protocolVersion": ProtocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": ClientName, "version": s.cfg.ClientVersion},
	}
	raw, err := s.call(deadline, "initialize", params)
	if err != nil {
		return nil, err
	}
	info := initResult{Era: EraLegacy}
	if err := json.Unmarshal(raw, &info); err != nil {
		return nil, transport.Permanent(fmt.Errorf("server answered initialize with something other than an initialize result: %v", err))
	}
	if info.ProtocolVersion != "" {
		// The HTTP transports repeat it in the MCP-Protocol-Version header.
		if h, ok := s.tr.(mcptransport.HTTPConnection); ok {
			h.SetProtocolVersion(info.ProtocolVersion)
		}
	}
	note := mcp.JSONRPCNotification{
		JSONRPC:      mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{Method: "notifications/initialized"},
	}
	if err := s.tr.SendNotification(deadline, note); err != nil {
		return nil, s.failed(deadline, "notifications/initialized", err)
	}
	return &info, nil
}

// modernOnly returns the error with which a server refused initialize when
// that error says the server may speak revision 2026-07-28: error -32022
// (unsupported protocol version) naming it among the versions supported,
// or naming none; or "method not found", which no legacy server answers
// initialize with. It returns nil for any other outcome, a refusal that
// names only other versions included.
func modernOnly(err error) *RPCError {
	var re *RPCError
	if !errors.As(err, &re) || re.Method != "initialize" {
		return nil
	}
	supported := re.Supported()
	if slices.Contains(supported, ModernVersion) {
		return re
	}
	if re.Code == codeUnsupportedVersion && len(supported) == 0 || re.Code == mcp.METHOD_NOT_FOUND {
		return re
	}
	return nil
}

// laterOnly returns the versions a refusal of initialize names when it is
// revision 2026-07-28's unsupported-version error and names only others:
// revisions later than rubric knows.
func laterOnly(err error) []string {
	var re *RPCError
	if !errors.As(err, &re) || re.Method != "initialize" || re.Code != codeUnsupportedVersion {
		return nil
	}
	return re.Supported()
}

// discoverResult is the part of a server/discover result that the surface
// keeps.
type discoverResult struct {
	SupportedVersions []string `json:"supportedVersions"`
	Instructions      string   `json:"instructions"`
	Meta              struct {
		ServerInfo map[string]any `json:"io.modelcontextprotocol/serverInfo"`
	} `json:"_meta"`
}

// discover switches the session to revision 2026-07-28, once the server
// refused initialize with refused, and asks the server who it is.
func (s *session) discover(deadline context.Context, refused *RPCError) (*initResult, error) {
	s.modern = true
	// The HTTP transports send it as MCP-Protocol-Version, and stop
	// keeping a session.
	if h, ok := s.tr.(mcptransport.HTTPConnection); ok {
		h.SetProtocolVersion(ModernVersion)
	}
	raw, err := s.call(deadline, "server/discover", nil)
	if err != nil {
		var re *RPCError
		switch {
		case s.ctx.Err() != nil:
			return nil, err
		case refused.Code == mcp.METHOD_NOT_FOUND:
			return nil, fmt.Errorf("the server does not know initialize (%s), and server/discover, with which MCP %s opens, failed too: %w", refused.brief(), ModernVersion, err)
		case errors.As(err, &re):
			return nil, fmt.Errorf("the server speaks only MCP %s and answered server/discover with %s", ModernVersion, re.brief())
		}
		return nil, fmt.Errorf("the server speaks only MCP %s (it refused initialize with %s), and then: %w", ModernVersion, refused.brief(), err)
	}
	var d discoverResult
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("the server speaks only MCP %s and answered server/discover with something other than a discover result: %v", ModernVersion, err)
	}
	if len(d.SupportedVersions) > 0 && !slices.Contains(d.SupportedVersions, ModernVersion) {
		return nil, fmt.Errorf("the server speaks only MCP %s, and rubric speaks %s and %s: a newer rubric may read it",
			strings.Join(d.SupportedVersions, ", "), ProtocolVersion, ModernVersion)
	}
	return &initResult{ProtocolVersion: ModernVersion, ServerInfo: d.Meta.ServerInfo, Instructions: d.Instructions, Era: EraModern}, nil
}

// envelope is the _meta every request of revision 2026-07-28 carries.
func (s *session) envelope() map[string]any {
	return map[string]any{
		metaProtocolVersion:    ModernVersion,
		metaClientCapabilities: map[string]any{},
		metaClientInfo:         map[string]any{"name": ClientName, "version": s.cfg.ClientVersion},
	}
}

// listTools follows nextCursor to the end and returns every tool object
// exactly as sent. What the server sent that breaks the protocol or
// passes a limit is marked transport.Permanent: asking again gets the
// same; a request that failed is as the transport says.
func (s *session) listTools() ([]json.RawMessage, error) {
	var tools []json.RawMessage
	seen := map[string]bool{}
	cursor := ""
	var total int64 // bytes of every page so far
	for page := 1; ; page++ {
		if page > s.limits.MaxTools+1 {
			return nil, transport.Permanent(fmt.Errorf("server sent more than %d pages of tools/list (raise --max-tools)", s.limits.MaxTools+1))
		}
		var params map[string]any
		if page > 1 {
			params = map[string]any{"cursor": cursor}
		}
		deadline, cancel := s.withTimeout(s.ctx, s.limits.RequestTimeout)
		raw, err := s.call(deadline, "tools/list", params)
		cancel()
		if err != nil {
			return nil, err
		}
		if total += int64(len(raw)); total > s.limits.ExportBytes() {
			return nil, transport.Permanent(fmt.Errorf("server sent more than %s in %d pages of tools/list, more than a whole list may hold (4 × --max-bytes; raise --max-bytes)",
				transport.Sized(s.limits.ExportBytes()), page))
		}
		if s.modern {
			if err := complete(raw, page); err != nil {
				return nil, transport.Permanent(err)
			}
		}
		got, next, err := readPage(raw, page)
		if err != nil {
			return nil, transport.Permanent(err)
		}
		if len(tools)+len(got) > s.limits.MaxTools {
			return nil, transport.Permanent(fmt.Errorf("server listed more than %d tools (raise --max-tools)", s.limits.MaxTools))
		}
		tools = append(tools, got...)
		if next == "" {
			return tools, nil
		}
		if seen[next] {
			return nil, transport.Permanent(fmt.Errorf("server repeated the tools/list cursor %q on page %d: following it would list the same page again", next, page))
		}
		seen[next] = true
		cursor = next
	}
}

// readPage checks one tools/list result and returns its tools and
// nextCursor.
func readPage(raw json.RawMessage, page int) ([]json.RawMessage, string, error) {
	where := fmt.Sprintf("tools/list page %d", page)
	var result map[string]json.RawMessage
	if err := json.Unmarshal(raw, &result); err != nil || result == nil {
		return nil, "", fmt.Errorf("%s: want a result object holding \"tools\", found %s", where, kindOfJSON(raw))
	}
	list, ok := result["tools"]
	if !ok {
		return nil, "", fmt.Errorf("%s: the result has no \"tools\" array", where)
	}
	var tools []json.RawMessage
	if kindOfJSON(list) != "an array" || json.Unmarshal(list, &tools) != nil {
		return nil, "", fmt.Errorf("%s: \"tools\" must be an array of tool objects, found %s", where, kindOfJSON(list))
	}
	for i, t := range tools {
		if k := kindOfJSON(t); k != "an object" {
			return nil, "", fmt.Errorf("%s: tools[%d] must be a tool object, found %s", where, i, k)
		}
	}
	var next string
	if c, ok := result["nextCursor"]; ok && kindOfJSON(c) != "null" {
		if err := json.Unmarshal(c, &next); err != nil {
			return nil, "", fmt.Errorf("%s: nextCursor must be a string, found %s", where, kindOfJSON(c))
		}
	}
	return tools, next, nil
}

// complete checks the resultType of a tools/list result of revision
// 2026-07-28: a server may answer "input_required" and wait for more, which
// rubric, having nothing to give, cannot follow.
func complete(raw json.RawMessage, page int) error {
	var r struct {
		ResultType *string `json:"resultType"`
	}
	if json.Unmarshal(raw, &r) != nil || r.ResultType == nil || *r.ResultType == "complete" {
		return nil // readPage words a result that is not an object
	}
	return fmt.Errorf("tools/list page %d: the server answered with resultType %q, not \"complete\": it asks for input before it lists its tools, which rubric cannot give",
		page, termtext.Printable(*r.ResultType))
}

// kindOfJSON names the kind of a JSON value from its first byte.
func kindOfJSON(raw json.RawMessage) string {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// splice joins the tool objects into one tools/list document.
func splice(tools []json.RawMessage) []byte {
	n := len(`{"tools":[]}`) + len(tools)
	for _, t := range tools {
		n += len(t)
	}
	doc := make([]byte, 0, n)
	doc = append(doc, `{"tools":[`...)
	for i, t := range tools {
		if i > 0 {
			doc = append(doc, ',')
		}
		doc = append(doc, t...)
	}
	return append(doc, "]}"...)
}

// serverInfo merges what the transport knows with what initialize said.
func serverInfo(base map[string]any, info *initResult) map[string]any {
	m := make(map[string]any, len(base)+4)
	for k, v := range base {
		m[k] = v
	}
	for _, k := range []string{"name", "version"} {
		if v, ok := info.ServerInfo[k]; ok {
			m[k] = v
		}
	}
	if info.ProtocolVersion != "" {
		m["protocolVersion"] = info.ProtocolVersion
	}
	if info.Era != "" {
		m["era"] = info.Era
	}
	if info.Instructions != "" {
		m["instructions"] = info.Instructions
	}
	return m
}

// call sends one request and returns its result, or an error in the
// user's words. In a modern session the request carries the envelope in
// params._meta and, over HTTP, its method in the Mcp-Method header.
func (s *session) call(ctx context.Context, method string, params map[string]any) (json.RawMessage, error) {
	s.nextID++
	req := mcptransport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(s.nextID),
		Method:  method,
	}
	if s.modern {
		p := make(map[string]any, len(params)+1)
		maps.Copy(p, params)
		p["_meta"] = s.envelope()
		params = p
		req.Header = http.Header{HeaderMethod: {method}}
	}
	if params != nil {
		req.Params = params
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if s.cfg.Lost != nil {
		// Stop waiting as soon as the transport knows the server is gone.
		defer context.AfterFunc(s.cfg.Lost, cancel)()
	}
	resp, err := s.tr.SendRequest(ctx, req)
	if err != nil {
		return nil, s.failed(ctx, method, err)
	}
	if resp.Error != nil {
		return nil, rpcError(method, resp.Error)
	}
	if len(resp.Result) == 0 {
		return nil, fmt.Errorf("server answered %s with neither a result nor an error", method)
	}
	return resp.Result, nil
}

// failed words the failure of a request: the user's interrupt first, then
// what the transport knows, then the deadline, then whatever mcp-go said.
func (s *session) failed(ctx context.Context, method string, err error) error {
	if s.ctx.Err() != nil {
		return fmt.Errorf("stopped waiting for the answer to %s: %w", method, context.Cause(s.ctx))
	}
	if s.cfg.Fault != nil {
		if f := s.cfg.Fault(method, err); f != nil {
			return f
		}
	}
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		limit := s.limits.RequestTimeout
		if method == "initialize" || method == "server/discover" {
			limit = s.limits.StartTimeout
		}
		msg := fmt.Sprintf("no answer to %s within %s", method, seconds(limit))
		if s.cfg.Dropped != nil {
			if d := s.cfg.Dropped(); d != "" {
				msg += "; " + d
			}
		}
		return errors.New(msg)
	}
	var te *mcptransport.Error
	if errors.As(err, &te) {
		err = te.Err
	}
	return fmt.Errorf("%s failed: %v", method, err)
}

// RPCError is a JSON-RPC error a server answered a request with. A
// transport that receives one outside a JSON-RPC response (an HTTP 400
// whose body is the error) returns it from Config.Fault.
type RPCError struct {
	// Method is the request answered.
	Method string
	// Code, Message and Data are the error's members.
	Code    int
	Message string
	Data    any
}

// rpcError words a JSON-RPC error answer.
func rpcError(method string, e *mcp.JSONRPCErrorDetails) error {
	return &RPCError{Method: method, Code: e.Code, Message: e.Message, Data: e.Data}
}

// Error says which request the server refused, how and why, with the
// error's data when it is short.
func (e *RPCError) Error() string {
	return fmt.Sprintf("server answered %s with %s", e.Method, e.brief())
}

// brief is "error CODE: MESSAGE DATA".
func (e *RPCError) brief() string {
	msg := strings.TrimSpace(termtext.Printable(e.Message))
	if msg == "" {
		msg = "(no message)"
	}
	err := fmt.Sprintf("error %d: %s", e.Code, msg)
	if e.Data != nil {
		if d, jerr := json.Marshal(e.Data); jerr == nil && len(d) <= 200 {
			err += " " + termtext.Printable(string(d))
		}
	}
	return err
}

// Supported is the list of protocol versions the error's data names under
// "supported", as an unsupported-version error does; nil when none.
func (e *RPCError) Supported() []string {
	d, ok := e.Data.(map[string]any)
	if !ok {
		return nil
	}
	list, _ := d["supported"].([]any)
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// seconds formats a timeout the way a user typed it: "60s", "1.5s", "250ms".
func seconds(d time.Duration) string {
	if d >= time.Second && d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}
