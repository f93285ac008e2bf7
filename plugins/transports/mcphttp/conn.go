package mcphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/internal/termtext"
	"github.com/rubricmcp/rubric/plugins/transports/mcpclient"
)

// httpStatus is an answer's status, such as 404 and "404 Not Found".
type httpStatus struct {
	code int
	text string
	// stream is set for the answer to a GET: the request that opens an
	// event stream (the HTTP+SSE transport's first), not a message.
	stream bool
}

// deleteTimeout bounds the DELETE that ends a session: it is a courtesy,
// and a server that does not answer it must not hold rubric up.
const deleteTimeout = time.Second

// conn is the HTTP side of one Export: the client handed to mcp-go, and
// what its round tripper saw go wrong.
type conn struct {
	life    context.Context // the Export's context
	target  *url.URL        // the URL the user gave
	display string          // the URL for messages, without a password
	limit   int64
	headers []string // names of the user's headers, sorted
	follow  bool     // follow redirects to other origins, without credentials
	base    *http.Transport
	client  *http.Client

	mu          sync.Mutex
	tooLarge    bool
	netErr      error       // a failure to reach the server
	refused     *httpStatus // the first 401 or 403
	status      *httpStatus // the first other answer that is not 2xx
	ended       bool        // the legacy event stream ended or broke
	streams     int         // event streams opened with a GET
	posts       int         // requests POSTed
	redirect    error       // a redirect refused
	final       *url.URL    // where the last redirect followed led
	crossOrigin bool        // a redirect followed led to another origin
	endpoint    error       // the legacy stream named an endpoint on another origin
	last        string      // the start of the last body or event data, quoted
	page        *httpStatus // the first 2xx answer that was a web page (text/html)
	pageURL     string      // the URL that answered it, for messages
	pageTitle   string      // its <title>, printable and short (pageTitle)
	// answered is the JSON-RPC error the server sent with an HTTP error
	// status in answer to the last POST, if it did: a modern-only server
	// refuses initialize so, and mcp-go reports only the status.
	answered *rpcErrorBody

	lost context.Context // see mcpclient.Config.Lost
	lose context.CancelFunc
}

func newConn(life context.Context, u *url.URL, limit int64, headers map[string]string, follow bool) *conn {
	c := &conn{
		life:    life,
		target:  u,
		display: redact.URL(u.String()),
		limit:   limit,
		follow:  follow,
		base:    http.DefaultTransport.(*http.Transport).Clone(),
	}
	c.lost, c.lose = context.WithCancel(context.Background())
	for k := range headers {
		c.headers = append(c.headers, http.CanonicalHeaderKey(k))
	}
	sort.Strings(c.headers)
	c.client = &http.Client{Transport: c, CheckRedirect: c.checkRedirect}
	return c
}

// maxRedirects bounds a chain of redirects, as browsers and Go's client do.
const maxRedirects = 10

// checkRedirect is the client's CheckRedirect. A redirect within the
// target's origin is followed as it is. One to another origin (scheme, host
// or port) is refused, unless the user allowed it, and then it goes
// without credentials: none of the user's headers, no Authorization, no
// cookie. Either way the URL it leads to is recorded, for the surface.
func (c *conn) checkRedirect(req *http.Request, via []*http.Request) error {
	from := via[len(via)-1].URL
	if len(via) >= maxRedirects {
		return c.refuse(fmt.Errorf("server redirected more than %d times, the last time from %s to %s: check the URL", maxRedirects, redact.URL(from.String()), redact.URL(req.URL.String())))
	}
	cross := !sameOrigin(req.URL, c.target)
	if cross {
		if !c.follow {
			return c.refuse(fmt.Errorf("server at %s redirected to %s, on another origin: rubric does not follow it, since the request's credentials would go with it "+
				"and the report would grade the other server under this URL; give rubric the new URL, or pass --follow-redirects to follow it without credentials",
				redact.URL(from.String()), redact.URL(req.URL.String())))
		}
		for _, h := range c.headers {
			req.Header.Del(h)
		}
		for _, h := range []string{"Authorization", "Proxy-Authorization", "Cookie"} {
			req.Header.Del(h)
		}
	}
	c.mu.Lock()
	c.final = req.URL
	c.crossOrigin = c.crossOrigin || cross
	c.mu.Unlock()
	return nil
}

// refuse records why a redirect was not followed and returns it.
func (c *conn) refuse(err error) error {
	c.mu.Lock()
	if c.redirect == nil {
		c.redirect = err
	}
	c.mu.Unlock()
	c.lose()
	return err
}

// sameOrigin reports whether a and b share scheme, host and port, the
// port a scheme implies counting as given.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// origin is scheme://host[:port] of u, for messages.
func origin(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}

// redirected returns where the last redirect followed led, and whether any
// led to another origin; nil when none was followed.
func (c *conn) redirected() (*url.URL, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.final, c.crossOrigin
}

// close drops the idle connections, and with them their goroutines.
func (c *conn) close() { c.base.CloseIdleConnections() }

// streamLost is told by the legacy SSE transport that its event stream
// ended; no answer can arrive after that.
func (c *conn) streamLost(error) {
	c.mu.Lock()
	c.ended = true
	c.mu.Unlock()
	c.lose()
}

// RoundTrip implements http.RoundTripper: it sends req, notes failures and
// bounds the body of the answer.
func (c *conn) RoundTrip(req *http.Request) (*http.Response, error) {
	var cancel context.CancelFunc
	if req.Method == http.MethodDelete {
		if err := c.life.Err(); err != nil {
			return nil, err // interrupted: no courtesies
		}
		var ctx context.Context
		ctx, cancel = context.WithTimeout(req.Context(), deleteTimeout)
		req = req.WithContext(ctx)
	}
	c.mu.Lock()
	if req.Method == http.MethodPost {
		c.posts++
		c.answered = nil
	}
	c.mu.Unlock()
	resp, err := c.base.RoundTrip(req)
	if err != nil {
		if cancel != nil {
			cancel()
		}
		if req.Context().Err() == nil {
			c.mu.Lock()
			if c.netErr == nil {
				c.netErr = err
			}
			c.mu.Unlock()
		}
		return nil, err
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	// A refusal of credentials keeps its own message, whatever its body.
	if req.Method == http.MethodPost && resp.StatusCode >= 400 && resp.StatusCode <= 499 && mediaType == "application/json" &&
		resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		if e := c.readErrorBody(resp); e != nil {
			c.mu.Lock()
			c.answered = e
			c.mu.Unlock()
		}
	}
	if req.Method != http.MethodDelete && (resp.StatusCode < 200 || resp.StatusCode > 299) && !c.hasAnswer() {
		st := &httpStatus{code: resp.StatusCode, text: resp.Status, stream: req.Method == http.MethodGet}
		c.mu.Lock()
		switch {
		case st.code == http.StatusUnauthorized || st.code == http.StatusForbidden:
			if c.refused == nil {
				c.refused = st
			}
		case c.status == nil:
			c.status = st
		}
		c.mu.Unlock()
	}
	if req.Method != http.MethodDelete && resp.StatusCode >= 200 && resp.StatusCode <= 299 &&
		(mediaType == "text/html" || mediaType == "application/xhtml+xml") {
		c.mu.Lock()
		first := c.page == nil
		if first {
			c.page, c.pageURL = &httpStatus{code: resp.StatusCode, text: resp.Status}, redact.URL(req.URL.String())
		}
		c.mu.Unlock()
		if first {
			title := c.readPageTitle(resp)
			c.mu.Lock()
			c.pageTitle = title
			c.mu.Unlock()
		}
	}
	if req.Method == http.MethodGet && mediaType == "text/event-stream" {
		c.mu.Lock()
		c.streams++
		c.mu.Unlock()
	}
	body := &limitedBody{rc: resp.Body, c: c, events: mediaType == "text/event-stream", cancel: cancel}
	body.stream = req.Method == http.MethodGet && body.events
	resp.Body = body
	return resp, nil
}

// maxErrorBody is how much of an error answer's body is read to find a
// JSON-RPC error in it.
const maxErrorBody = 64 << 10

// rpcErrorBody is the error member of a JSON-RPC error response.
type rpcErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data"`
}

// peekBody reads up to n bytes (within the connection's limit) of the
// start of resp's body and puts them back in front of the rest, so that
// mcp-go, which reads the body after, reads it whole.
func (c *conn) peekBody(resp *http.Response, n int64) ([]byte, error) {
	head, err := io.ReadAll(io.LimitReader(resp.Body, min(c.limit, n)))
	rest := resp.Body
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), rest), rest}
	return head, err
}

// readErrorBody reads the start of an error answer's body and returns the
// JSON-RPC error it holds, if it holds one. The body stays whole for
// mcp-go, which reads it after.
func (c *conn) readErrorBody(resp *http.Response) *rpcErrorBody {
	head, err := c.peekBody(resp, maxErrorBody)
	if err != nil {
		return nil
	}
	var msg struct {
		JSONRPC string        `json:"jsonrpc"`
		Error   *rpcErrorBody `json:"error"`
	}
	if json.Unmarshal(head, &msg) != nil || msg.JSONRPC != "2.0" || msg.Error == nil {
		return nil
	}
	return msg.Error
}

// hasAnswer reports whether the last POST was answered with a JSON-RPC
// error.
func (c *conn) hasAnswer() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.answered != nil
}

// fault explains a failed request from what the round tripper saw; see
// mcpclient.Config.Fault.
func (c *conn) fault(method string, err error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.redirect != nil:
		return c.redirect
	case c.endpoint != nil:
		return c.endpoint
	case c.tooLarge:
		return &mcpclient.TooLargeError{Method: method, Limit: c.limit}
	case c.netErr != nil:
		return c.netError(method)
	case c.answered != nil:
		return &mcpclient.RPCError{Method: method, Code: c.answered.Code, Message: c.answered.Message, Data: c.answered.Data}
	case c.refused != nil:
		return c.refusedError()
	case c.status != nil:
		return &statusError{method: method, status: *c.status}
	case c.page != nil:
		// A sign-in page, a product's site or a wrong path: the most
		// common wrong URL, which mcp-go reports as a content type.
		page := "a web page"
		if c.pageTitle != "" {
			page += fmt.Sprintf(" titled %q", c.pageTitle)
		}
		return fmt.Errorf("%s answered %s with %s (HTTP %s, text/html), not as an MCP endpoint: check that the URL is the server's MCP endpoint (often ending in /mcp, or /sse for --transport sse), and that it needs no sign-in (--header)", c.pageURL, method, page, c.page.text)
	case c.last != "" && unreadable(err) && !cutOff(err):
		return fmt.Errorf("server answered %s with something that is not a JSON-RPC message: %s%s", method, c.last, decodeReason(err))
	case c.ended:
		return fmt.Errorf("server closed the event stream before answering %s", method)
	case c.streams > 0 && c.posts == 0:
		// Only the legacy SSE transport waits on a stream before it posts.
		return fmt.Errorf("server opened an event stream but never named the endpoint to send requests to: if it speaks the streamable HTTP transport, use http rather than sse")
	}
	return nil
}

func (c *conn) refusedError() error {
	if len(c.headers) == 0 {
		return fmt.Errorf("server wants credentials (HTTP %s) and none were sent: pass them with --header, for example --header 'Authorization=Bearer <token>'", c.refused.text)
	}
	return fmt.Errorf("server refused the credentials (HTTP %s) sent in the header(s) %s: check their values with --header (rubric does not print them)", c.refused.text, strings.Join(c.headers, ", "))
}

// netError words a failure on the wire, naming the URL once: "cannot
// reach http://127.0.0.1:1/mcp: connection refused".
func (c *conn) netError(method string) error {
	err := c.netErr
	var dns *net.DNSError
	var op *net.OpError
	var ue *url.Error
	reason := err.Error()
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		reason = "connection refused: is the server running, and listening at that address and port?"
	case errors.As(err, &dns) && dns.IsNotFound:
		reason = "no such host " + dns.Name
	case errors.As(err, &dns):
		reason = dns.Err + " looking up " + dns.Name
	case errors.As(err, &op):
		reason = op.Err.Error()
		if op.Op != "dial" {
			return fmt.Errorf("lost the connection to %s while waiting for %s: %s", c.display, method, reason)
		}
	case errors.As(err, &ue):
		reason = ue.Err.Error()
	}
	return fmt.Errorf("cannot reach %s: %s", c.display, reason)
}

// unreadable reports whether mcp-go failed a request because it could not
// read the answer: malformed JSON, JSON nested too deep, an event that is
// not a message. mcp-go says so only in words.
func unreadable(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "failed to decode response") || strings.Contains(msg, "unexpected nil response")
}

// cutOff reports whether an answer could not be decoded because its
// request's time ran out while the body was still arriving: a slow
// answer, which the session words as a wait that passed (naming the
// flag that sets it), not as an answer that is not JSON.
func cutOff(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), context.DeadlineExceeded.Error())
}

// decodeReason is why mcp-go could not decode an answer, in parentheses,
// or "" when it did not say.
func decodeReason(err error) string {
	_, why, ok := strings.Cut(err.Error(), "failed to decode response: ")
	switch {
	case !ok:
		return ""
	case strings.Contains(why, "exceeded max depth"):
		return " (it is nested deeper than the 10000 levels a JSON decoder reads)"
	}
	return " (it is not valid JSON: " + why + ")"
}

// statusError is a request answered with an HTTP status that is no
// answer: Streamable reads a 404 or 405 to initialize as a server of the
// older HTTP+SSE transport (see Streamable.Export).
type statusError struct {
	method string
	status httpStatus
}

func (e *statusError) Error() string {
	if e.status.stream {
		return fmt.Sprintf("server answered the GET that opens its event stream with HTTP %s: %s", e.status.text, statusHint(e.status.code))
	}
	return fmt.Sprintf("server answered %s with HTTP %s: %s", e.method, e.status.text, statusHint(e.status.code))
}

// legacyHint reports whether the error is an initialize POST answered
// 404 Not Found or 405 Method Not Allowed: what a server of only the
// HTTP+SSE transport answers there, and the case the MCP specification's
// backwards compatibility has a client try that transport on.
func legacyHint(err error) (httpStatus, bool) {
	var se *statusError
	if !errors.As(err, &se) || se.method != "initialize" {
		return httpStatus{}, false
	}
	c := se.status.code
	return se.status, c == http.StatusNotFound || c == http.StatusMethodNotAllowed
}

func statusHint(code int) string {
	switch code {
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return "check the URL, and whether the server speaks the streamable HTTP transport (http) or the older HTTP+SSE one (sse)"
	case http.StatusTooManyRequests:
		return "the server is rate limiting; try again later"
	}
	if code >= 500 {
		return "the server failed; its logs may say why"
	}
	return "check the URL and headers"
}

// limitedBody fails a response body once one message exceeds the limit:
// the whole body for JSON, each event for an event stream.
type limitedBody struct {
	rc     io.ReadCloser
	c      *conn
	events bool
	cancel context.CancelFunc // ends a DELETE's deadline, if any

	n       int64 // bytes of the current message
	content bool  // the current line of an event stream has content
	err     error

	// An event stream's lines are followed, to quote the data of the last
	// event should it not be a message; a legacy event stream (opened with
	// a GET) for its endpoint event too, which must name a URL on the
	// target's origin.
	stream bool
	line   []byte // the current line, its first maxEventLine bytes
	event  string // the current event's name
	head   []byte // the start of a body that is not an event stream
}

// quoteLen is how much of what a server sent a message may quote.
const quoteLen = 80

// received notes the start of the last body or event data received, to
// quote should it not be a JSON-RPC message.
func (c *conn) received(start []byte) {
	c.mu.Lock()
	c.last = quoteStart(start)
	c.mu.Unlock()
}

// quoteStart is the start of what a server sent, quoted and cut at
// quoteLen bytes.
func quoteStart(b []byte) string { return termtext.QuoteStart(b, quoteLen) }

// maxEventLine is how much of a stream's line is kept to find the
// endpoint.
const maxEventLine = 8 << 10

// Read implements io.Reader.
func (b *limitedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.rc.Read(p)
	if b.events {
		if b.watch(p[:n]) {
			b.err = b.c.endpoint
			b.c.lose()
			return 0, b.err
		}
	} else if len(b.head) < quoteLen {
		b.head = append(b.head, p[:min(n, quoteLen+1-len(b.head))]...)
		b.c.received(b.head)
	}
	if b.count(p[:n]) {
		b.err = &mcpclient.TooLargeError{Limit: b.c.limit}
		b.c.mu.Lock()
		b.c.tooLarge = true
		b.c.mu.Unlock()
		b.c.lose()
		return 0, b.err
	}
	return n, err
}

// count adds data to the current message and reports whether it is now
// over the limit.
func (b *limitedBody) count(data []byte) bool {
	if !b.events {
		b.n += int64(len(data))
		return b.n > b.c.limit
	}
	for len(data) > 0 {
		line, rest, eol := bytes.Cut(data, []byte{'\n'})
		b.n += int64(len(line))
		if len(bytes.Trim(line, "\r")) > 0 {
			b.content = true
		}
		if b.n > b.c.limit {
			return true
		}
		if !eol {
			break
		}
		if !b.content {
			b.n = 0 // a blank line ends an event
		}
		b.content = false
		data = rest
	}
	return false
}

// watch follows the lines of a legacy event stream and reports whether its
// endpoint event names another origin (then recorded in the conn). mcp-go
// refuses such an endpoint too, but only in its log, and waits on until the
// start timeout.
func (b *limitedBody) watch(data []byte) bool {
	for len(data) > 0 {
		line, rest, eol := bytes.Cut(data, []byte{'\n'})
		if room := maxEventLine - len(b.line); room > 0 {
			b.line = append(b.line, line[:min(len(line), room)]...)
		}
		if !eol {
			return false
		}
		if b.endLine() {
			return true
		}
		data = rest
	}
	return false
}

// endLine reads one line of the stream; see watch.
func (b *limitedBody) endLine() bool {
	line := strings.TrimRight(string(b.line), "\r")
	b.line = b.line[:0]
	name, value, _ := strings.Cut(line, ":")
	value = strings.TrimPrefix(value, " ")
	switch {
	case line == "":
		b.event = ""
	case name == "event":
		b.event = value
	case name == "data" && (b.event != "endpoint" || !b.stream):
		b.c.received([]byte(value))
	case name == "data":
		u, err := b.c.target.Parse(value)
		if err != nil || sameOrigin(u, b.c.target) {
			return false
		}
		b.c.mu.Lock()
		b.c.endpoint = fmt.Errorf("server at %s named an endpoint on another origin, %s, to send requests to: rubric refuses it "+
			"(the request's credentials would go there); give rubric the URL of an event stream on the endpoint's own origin",
			origin(b.c.target), origin(u))
		b.c.mu.Unlock()
		return true
	}
	return false
}

// Close implements io.Closer.
func (b *limitedBody) Close() error {
	err := b.rc.Close()
	if b.cancel != nil {
		b.cancel()
	}
	return err
}
