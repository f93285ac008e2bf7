package progress

import (
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Line draws a progress line (a scan's) on one terminal line, at most
// ten times a second. The line fits the terminal's width (a longer one would
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
	now   func() time.Time
	last  time.Time
	shown string // the line on the terminal, "" when none
	ended bool
}

// NewLine returns a line drawn on w; width, when set, is the terminal's
// width in columns (0 when unknown).
func NewLine(w io.Writer, width func() int) *Line {
	return &Line{w: w, width: width}
}

// Show draws text, unless the line was drawn less than a tenth of a
// second ago and text is not the last (which is always drawn).
func (p *Line) Show(text string, last bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	now := time.Now
	if p.now != nil {
		now = p.now
	}
	if t := now(); t.Sub(p.last) >= 100*time.Millisecond || last {
		p.last = t
		p.draw(fit(text, p.width()))
	}
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

// end erases the line for good: what follows is the scan's summary.
func (p *Line) End() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown != "" {
		p.draw("")
	}
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
