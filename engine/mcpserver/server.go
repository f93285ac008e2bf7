// Package mcpserver is rubric's MCP front-end: it serves the scan session
// of engine/run as MCP tools (score, lint_tool, explain, rescore,
// rubrics), keeps the reports it makes for the server's lifetime as
// resources, and offers a prompt that walks an agent through linting,
// fixing and re-scoring its own tool definitions.
//
// Nothing here names a rubric or starts a plugin by itself: the command
// line passes the run options (with the plugin host), the rubrics it
// knows and the ones lint_tool applies.
package mcpserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/transport"
)

// Defaults of Options.
const (
	// DefaultMaxReports is how many reports a server keeps; the oldest
	// is dropped first.
	DefaultMaxReports = 64
	// DefaultMaxCalls is how many tool calls do work at once; more wait
	// for a slot (or for their cancellation).
	DefaultMaxCalls = 4
)

// Rubrics finds rubrics for the server.
type Rubrics struct {
	// Find compiles the rubric ref names: a built-in name, the path of a
	// .hcl file, or builtin:FILE as reports record a built-in. Its reads
	// end with ctx, the call's, so that a call cancelled while a file
	// blocks (a FIFO no one writes) frees its slot.
	Find func(ctx context.Context, ref string) (*rubric.Rubric, error)
	// Source returns the HCL text of the rubric ref names.
	Source func(ref string) ([]byte, error)
	// Builtins are the built-in rubrics' names.
	Builtins []string
}

// Options configure a server.
type Options struct {
	// Run is the template of every call's scan session: the plugins, the
	// answer cache, the workers and the version. A call's judge and
	// progress are set on a copy; one session serves one call.
	Run run.Options
	// Rubrics finds the rubrics that calls name.
	Rubrics Rubrics
	// DefaultRubric is what score uses when the call names none.
	DefaultRubric string
	// Lint are the rubrics lint_tool applies, in order; a reference that
	// does not load is skipped and said so in the result.
	Lint []string
	// Target is the template of every target read: its limits, and the
	// environment, working directory and headers given to rubric mcp.
	// Inline tools JSON is held to its MaxBytes too.
	Target transport.Target
	// MaxReports bounds the reports kept (DefaultMaxReports when 0).
	// lint_tool keeps one per Lint rubric at once, and is refused when
	// they are more.
	MaxReports int
	// MaxCalls bounds the calls working at once (DefaultMaxCalls when 0).
	MaxCalls int
}

// Server is rubric as an MCP server.
type Server struct {
	opt     Options
	mcp     *server.MCPServer
	reports *store
	slots   chan struct{}

	poolMu sync.Mutex
	idle   []*pooled // sessions between calls, at most MaxCalls
	closed bool

	// maxSessions bounds the HTTP sessions live at once
	// (DefaultMaxSessions when 0); tests set it lower.
	maxSessions int
}

// New returns a server with its tools, resources and prompt.
func New(o Options) *Server {
	if o.MaxReports <= 0 {
		o.MaxReports = DefaultMaxReports
	}
	if o.MaxCalls <= 0 {
		o.MaxCalls = DefaultMaxCalls
	}
	o.Target.Limits = o.Target.Limits.WithDefaults()
	s := &Server{
		opt:   o,
		slots: make(chan struct{}, o.MaxCalls),
	}
	s.reports = newStore(o.MaxReports, s)
	s.mcp = server.NewMCPServer("rubric", o.Run.Version,
		server.WithToolCapabilities(false),
		// The kept reports come and go: each is listed while it is kept,
		// and a client hears when the list changes.
		server.WithResourceCapabilities(false, true),
		server.WithPromptCapabilities(false),
		server.WithRecovery(),
		server.WithInstructions(instructions),
		server.WithHooks(listHooks()),
	)
	s.addTools()
	s.addResources()
	s.addPrompt()
	return s
}

// listHooks orders resources/list by URI with numbers read as numbers:
// rubric://reports/r2 before r10, where mcp-go's order (by name, as
// text) put "report r10" before "report r2". The reports come first,
// oldest first, then the rubrics. rubric sets no page size, so the whole
// list is one page and ordering it leaves mcp-go's cursors alone.
func listHooks() *server.Hooks {
	h := &server.Hooks{}
	h.AddAfterListResources(func(_ context.Context, _ any, _ *mcp.ListResourcesRequest, res *mcp.ListResourcesResult) {
		if res != nil {
			slices.SortStableFunc(res.Resources, func(a, b mcp.Resource) int { return naturalCompare(a.URI, b.URI) })
		}
	})
	return h
}

// naturalCompare compares a and b as text, except that a run of digits
// in both at the same place compares by its value: "r2" < "r10".
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digits is the length of the run of ASCII digits s begins with.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

const instructions = `rubric grades MCP tool definitions (names, descriptions, input schemas) against rubrics. ` +
	`Start with lint_tool on one definition while you write it; score a whole server with score; ` +
	`explain shows the arithmetic of any score; rescore compares a report under another rubric. ` +
	`Every report a call makes is a resource while it is kept, as rubric://reports/ID with the report_id the call returned; ` +
	`each built-in rubric's HCL is rubric://rubrics/NAME (the rubrics tool names them). resources/list lists every URI there is: any other is not found. ` +
	`The default judge is the offline heuristic: no key, no network.`

// MCP is the underlying mcp-go server, for in-process clients.
func (s *Server) MCP() *server.MCPServer { return s.mcp }

// ServeStdio serves one client on in and out until in ends or ctx is
// done.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	return server.NewStdioServer(s.mcp).Listen(ctx, in, out)
}

// HTTPPath is the one path at which HTTPHandler serves MCP.
const HTTPPath = "/mcp"

// HTTPHandler serves MCP's streamable HTTP transport at HTTPPath, and
// answers any other path 404 with the URL to use: mcp-go's handler
// would serve MCP at every path, so that a client configured with a
// wrong URL seemed to work until the URL was corrected or the server
// changed.
func (s *Server) HTTPHandler() http.Handler {
	mux := http.NewServeMux()
	// A request is read whole before it is answered: one larger than any
	// target may be is cut off as it arrives (413), not held in memory
	// and refused afterwards.
	ids := &sessionIDs{max: s.maxSessions}
	streamable := server.NewStreamableHTTPServer(s.mcp, server.WithEndpointPath(HTTPPath), server.WithSessionIdManager(ids))
	ids.forget = func(id string) { endSession(streamable, id) }
	mux.Handle(HTTPPath, s.bounded(ids, streamable))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, fmt.Sprintf("404 page not found: rubric mcp serves MCP at %s only; point the client at http://%s%s", HTTPPath, r.Host, HTTPPath), http.StatusNotFound)
	})
	return mux
}

// endSession has h drop what it keeps for the session id, as a client's
// DELETE would: mcp-go offers no other way to end one of its streamable
// HTTP sessions.
func endSession(h http.Handler, id string) {
	r, err := http.NewRequest(http.MethodDelete, HTTPPath, nil)
	if err != nil {
		panic(err) // a constant method and path
	}
	r.Header.Set(server.HeaderKeySessionID, id)
	r.Header.Set("MCP-Protocol-Version", mcp.LATEST_LEGACY_PROTOCOL_VERSION)
	h.ServeHTTP(discard{}, r)
}

// discard is a response writer that keeps nothing.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}

// bounded reads a request's body, up to maxRequest bytes, once, before h
// serves it, and answers two requests itself. One larger than the bound:
// mcp-go's answer was a parse error, "read request body error: http:
// request body too large", which says neither what the bound is nor how
// to get past it; the request is never parsed, so the answer is a
// JSON-RPC error of no id (a tool error needs the call's id), with
// status 413. And one that lacks its session (missingSession): 400; or
// names one ids does not hold, never issued or ended: 404, which tells
// the client to initialize again.
func (s *Server) bounded(ids *sessionIDs, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if r.Body != nil && r.Method == http.MethodPost {
			var err error
			body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxRequest()))
			var tooBig *http.MaxBytesError
			switch {
			case errors.As(err, &tooBig):
				w.Header().Set("Connection", "close")
				writeRPCError(w, http.StatusRequestEntityTooLarge, nil, fmt.Sprintf("the request is more than the %s rubric mcp reads (--max-bytes, %s, for an inline target, and 1 MiB for the rest): score the server itself (target command or url), or start rubric mcp with a larger --max-bytes",
					transport.Sized(s.maxRequest()), transport.Sized(s.opt.Target.Limits.MaxBytes)))
				return
			case err != nil:
				http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		id, session, applies := sessionOf(r, body)
		switch {
		case !applies:
		case session == "":
			writeRPCError(w, http.StatusBadRequest, id, "this request has no "+server.HeaderKeySessionID+" header: send initialize first, then every other request with the "+server.HeaderKeySessionID+" header its response carries")
			return
		case !ids.known(session):
			writeRPCError(w, http.StatusNotFound, id, "this request's "+server.HeaderKeySessionID+" names no session of this server (never issued, ended by a DELETE or a restart of rubric mcp, or forgotten as the oldest when more than "+strconv.Itoa(DefaultMaxSessions)+" were open): send initialize again for a new session")
			return
		case r.Method == http.MethodGet:
			// The session's listening stream: it takes no place
			// among the sessions, and ends with its session.
			ctx, done := ids.stream(r.Context(), session)
			defer done()
			r = r.WithContext(ctx)
		}
		h.ServeHTTP(w, r)
		// A session forgotten as the oldest while its own initialize was
		// served was ended (ids.forget) before mcp-go registered it,
		// which it does once the answer is written: end it now, or it
		// stays registered with nothing left to end it.
		if issued := w.Header().Get(server.HeaderKeySessionID); issued != "" && !ids.known(issued) {
			endSession(h, issued)
		}
	})
}

// sessionOf reads the session of r, a POST (its body read), a GET or
// a DELETE: applies is true for a request that must name a live session
// in its Mcp-Session-Id header (session, empty when it has none), which
// is any request but initialize of a client of a revision with sessions
// (before 2026-07-28, whose requests carry none); id is its JSON-RPC
// id. MCP's streamable HTTP transport (session management) gives 400 to
// a request that lacks the header and 404 to one whose session is
// unknown or ended, which mcp-go gave both, or served. A body that is
// not a JSON-RPC message, and the responses a client posts, are left to
// mcp-go, as is every other request.
func sessionOf(r *http.Request, body []byte) (id any, session string, applies bool) {
	session = r.Header.Get(server.HeaderKeySessionID)
	if mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) {
		return nil, "", false
	}
	switch r.Method {
	case http.MethodDelete, http.MethodGet:
		// A GET opens the stream of a session's messages: mcp-go made a
		// session up for one that named none, or an unknown one, and
		// streamed nothing.
		return nil, session, true
	case http.MethodPost:
		var msg struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
			Params struct {
				Meta *mcp.Meta `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &msg) != nil || msg.Method == "" || msg.Method == string(mcp.MethodInitialize) || mcp.IsModernProtocol(msg.Params.Meta.ProtocolVersion()) {
			return nil, "", false
		}
		return msg.ID, session, true
	}
	return nil, "", false
}

// writeRPCError answers with status and a JSON-RPC invalid-request error
// of id carrying message.
func writeRPCError(w http.ResponseWriter, status int, id any, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(rpcError{JSONRPC: "2.0", ID: id, Error: rpcErrorBody{Code: mcp.INVALID_REQUEST, Message: message}})
	w.Write(b)
}

// rpcError is a JSON-RPC error response, its members in the usual order.
type rpcError struct {
	JSONRPC string       `json:"jsonrpc"`
	ID      any          `json:"id"`
	Error   rpcErrorBody `json:"error"`
}

// rpcErrorBody is a JSON-RPC error's code and message.
type rpcErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// requestSlack is what a request may hold beside the largest target:
// the JSON-RPC envelope and the other arguments.
const requestSlack = 1 << 20

// maxRequest bounds the body of one HTTP request: an inline target of
// --max-bytes, and its envelope.
func (s *Server) maxRequest() int64 { return s.opt.Target.Limits.MaxBytes + requestSlack }

// acquire takes one of the call slots for c, waiting for one until ctx
// ends. A call that must wait says so in a progress notification: it
// would otherwise be silent for as long as the calls before it work, and
// a client that waits only while it hears progress would give up.
func (s *Server) acquire(ctx context.Context, c *call) (func(), error) {
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	default:
	}
	c.step(ctx, fmt.Sprintf("waiting: rubric mcp is at its limit of calls at once (--max-calls %d), and this one starts when one of them ends", cap(s.slots)))
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("cancelled while waiting for one of the %d call slots: %w", cap(s.slots), ctx.Err())
	}
}

// otherPort is an address to suggest instead of addr, which could not
// be listened on: the next port on the same host, or 127.0.0.1:8765.
func otherPort(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if n, perr := strconv.Atoi(port); err == nil && perr == nil && n > 0 && n < 65535 {
		return net.JoinHostPort(cmp.Or(host, "127.0.0.1"), strconv.Itoa(n+1))
	}
	return "127.0.0.1:8765"
}

// ServeHTTP serves streamable HTTP at addr (path HTTPPath) until ctx is
// done; ready is told the address listened on (addr may end in :0).
func (s *Server) ServeHTTP(ctx context.Context, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (give a free host:port, such as %s, or port 0 for any free one)", addr, err, otherPort(addr))
	}
	ready(ln.Addr())
	hs := &http.Server{Handler: s.HTTPHandler(), ReadHeaderTimeout: 10 * time.Second}
	stop := context.AfterFunc(ctx, func() { hs.Close() })
	defer stop()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
