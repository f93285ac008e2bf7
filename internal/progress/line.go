package progress

import (
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Line draws a progress line (a scan's) on one terminal line, at most
// ten times a second: a text that comes sooner is drawn once the tenth of
// a second has passed, unless a newer one replaced it (else the line
// would show a stale count until the next change, minutes later for a
// slow server). The line fits the terminal's width (a longer one would
// wrap, and only its last row be drawn over), is erased with spaces (a
// dumb terminal knows no erase sequence), and is erased before a log
// line is written, which it then follows. It is also an io.Writer, for
// the log.
type Line struct {
	mu sync.Mutex
	w  io.Writer
	// width is the terminal's width in columns, 0 when unknown.
	width func() int
	// now is the clock of the throttle; nil means time.Now.
	now func() time.Time
	// after calls f once d has passed, in a goroutine of its own, and
	// returns what cancels that; nil means time.AfterFunc.
	after   func(d time.Duration, f func()) (stop func() bool)
	last    time.Time
	shown   string // the line on the terminal, "" when none
	pending string // a text the throttle held back, "" when none
	// stop cancels the timer set for pending, nil when none is set;
	// timers counts the timers set, so that one a draw made stale, which
	// may fire although stopped, draws nothing.
	stop   func() bool
	timers uint64
	ended  bool
}

// throttle is the least time between two draws.
const throttle = 100 * time.Millisecond

// NewLine returns a line drawn on w; width, when set, is the terminal's
// width in columns (0 when unknown).
func NewLine(w io.Writer, width func() int) *Line {
	return &Line{w: w, width: width}
}

// Show draws text, unless the line was drawn less than a tenth of a
// second ago and text is not the last (which is always drawn): then
// text is drawn when the tenth has passed, if no other came since.
func (p *Line) Show(text string, last bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	t := p.clock()
	if wait := throttle - t.Sub(p.last); wait > 0 && !last {
		p.pending = text
		if p.stop == nil {
			after := p.after
			if after == nil {
				after = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
			}
			p.timers++
			timer := p.timers
			p.stop = after(wait, func() { p.flush(timer) })
		}
		return
	}
	p.cancel()
	p.last = t
	p.draw(fit(text, p.width()))
}

// cancel forgets the held text and stops its timer: a draw made it
// stale, and a text held later waits a tenth from that draw.
func (p *Line) cancel() {
	if p.stop != nil {
		p.stop()
		p.stop = nil
	}
	p.timers++
	p.pending = ""
}

// flush draws the text the throttle held back, if no draw came since.
func (p *Line) flush(timer uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if timer != p.timers {
		return // stale: a draw came since this timer was set
	}
	p.stop = nil
	if p.ended || p.pending == "" {
		return
	}
	p.last = p.clock()
	p.draw(fit(p.pending, p.width()))
	p.pending = ""
}

// clock is the throttle's time now.
func (p *Line) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

// draw replaces the line on the terminal by line.
func (p *Line) draw(line string) {
	pad := utf8.RuneCountInString(p.shown) - utf8.RuneCountInString(line)
	if line == "" {
		io.WriteString(p.w, "\r"+strings.Repeat(" ", max(pad, 0))+"\r")
	} else {
		io.WriteString(p.w, "\r"+line+strings.Repeat(" ", max(pad, 0)))
	}
	p.shown = line
}

// Write writes b, a log line, on a line of its own, then the progress
// line again below it.
func (p *Line) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	shown := p.shown
	if shown != "" {
		p.draw("")
	}
	n, err := p.w.Write(b)
	if shown != "" && !p.ended && len(b) > 0 && b[len(b)-1] == '\n' {
		p.draw(shown)
	}
	return n, err
}

// End erases the line for good: what follows is the scan's summary.
func (p *Line) End() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown != "" {
		p.draw("")
	}
	p.cancel()
	p.ended = true
}

// fit is s cut to fit in width columns less one (a line that fills the
// last column wraps on some terminals), with an ellipsis where it was
// cut; s whole when the width is unknown.
func fit(s string, width int) string {
	if width <= 1 || utf8.RuneCountInString(s) < width {
		return s
	}
	r := []rune(s)
	return string(r[:max(width-2, 0)]) + "…"
}
