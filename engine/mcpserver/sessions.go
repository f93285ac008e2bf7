package mcpserver

import (
	"container/list"
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
}

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
	for len(s.live) >= limit {
		oldest := s.order.Remove(s.order.Front()).(string)
		delete(s.live, oldest)
		forgotten = append(forgotten, oldest)
	}
	s.live[id] = s.order.PushBack(id)
	s.mu.Unlock()
	if s.forget != nil {
		for _, old := range forgotten {
			s.forget(old)
		}
	}
	return id
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
	defer s.mu.Unlock()
	if e, ok := s.live[id]; ok {
		s.order.Remove(e)
		delete(s.live, id)
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
