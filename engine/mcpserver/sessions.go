package mcpserver

import (
	"container/list"
	"context"
	"crypto/rand"
	"errors"
	"sync"
)

// sessionIDs are the sessions one HTTP handler has issued and not seen
// ended: mcp-go's default manager checks only that an id is written as
// one of its own (mcp-session- and a UUID), so a request naming a
// session the server never issued, or one a DELETE ended, was served as
// if it were live. MCP's streamable HTTP transport (session management)
// answers such a request 404 Not Found, which tells the client to start
// a new session with initialize; bounded does, before mcp-go reads the
// request. An ended session's id is forgotten: unknown and ended get
// the same answer, and the set does not grow with every session the
// server ever had. Nor with sessions never ended: past max live ones
// (DefaultMaxSessions when 0), the oldest issued is forgotten, and its
// client, answered 404, initializes again; a client that looped on
// initialize grew the set without bound.
type sessionIDs struct {
	mu  sync.Mutex
	max int
	// forget, when set, is called with each id forgotten as the oldest,
	// outside the lock, so that the handler that keeps state for a
	// session lets go of it too: mcp-go keeps every initialized session
	// until a DELETE or an idle sweep, which a forgotten session's client
	// never sends.
	forget func(id string)
	// live maps each live id to its place in order, oldest first.
	live  map[string]*list.Element
	order list.List
	// streams are the listening streams (GETs) open on each live
	// session, by id: a stream belongs to its session, takes no place in
	// order, and ends when the session does (see stream).
	streams map[string]map[*stream]bool
}

// stream is one listening stream of a session; end closes it.
type stream struct{ end context.CancelFunc }

// DefaultMaxSessions is how many HTTP sessions rubric mcp keeps live at
// once: far more than the clients of one machine open, few enough that
// their ids take no memory worth counting.
const DefaultMaxSessions = 4096

// errUnknownSession is what Validate and Terminate say of an id the set
// does not hold.
var errUnknownSession = errors.New("no such session")

// sessionPrefix begins every session id the server issues.
const sessionPrefix = "mcp-session-"

// Generate issues a new session id (for initialize) and remembers it.
func (s *sessionIDs) Generate() string {
	id := sessionPrefix + rand.Text()
	var forgotten []string
	s.mu.Lock()
	if s.live == nil {
		s.live = map[string]*list.Element{}
	}
	limit := s.max
	if limit <= 0 {
		limit = DefaultMaxSessions
	}
	var ends []*stream
	for len(s.live) >= limit {
		oldest := s.order.Remove(s.order.Front()).(string)
		delete(s.live, oldest)
		forgotten = append(forgotten, oldest)
		ends = append(ends, s.dropStreams(oldest)...)
	}
	s.live[id] = s.order.PushBack(id)
	s.mu.Unlock()
	for _, st := range ends {
		st.end()
	}
	if s.forget != nil {
		for _, old := range forgotten {
			s.forget(old)
		}
	}
	return id
}

// stream registers a listening stream opened on the session id, whose
// request's context is ctx. The context it returns ends when the session
// does (forgotten as the oldest, or ended by a DELETE), or at once when
// id is not live: mcp-go ends a stream only when its client goes, so the
// stream of a session the bound forgot stayed open, uncounted, and its
// client heard nothing until its next request; ended, the stream tells
// the client, whose GET again is 404 (initialize again). Call done once
// the stream is served.
func (s *sessionIDs) stream(ctx context.Context, id string) (_ context.Context, done func()) {
	ctx, cancel := context.WithCancel(ctx)
	st := &stream{end: cancel}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.live[id]; !ok {
		cancel()
		return ctx, func() {}
	}
	if s.streams == nil {
		s.streams = map[string]map[*stream]bool{}
	}
	if s.streams[id] == nil {
		s.streams[id] = map[*stream]bool{}
	}
	s.streams[id][st] = true
	return ctx, func() {
		s.mu.Lock()
		if open := s.streams[id]; open != nil {
			delete(open, st)
			if len(open) == 0 {
				delete(s.streams, id)
			}
		}
		s.mu.Unlock()
		cancel()
	}
}

// dropStreams forgets the streams of the session id and returns them, to
// be ended outside the lock. The caller holds s.mu.
func (s *sessionIDs) dropStreams(id string) []*stream {
	var out []*stream
	for st := range s.streams[id] {
		out = append(out, st)
	}
	delete(s.streams, id)
	return out
}

// Validate says whether id names a live session: an error when it does
// not (never issued, ended, or forgotten as the oldest).
func (s *sessionIDs) Validate(id string) (isTerminated bool, err error) {
	if !s.known(id) {
		return false, errUnknownSession
	}
	return false, nil
}

// Terminate ends the session id names (a client's DELETE, or mcp-go
// ending an idle one).
func (s *sessionIDs) Terminate(id string) (isNotAllowed bool, err error) {
	s.mu.Lock()
	if e, ok := s.live[id]; ok {
		s.order.Remove(e)
		delete(s.live, id)
	}
	ends := s.dropStreams(id)
	s.mu.Unlock()
	for _, st := range ends {
		st.end()
	}
	return false, nil
}

// known reports whether id names a live session.
func (s *sessionIDs) known(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.live[id]
	return ok
}
