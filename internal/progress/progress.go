// Package progress draws what a run shows on a terminal while it works:
// the bar of a judge's answers (done/total, cache hits, tokens and the
// time left), and the line of a scan's servers (Line).
package progress

import (
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"

	"github.com/rubricmcp/rubric/engine/ask"
)

// Bar is a progress bar of questions answered.
type Bar struct {
	bar   *progressbar.ProgressBar
	width func() int
	done  bool
}

// New returns a bar drawn on w, redrawn at most once per throttle. width,
// when set, is the terminal's width in columns (0 when unknown): on a
// terminal too narrow for the cache hits and tokens beside the bar, the
// bar says only "asking", since a line wider than the terminal wraps and
// each redraw would leave a row behind.
func New(w io.Writer, throttle time.Duration, width func() int) *Bar {
	return &Bar{width: width, bar: progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("asking"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionThrottle(throttle),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(24),
	)}
}

// Update draws s.
func (p *Bar) Update(s ask.Progress) {
	if p.bar.GetMax() != s.Total {
		p.bar.ChangeMax(s.Total)
	}
	desc := fmt.Sprintf("asking · %d cached · %d tokens", s.Stats.CacheHits, s.Stats.Tokens.Input+s.Stats.Tokens.Output)
	if p.width != nil {
		// The rest of the line (percent, a bar of ten at least, the
		// counts and times) takes some 40 columns.
		if w := p.width(); w > 0 && utf8.RuneCountInString(desc)+40 > w {
			desc = "asking"
		}
	}
	p.bar.Describe(desc)
	_ = p.bar.Set(s.Done)
}

// Finish clears the bar; calling it again does nothing.
func (p *Bar) Finish() {
	if !p.done {
		p.done = true
		_ = p.bar.Finish()
	}
}
