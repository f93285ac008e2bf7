// Package judgetest holds test helpers for the hosted-API judges: a fake
// provider that serves canned replies and records what it was sent, a
// provider that never answers, the kinds of error the engine tells apart,
// and a Suite that runs the tests every hosted judge passes, given what is
// particular to it.
package judgetest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
)

// Fixture reads testdata/name.
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Reply is what a Provider answers with.
type Reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// Request is what a Provider was sent.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// JSON decodes the request's body, failing the test if it is not JSON.
func (r Request) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("the request body is not JSON: %v", err)
	}
	return m
}

// Provider is a fake API: it answers every request with its current reply
// and records the requests. It is safe for concurrent use.
type Provider struct {
	*httptest.Server
	mu    sync.Mutex
	reply Reply
	reqs  []Request
}

// Serve starts a Provider answering with status and body (as JSON unless
// header says otherwise); the test closes it.
func Serve(t testing.TB, status int, header http.Header, body []byte) *Provider {
	t.Helper()
	p := &Provider{reply: Reply{status, header, body}}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func (p *Provider) serve(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	p.reqs = append(p.reqs, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: b})
	reply := p.reply
	p.mu.Unlock()
	for k, vs := range reply.Header {
		w.Header()[k] = vs
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(reply.Status)
	w.Write(reply.Body)
}

// Answer changes the reply to the next requests.
func (p *Provider) Answer(status int, header http.Header, body []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reply = Reply{status, header, body}
}

// Requests returns the requests received so far.
func (p *Provider) Requests() []Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Request(nil), p.reqs...)
}

// Last returns the last request received, failing the test if none was.
func (p *Provider) Last(t testing.TB) Request {
	t.Helper()
	reqs := p.Requests()
	if len(reqs) == 0 {
		t.Fatal("the provider got no request")
	}
	return reqs[len(reqs)-1]
}

// Hanging starts a server that reads each request, closes started (once)
// and never answers, until the client leaves or the test ends.
func Hanging(t testing.TB, started chan<- struct{}) *httptest.Server {
	t.Helper()
	release := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The server notices a client leaving only once the body is read.
		io.Copy(io.Discard, r.Body)
		once.Do(func() { close(started) })
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	return srv
}

// Dropping starts a server that closes each connection without a reply.
func Dropping(t testing.TB) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Kind is what the engine does with an error.
type Kind int

// The kinds of error the engine tells apart.
const (
	Stop      Kind = iota // a plain error: the run ends
	Wait                  // *judge.RateLimitError: wait, then ask again
	AskAgain              // *judge.UnreadableError: ask again
	Cancelled             // the caller's context ended
)

// String names the kind.
func (k Kind) String() string {
	return [...]string{"a plain error", "a rate limit", "an unreadable reply", "a cancellation"}[k]
}

// KindOf says what the engine would do with err.
func KindOf(err error) Kind {
	var rl *judge.RateLimitError
	var ur *judge.UnreadableError
	switch {
	case errors.As(err, &rl):
		return Wait
	case errors.As(err, &ur):
		return AskAgain
	case errors.Is(err, context.Canceled):
		return Cancelled
	}
	return Stop
}

// RetryAfter is a rate limit's wait, or -1 for any other error.
func RetryAfter(err error) time.Duration {
	var rl *judge.RateLimitError
	if errors.As(err, &rl) {
		return rl.RetryAfter
	}
	return -1
}
