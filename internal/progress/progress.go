// Package progress draws the bar a run shows on a terminal while a judge
// answers: done/total, cache hits, tokens and the time left.
package progress

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/rubricmcp/rubric/engine/ask"
)

// Bar is a progress bar of questions answered.
type Bar struct {
	bar  *progressbar.ProgressBar
	done bool
}

// New returns a bar drawn on w, redrawn at most once per throttle.
func New(w io.Writer, throttle time.Duration) *Bar {
	return &Bar{bar: progressbar.NewOptions(-1,
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
	p.bar.Describe(fmt.Sprintf("asking · %d cached · %d tokens", s.Stats.CacheHits, s.Stats.Tokens.Input+s.Stats.Tokens.Output))
	_ = p.bar.Set(s.Done)
}

// Finish clears the bar; calling it again does nothing.
func (p *Bar) Finish() {
	if !p.done {
		p.done = true
		_ = p.bar.Finish()
	}
}
