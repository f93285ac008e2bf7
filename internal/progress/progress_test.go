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
	p := New(&b, 0)
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
