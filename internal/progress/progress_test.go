package progress

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/report"
)

// TestBar draws the bar into a buffer: done/total, cache hits and tokens,
// and a clear line at the end.
func TestBar(t *testing.T) {
	var b strings.Builder
	p := New(&b, 0, nil)
	p.Update(ask.Progress{Done: 1, Total: 10, Stats: ask.Stats{CacheHits: 1}})
	p.Update(ask.Progress{Done: 7, Total: 12, Stats: ask.Stats{CacheHits: 3, Tokens: report.Tokens{Input: 1000, Output: 234}}})
	p.Finish()
	p.Finish()
	out := b.String()
	for _, want := range []string{"asking · 3 cached · 1234 tokens", "7/12"} {
		if !strings.Contains(out, want) {
			t.Errorf("the bar lacks %q:\n%q", want, out)
		}
	}
}

// TestBarNarrow: on a terminal too narrow for the counts beside the bar
// (which would wrap, each redraw leaving a row behind), the bar says
// only "asking"; on a wide one, or one of unknown width, it says all.
func TestBarNarrow(t *testing.T) {
	for _, tc := range []struct {
		width int
		want  string
		not   string
	}{
		{width: 40, want: "\rasking ", not: "cached"},
		{width: 120, want: "asking · 3 cached · 1234 tokens"},
		{width: 0, want: "asking · 3 cached · 1234 tokens"},
	} {
		var b strings.Builder
		p := New(&b, 0, func() int { return tc.width })
		p.Update(ask.Progress{Done: 7, Total: 12, Stats: ask.Stats{CacheHits: 3, Tokens: report.Tokens{Input: 1000, Output: 234}}})
		p.Finish()
		if out := b.String(); !strings.Contains(out, tc.want) || tc.not != "" && strings.Contains(out, tc.not) {
			t.Errorf("width %d: %q, want %q and not %q", tc.width, out, tc.want, tc.not)
		}
	}
}
