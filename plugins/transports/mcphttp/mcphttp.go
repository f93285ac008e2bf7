// Package mcphttp holds the transports that list an MCP server's tools over
// HTTP: Streamable for the Streamable HTTP transport (protocol 2025-03-26
// and later, 2026-07-28 included, where a modern-only server refuses
// initialize with HTTP 400 and a JSON-RPC error in the body) and SSE for
// the older HTTP+SSE one.
//
// Both hand mcp-go an *http.Client of their own. Its round tripper bounds
// every response body by --max-bytes (per event on an event stream, since
// one stream carries many messages), and notes what went wrong on the wire
// (a refused connection, a 401) so that errors name the cause rather than
// mcp-go's wrapping of it. Header values are secrets: errors name headers,
// never their values.
package mcphttp

import (
	"context"
	"fmt"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/internal/redact"
	"log/slog"
	"net/url"
	"strings"
	"time"

	mcptransport "github.com/mark3labs/mcp-go/client/transport"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/transports/mcpclient"
)

var (
	_ transport.Transport = Streamable{}
	_ transport.Transport = SSE{}
)

// quiet stops mcp-go logging errors that reach the user another way.
var quiet = slog.New(slog.DiscardHandler)

// Streamable lists tools over the Streamable HTTP transport: each request
// is a POST to the target URL, answered with JSON or an event stream.
type Streamable struct {
	// ClientVersion is rubric's version, sent in initialize.
	ClientVersion string
}

// Name implements transport.Transport.
func (Streamable) Name() string { return "http" }

// Describe implements transport.Transport: an endpoint, http or https.
func (Streamable) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "http", Version: buildinfo.Version(), Schemes: []string{"http", "https"}, Locality: transport.Endpoint}, nil
}

// Export implements transport.Transport. target.Location is the server's
// URL and target.Headers are sent with every request. A server that
// answers the initialize POST with 404 or 405 is read again over the
// older HTTP+SSE transport at the same URL, as the MCP specification's
// backwards compatibility has a client do (and VS Code does for a
// "type": "http" server): when that reads it, the surface says so in a
// warning naming the URL; when it does not, the error says that both
// transports were tried (see fallbackFailed).
func (t Streamable) Export(ctx context.Context, target transport.Target) (*surface.Surface, error) {
	s, err := t.export(ctx, target)
	status, legacy := legacyHint(err)
	if !legacy || ctx.Err() != nil {
		return s, err
	}
	at := redact.URL(target.Location)
	//lint:ignore S1016 the two transports' options are alike today, not bound to stay so
	old, lerr := SSE{ClientVersion: t.ClientVersion}.Export(ctx, target)
	if lerr != nil {
		if ctx.Err() != nil {
			return nil, lerr
		}
		return nil, fallbackFailed(at, status, err, lerr)
	}
	old.Warnings = append(old.Warnings, fmt.Sprintf("the server at %s answered the streamable HTTP transport's initialize with HTTP %s, so it was read over the older HTTP+SSE transport at the same URL, as the MCP specification's backwards compatibility has a client do (--transport sse reads it so from the start)", at, status.text))
	return old, nil
}

// fallbackError is a URL that neither the streamable HTTP transport nor
// the older HTTP+SSE one, tried after it, could read. It is both errors
// for errors.Is and errors.As, and says what the two together mean.
type fallbackError struct {
	msg           string
	first, second error
}

func (e *fallbackError) Error() string   { return e.msg }
func (e *fallbackError) Unwrap() []error { return []error{e.second, e.first} }

// fallbackFailed words the failure of the fall back to HTTP+SSE at the
// URL at, after the streamable initialize was answered with status
// (first is that error, second the HTTP+SSE one). When HTTP+SSE was
// refused the same way, no MCP server answers at the URL: the advice
// is to check it, not to try sse, which was just tried. When HTTP+SSE
// got further (credentials wanted, a web page, a broken stream), its
// error is the one that says what to do.
func fallbackFailed(at string, status httpStatus, first, second error) error {
	if st, ok := legacyHint(second); ok {
		return &fallbackError{first: first, second: second, msg: fmt.Sprintf(
			"no MCP server answers at %s: the streamable HTTP transport's initialize got HTTP %s, and the older HTTP+SSE transport's, tried next at the same URL, HTTP %s: %s",
			at, status.text, st.text, checkURL(at))}
	}
	return &fallbackError{first: first, second: second, msg: fmt.Sprintf(
		"the server at %s answered the streamable HTTP transport's initialize with HTTP %s, and the older HTTP+SSE transport, tried next at the same URL, failed: %v",
		at, status.text, second)}
}

// checkURL is the advice for a URL where nothing answers MCP: the usual
// endpoint paths, unless the URL ends in one already, when another
// server (or another path of this one) is the likelier slip.
func checkURL(at string) string {
	path := at
	if u, err := url.Parse(at); err == nil {
		path = u.Path
	}
	path = strings.TrimSuffix(path, "/")
	if strings.HasSuffix(path, "/mcp") || strings.HasSuffix(path, "/sse") {
		return "check the URL: something answers HTTP at this host and port, but not MCP at this path; is it the MCP server's port, and does the server's documentation or start-up log give another path?"
	}
	return "check the URL (an MCP endpoint often ends in /mcp, or /sse for an HTTP+SSE server)"
}

// export is Export without the fall back to HTTP+SSE.
func (t Streamable) export(ctx context.Context, target transport.Target) (*surface.Surface, error) {
	return export(ctx, target, t.ClientVersion, "", func(c *conn) (mcptransport.Interface, error) {
		return mcptransport.NewStreamableHTTP(target.Location,
			mcptransport.WithHTTPHeaders(target.Headers),
			mcptransport.WithHTTPBasicClient(c.client),
			mcptransport.WithHTTPLogger(quiet),
		)
	})
}

// SSE lists tools over the HTTP+SSE transport of protocol 2024-11-05: an
// event stream opened with a GET carries the answers to requests POSTed
// to the endpoint the stream names.
type SSE struct {
	// ClientVersion is rubric's version, sent in initialize.
	ClientVersion string
}

// Name implements transport.Transport.
func (SSE) Name() string { return "sse" }

// Describe implements transport.Transport: an endpoint, http or https.
func (SSE) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "sse", Version: buildinfo.Version(), Schemes: []string{"http", "https"}, Locality: transport.Endpoint}, nil
}

// Export implements transport.Transport. target.Location is the URL of the
// event stream and target.Headers are sent with every request.
func (t SSE) Export(ctx context.Context, target transport.Target) (*surface.Surface, error) {
	return export(ctx, target, t.ClientVersion, "http", func(c *conn) (mcptransport.Interface, error) {
		limits := target.Limits.WithDefaults()
		tr, err := mcptransport.NewSSE(target.Location,
			mcptransport.WithHeaders(target.Headers),
			mcptransport.WithHTTPClient(c.client),
			mcptransport.WithSSELogger(quiet),
			// mcp-go's own timers must not fire before the deadlines
			// mcpclient sets, which say which limit to raise.
			mcptransport.WithEndpointTimeout(limits.StartTimeout+time.Minute),
			mcptransport.WithResponseTimeout(max(limits.StartTimeout, limits.RequestTimeout)+time.Minute),
		)
		if err != nil {
			return nil, err
		}
		tr.SetConnectionLostHandler(c.streamLost)
		return tr, nil
	})
}

// export checks the URL, builds the transport over a conn and lists it.
// legacyOnly is mcpclient.Config.LegacyOnly.
func export(ctx context.Context, target transport.Target, version, legacyOnly string, build func(*conn) (mcptransport.Interface, error)) (*surface.Surface, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	u, err := url.Parse(target.Location)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http:// or https:// URL: give the server's full URL", target.Location)
	}
	limits := target.Limits.WithDefaults()
	c := newConn(ctx, u, limits.MaxBytes, target.Headers, target.FollowRedirects)
	// A password in the URL stays out of messages and reports.
	defer c.close()
	tr, err := build(c)
	if err != nil {
		return nil, fmt.Errorf("cannot use %s: %w", c.display, err)
	}
	s, err := mcpclient.List(ctx, tr, mcpclient.Config{
		ClientVersion: version,
		Limits:        limits,
		Source:        c.display,
		Server:        map[string]any{"url": c.display},
		Fault:         c.fault,
		Lost:          c.lost,
		LegacyOnly:    legacyOnly,
	})
	if err != nil {
		return nil, err
	}
	if final, cross := c.redirected(); final != nil {
		// The tools are those of the server redirected to: say so.
		s.Server["redirected_to"] = redact.URL(final.String())
		if cross {
			s.Warnings = append(s.Warnings, fmt.Sprintf("the server at %s redirected to %s, on another origin; the tools are that server's, and it was sent no credentials", c.display, redact.URL(final.String())))
		}
	}
	return s, nil
}
