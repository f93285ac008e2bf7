package httpjudge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
)

// DefaultTimeout bounds one request, reply included, unless a judge's
// timeout option says otherwise.
const DefaultTimeout = 2 * time.Minute

// MaxBody bounds the reply a judge reads: far above any answer a rubric
// asks for, far below what would hurt the plugin process.
const MaxBody = 16 << 20

// NewHTTPClient returns an HTTP client for a judge: the default transport
// (proxies from the environment, HTTP/2) keeping enough idle connections
// for the engine's concurrent questions. It has no overall timeout: each
// request carries its own through its context. It follows no redirect:
// net/http would carry a key in a header such as x-api-key on to another
// host, and an API that redirects a POST is better named directly (the
// reply's Location goes into the error).
func NewHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 16
	return &http.Client{
		Transport:     t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Client posts a judge's requests to one endpoint. It is safe for
// concurrent use once built.
type Client struct {
	// Judge names the judge in the settings messages advise
	// (--judge NAME:timeout=5m): NAME when empty.
	Judge string
	// HTTP sends the requests.
	HTTP *http.Client
	// Host names the server in messages ("api.openai.com").
	Host string
	// Timeout bounds each request, reply included; DefaultTimeout when 0.
	Timeout time.Duration
	// Secrets are removed from every message the client words.
	Secrets []string
	// Now is the clock an HTTP-date Retry-After is read against;
	// time.Now when nil. Tests set it so that a wait is exact.
	Now func() time.Time
}

// now reads the client's clock.
func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Reply is an HTTP reply, read whole.
type Reply struct {
	Status int         // the HTTP status code
	Header http.Header // the reply's headers
	Body   []byte      // the body, cut at MaxBody for an error reply
}

// OK says whether the status is a success.
func (r *Reply) OK() bool { return r.Status >= 200 && r.Status < 300 }

// Post sends body as JSON to url with the given headers and reads the
// reply. It returns an error only when no whole reply arrived: the
// caller's context ended (its error, wrapped), the connection dropped (a
// *judge.RateLimitError), a successful reply was longer than MaxBody (a
// *judge.UnreadableError), or the server could not be reached or did not
// answer in time (a plain error saying what to check). A reply with any
// status is returned as it is; an error reply longer than MaxBody is cut
// short, since only its message is read.
func (c *Client) Post(ctx context.Context, url string, header http.Header, body any) (*Reply, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encoding the request to %s: %w", c.Host, err)
	}
	return c.Send(ctx, http.MethodPost, url, header, "application/json", b, MaxBody)
}

// Get reads url with the given headers, as Post does; a successful reply
// may be up to limit bytes long (a batch's results file is far longer
// than one answer).
func (c *Client) Get(ctx context.Context, url string, header http.Header, limit int64) (*Reply, error) {
	return c.Send(ctx, http.MethodGet, url, header, "", nil, limit)
}

// Send is Post and Get: it sends body (none when contentType is "") with
// method to url and reads the reply, a successful one up to limit bytes.
func (c *Client) Send(ctx context.Context, method, url string, header http.Header, contentType string, body []byte, limit int64) (*Reply, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var rd io.Reader
	if contentType != "" {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(rctx, method, url, rd)
	if err != nil {
		return nil, fmt.Errorf("building the request to %s: %w", c.Host, err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, timeout, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, c.transportError(ctx, timeout, err)
	}
	r := &Reply{Status: resp.StatusCode, Header: resp.Header, Body: data}
	if int64(len(data)) > limit {
		if r.OK() {
			return nil, &judge.UnreadableError{Msg: fmt.Sprintf("the reply from %s is larger than %s, the most a judge reads", c.Host, transport.Sized(limit))}
		}
		r.Body = data[:limit]
	}
	return r, nil
}

// transportError words an error that left no reply to read.
func (c *Client) transportError(ctx context.Context, timeout time.Duration, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("asking %s: %w", c.Host, ctx.Err())
	}
	var dns *net.DNSError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s sent no reply within %s; if the model is slow, give it longer with %s", c.Host, timeout, c.setting("timeout", "5m"))
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("cannot connect to %s (connection refused): is the server running, and is the base URL right? Check %s", c.Host, BaseURLSetting)
	case errors.As(err, &dns):
		return fmt.Errorf("cannot find %s (%s): check the base URL, %s", c.Host, c.Redact(dns.Err), BaseURLSetting)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &judge.RateLimitError{Msg: fmt.Sprintf("the connection to %s was dropped before a whole reply arrived", c.Host)}
	}
	return fmt.Errorf("asking %s: %s", c.Host, c.Redact(err.Error()))
}
