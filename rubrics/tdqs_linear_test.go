package rubrics_test

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/score/eval"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestTDQSSurfaceSignalsStayUntracked: TDQS's surface signals go through
// every tool, and cel-go's cost tracker makes a formula over n items cost
// n^2 (the shadowing prefilter, a scan of the distinct costs inside a scan
// of the tools, was tracked and took about a second at 5,000 tools). So
// each signal over the tools must have a static worst case within the
// limit of a surface of n tools when nothing it reads is longer than n
// (the costs list) or than a long definition: it then runs untracked.
// Only shadowTarget, which goes through the distinct costs (a few), may
// be tracked.
func TestTDQSSurfaceSignalsStayUntracked(t *testing.T) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	overCosts := map[string]bool{"shadowTarget": true}
	for _, n := range []int{1000, 5000, 20000} {
		for _, m := range r.Surface.Signals {
			if overCosts[m.Name] {
				continue
			}
			p, err := m.Value.WithCostLimit(eval.OverSurface(n, 0))
			if err != nil {
				t.Fatal(err)
			}
			// The longest string of the 5,000-tool bench surface is 12,637
			// bytes; lists are n long.
			if size := uint64(max(n, 16384)); !p.Untracked(size) {
				t.Errorf("%d tools: surface signal %s is tracked on data %d long, so its cost grows with the square of the tools", n, m.Name, size)
			}
		}
	}
}
