package mcpserver

import (
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
// server ever had.
type sessionIDs struct {
	mu   sync.Mutex
	live map[string]struct{}
}

// errUnknownSession is what Validate and Terminate say of an id the set
// does not hold.
var errUnknownSession = errors.New("no such session")

// sessionPrefix begins every session id the server issues.
const sessionPrefix = "mcp-session-"

// Generate issues a new session id (for initialize) and remembers it.
func (s *sessionIDs) Generate() string {
	id := sessionPrefix + rand.Text()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live == nil {
		s.live = map[string]struct{}{}
	}
	s.live[id] = struct{}{}
	return id
}

// Validate says whether id names a live session: an error when it does
// not (never issued, or ended).
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
	delete(s.live, id)
	return false, nil
}

// known reports whether id names a live session.
func (s *sessionIDs) known(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.live[id]
	return ok
}
