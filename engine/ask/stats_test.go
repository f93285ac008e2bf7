package ask_test

import (
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/report"
)

// TestStatsReportSplitsInput: the calls block splits the input tokens
// into those the provider read from its prompt cache and the rest, and
// leaves both out when no input tokens were counted (an offline judge).
func TestStatsReportSplitsInput(t *testing.T) {
	n := func(v int) *int { return &v }
	cases := []struct {
		name          string
		before, after ask.Stats
		want          report.Calls
	}{
		{"no tokens", ask.Stats{}, ask.Stats{Questions: 2, Calls: 2},
			report.Calls{Questions: 2, Model: 2}},
		{"nothing cached", ask.Stats{}, ask.Stats{Questions: 1, Calls: 1, Tokens: report.Tokens{Input: 1500, Output: 40}},
			report.Calls{Questions: 1, Model: 1, Tokens: 1540, InputTokens: 1500, OutputTokens: 40, CachedInputTokens: n(0), UncachedInputTokens: n(1500)}},
		{"since before", ask.Stats{Calls: 1, Tokens: report.Tokens{Input: 1500, Output: 40}},
			ask.Stats{Calls: 3, Tokens: report.Tokens{Input: 4500, Output: 120, Cached: 2304}},
			report.Calls{Model: 2, Tokens: 3080, InputTokens: 3000, OutputTokens: 80, CachedInputTokens: n(2304), UncachedInputTokens: n(696)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.after.Report(c.before); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
