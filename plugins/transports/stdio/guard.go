package stdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// junkQuote is how much of a stray stdout line a message quotes.
const junkQuote = 80

// How much a server may write on stdout that is not JSON-RPC before it is
// cut off. Published servers print a banner or a log line there now and
// then, and the MCP Inspector and the official SDKs read past it; a server
// that logs to stdout as a habit is refused all the same.
const (
	maxSkippedLines = 100
	maxSkippedBytes = 64 << 10
)

// outGuard stands between the server's stdout and mcp-go's reader, one
// line (one message) at a time, and enforces what mcp-go does not: a
// message holds at most limit bytes, and it is valid JSON. mcp-go silently
// skips anything else, which would leave the user waiting for a timeout
// with no idea why.
//
// A line that is not a message (it does not start with '{', or it is not
// valid JSON, or it is nested deeper than Go's decoder reads) is skipped,
// and counted: past maxSkippedLines lines or maxSkippedBytes bytes the
// server is cut off, and in strict mode at the first. Blank lines are
// dropped. The guard also notes answers to requests that were never sent
// (a wrong id), which mcp-go drops too, so that a timeout can say what did
// arrive.
//
// A broken rule is recorded and returned as the next Read's error, after
// the messages before it. mcp-go's read loop then stops and wakes the
// pending request at once, and the transport reads the recorded error to
// explain why.
type outGuard struct {
	r      io.Reader
	limit  int64
	strict bool
	// The bounds on skipped lines; the constants above, smaller in tests.
	maxLines int
	maxBytes int64

	// Touched only by the one goroutine that reads.
	buf     []byte   // what r.Read fills
	out     []byte   // checked messages not yet returned
	line    []byte   // the current line after its leading white space
	lineLen int64    // bytes of the current line so far
	kind    lineKind // what the current line is, once known
	pending error    // returned by the next Read once out is empty
	ended   bool     // Read has returned pending, and stopped is closed

	mu       sync.Mutex
	broken   error           // the rule broken, if any
	skipped  int             // lines skipped
	skipSize int64           // their bytes
	first    string          // the first skipped line, quoted
	why      string          // why it was skipped, when it looked like a message
	asked    map[string]bool // ids of the requests sent, as mcp-go keys them
	stray    string          // the first answer to an id never sent, quoted

	eofCh   chan struct{} // closed at end of file
	stopped chan struct{} // closed once Read has returned an error

	// noted, when set, is called by the reading goroutine each time a
	// line is skipped or a stray answer recorded: tests wait for it.
	noted func()
	// warn, when set, is called by the reading goroutine with the first
	// line skipped, quoted, before noted.
	warn func(first string)
}

type lineKind int

const (
	blank   lineKind = iota // nothing but white space so far
	message                 // starts with '{'
	junk                    // starts with anything else
)

func newOutGuard(r io.Reader, limit int64, strict bool) *outGuard {
	return &outGuard{
		r: r, limit: limit, strict: strict,
		maxLines: maxSkippedLines, maxBytes: maxSkippedBytes,
		buf:   make([]byte, 32<<10),
		asked: map[string]bool{},
		eofCh: make(chan struct{}), stopped: make(chan struct{}),
	}
}

// errTooLarge marks a line over the limit; the transport adds the method.
var errTooLarge = errors.New("message too large")

// Read implements io.Reader.
func (g *outGuard) Read(p []byte) (int, error) {
	for {
		if len(g.out) > 0 {
			n := copy(p, g.out)
			if g.out = g.out[n:]; len(g.out) == 0 {
				g.out = nil
			}
			return n, nil
		}
		if g.pending != nil {
			return 0, g.stop()
		}
		n, err := g.r.Read(g.buf)
		g.scan(g.buf[:n])
		if err != nil && g.pending == nil {
			if err == io.EOF {
				g.endLine() // a last line without its newline
				close(g.eofCh)
			}
			if g.pending == nil {
				g.pending = err
			}
		}
	}
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

// scan takes the bytes just read, line by line.
func (g *outGuard) scan(b []byte) {
	for len(b) > 0 && g.pending == nil {
		i := bytes.IndexByte(b, '\n')
		seg := b
		if i >= 0 {
			seg = b[:i]
		}
		g.add(seg)
		if i < 0 || g.pending != nil {
			return
		}
		g.endLine()
		b = b[i+1:]
	}
}

// add extends the current line with seg, which holds no newline.
func (g *outGuard) add(seg []byte) {
	if g.kind == blank {
		lead := len(seg) - len(bytes.TrimLeft(seg, " \t\r"))
		g.lineLen += int64(lead)
		seg = seg[lead:]
		switch {
		case len(seg) == 0:
		case seg[0] == '{':
			g.kind = message
		default:
			g.kind = junk
			if g.strict {
				g.fail(junkError(quote(seg), ""))
				return
			}
		}
	}
	g.lineLen += int64(len(seg))
	if g.lineLen > g.limit {
		g.fail(errTooLarge)
		return
	}
	switch g.kind {
	case message:
		g.line = append(g.line, seg...)
	case junk:
		if len(g.line) < 4*junkQuote {
			g.line = append(g.line, seg[:min(len(seg), 4*junkQuote-len(g.line))]...)
		}
		g.mu.Lock()
		g.skipSize += int64(len(seg))
		over := g.skipSize > g.maxBytes
		g.mu.Unlock()
		if over {
			g.fail(g.floodError())
		}
	}
}

// endLine decides what the line just ended is.
func (g *outGuard) endLine() {
	line := g.line
	switch g.kind {
	case message:
		var raw json.RawMessage
		if err := json.Unmarshal(line, &raw); err != nil {
			// mcp-go's decoder would drop it.
			why := "it is not valid JSON: " + err.Error()
			if strings.Contains(err.Error(), "exceeded max depth") {
				why = "it is nested deeper than the 10000 levels a JSON decoder reads"
			}
			if g.strict {
				g.fail(fmt.Errorf("server wrote a line on stdout that is not a JSON-RPC message (%s): %s", why, quote(line)))
				break
			}
			g.skip(line, why)
			break
		}
		g.noteStray(line)
		if len(g.out) == 0 {
			g.out, line = append(line, '\n'), nil // hand the line over, uncopied
		} else {
			g.out = append(append(g.out, line...), '\n')
		}
	case junk:
		g.skip(line, "")
	}
	if cap(line) > 64<<10 {
		line = nil // do not keep a large buffer for small lines
	}
	g.line, g.lineLen, g.kind = line[:0], 0, blank
}

// skip counts a line that is not a message, and cuts the server off past
// the bound.
func (g *outGuard) skip(line []byte, why string) {
	g.mu.Lock()
	g.skipped++
	if g.skipped == 1 {
		g.first, g.why = quote(line), why
	}
	first := g.skipped == 1
	over := g.skipped > g.maxLines
	g.mu.Unlock()
	if first && g.warn != nil && !over {
		g.warn(quote(line))
	}
	g.note()
	if over {
		g.fail(g.floodError())
	}
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

// envelope is what the guard reads of a JSON-RPC message.
type envelope struct {
	ID     *mcp.RequestId `json:"id"`
	Method string         `json:"method"`
}

// noteAsked records the id of a request on its way to the server; msg is
// what mcp-go writes, one message.
func (g *outGuard) noteAsked(msg []byte) {
	var e envelope
	if json.Unmarshal(msg, &e) != nil || e.ID == nil || e.Method == "" {
		return // a notification, or an answer to the server's request
	}
	g.mu.Lock()
	g.asked[e.ID.String()] = true
	g.mu.Unlock()
}

// noteStray records an answer to a request that was never sent.
func (g *outGuard) noteStray(line []byte) {
	var e envelope
	if json.Unmarshal(line, &e) != nil || e.ID == nil || e.Method != "" {
		return
	}
	g.mu.Lock()
	stray := !g.asked[e.ID.String()] && g.stray == ""
	if stray {
		g.stray = quote(line)
	}
	g.mu.Unlock()
	if stray {
		g.note()
	}
}

// note tells a waiting test that the guard recorded something.
func (g *outGuard) note() {
	if g.noted != nil {
		g.noted()
	}
}

// floodError cuts off a server that wrote too much other than JSON-RPC.
func (g *outGuard) floodError() error {
	g.mu.Lock()
	first, n := g.first, g.skipped
	g.mu.Unlock()
	if first == "" {
		first = quote(g.line) // the line that passed the bound is the first
	}
	more := fmt.Sprintf(", more than the %d lines or %s that rubric skips", g.maxLines, transport.Sized(g.maxBytes))
	if n > 1 {
		more = fmt.Sprintf(" and %d more lines%s", n-1, more)
	}
	return junkError(first, more)
}

// skippedNote says what the server wrote on stdout that was skipped, for a
// warning or the end of an error message; "" when nothing was.
func (g *outGuard) skippedNote() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.skipped == 0 {
		return ""
	}
	what := "1 line"
	if g.skipped > 1 {
		what = fmt.Sprintf("%d lines", g.skipped)
	}
	note := fmt.Sprintf("the server wrote %s other than JSON-RPC on stdout, which rubric skipped; the first: %s", what, g.first)
	if g.why != "" {
		note += " (" + g.why + ")"
	}
	return note
}

// dropped says what arrived that was not an answer, for a timeout's
// message: lines skipped, and answers to requests never sent.
func (g *outGuard) dropped() string {
	var notes []string
	if s := g.skippedNote(); s != "" {
		notes = append(notes, s)
	}
	g.mu.Lock()
	stray := g.stray
	g.mu.Unlock()
	if stray != "" {
		notes = append(notes, transport.WrongIDNote+": "+stray)
	}
	return strings.Join(notes, "; ")
}

// junkError quotes the start of a line that is not a JSON-RPC message.
func junkError(quoted, more string) error {
	return fmt.Errorf("server wrote something other than JSON-RPC on stdout: %s%s (an MCP server must write only protocol messages there, and its logs to stderr)",
		quoted, more)
}

// quote is the start of a line, quoted and cut at junkQuote bytes.
func quote(line []byte) string {
	return termtext.QuoteStart(bytes.TrimRight(line, "\r"), junkQuote)
}
