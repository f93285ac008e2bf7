package stdio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"
)

// junkQuote is how much of a stray stdout line a message quotes.
const junkQuote = 80

// outGuard stands between the server's stdout and mcp-go's reader and
// enforces two rules mcp-go does not: one message (one line) holds at most
// limit bytes, and every line that is not blank starts a JSON object. The
// MCP specification keeps stdout for protocol messages; mcp-go silently
// skips anything else, which would leave a misbehaving server hanging until
// the timeout.
//
// A broken rule is recorded and returned as the next Read's error. mcp-go's
// read loop then stops and wakes the pending request at once, and the
// transport reads the recorded error to explain why.
type outGuard struct {
	r     io.Reader
	limit int64

	// Touched only by the one goroutine that reads.
	lineLen int64 // bytes of the current line so far
	started bool  // the current line has a byte that is not white space
	pending error // returned by the next Read
	ended   bool  // Read has returned pending, and stopped is closed

	mu     sync.Mutex
	broken error // the rule broken, if any

	eofCh   chan struct{} // closed at end of file
	stopped chan struct{} // closed once Read has returned an error
}

func newOutGuard(r io.Reader, limit int64) *outGuard {
	return &outGuard{r: r, limit: limit, eofCh: make(chan struct{}), stopped: make(chan struct{})}
}

// errTooLarge marks a line over the limit; the transport adds the method.
var errTooLarge = errors.New("message too large")

// Read implements io.Reader.
func (g *outGuard) Read(p []byte) (int, error) {
	if g.pending != nil {
		return 0, g.stop()
	}
	n, err := g.r.Read(p)
	if bad := g.scan(p[:n]); bad >= 0 {
		if bad > 0 {
			return bad, nil // the lines before the offending one; the error comes next
		}
		return 0, g.stop()
	}
	if err != nil {
		if err == io.EOF {
			close(g.eofCh)
		}
		g.pending = err
		return n, g.stop()
	}
	return n, nil
}

// stop notes that Read returns its pending error, which ends mcp-go's read
// loop, and returns that error. Every error Read returns passes through it.
func (g *outGuard) stop() error {
	if !g.ended {
		g.ended = true
		close(g.stopped)
	}
	return g.pending
}

// scan checks the bytes just read. When a rule is broken it records why and
// returns how many bytes before the offending line may still be passed on;
// otherwise it returns -1.
func (g *outGuard) scan(b []byte) int {
	for i := 0; i < len(b); {
		if g.started {
			// Inside a message: jump to its end.
			j := bytes.IndexByte(b[i:], '\n')
			seg := j
			if j < 0 {
				seg = len(b) - i
			}
			if g.lineLen+int64(seg) > g.limit {
				g.fail(errTooLarge)
				return i
			}
			if j < 0 {
				g.lineLen += int64(seg)
				return -1
			}
			g.lineLen, g.started = 0, false
			i += j + 1
			continue
		}
		switch c := b[i]; c {
		case '\n':
			g.lineLen = 0
		case ' ', '\t', '\r':
			g.lineLen++
		case '{':
			g.started = true
			g.lineLen++
			if g.lineLen > g.limit {
				g.fail(errTooLarge)
				return i
			}
			i++
			continue
		default:
			g.fail(junkError(b[i:]))
			return i
		}
		if g.lineLen > g.limit {
			g.fail(errTooLarge)
			return i
		}
		i++
	}
	return -1
}

func (g *outGuard) fail(err error) {
	g.pending = err
	g.mu.Lock()
	if g.broken == nil {
		g.broken = err
	}
	g.mu.Unlock()
}

// state reports the rule broken, if any, and whether stdout has ended.
func (g *outGuard) state() (broken error, eof bool) {
	g.mu.Lock()
	broken = g.broken
	g.mu.Unlock()
	select {
	case <-g.eofCh:
		eof = true
	default:
	}
	return broken, eof
}

// junkError quotes the start of a line that is not a JSON-RPC message.
func junkError(line []byte) error {
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimRight(line, "\r")
	more := ""
	if len(line) > junkQuote {
		cut := junkQuote
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line, more = line[:cut], "…"
	}
	return fmt.Errorf("server wrote something other than JSON-RPC on stdout: %q%s (an MCP server must write only protocol messages there, and its logs to stderr)",
		line, more)
}
