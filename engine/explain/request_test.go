package explain

import (
	"strings"
	"testing"
)

// TestNewRequest: --metric and --category are one flag under two names;
// a tool wins over a metric; two different metrics are refused.
func TestNewRequest(t *testing.T) {
	for _, tc := range []struct {
		tool, metric, category string
		want                   Request
		err                    string
	}{
		{want: Request{}},
		{tool: "t", want: Request{Tool: "t"}},
		{metric: "legibility", want: Request{Metric: "legibility"}},
		{category: "legibility", want: Request{Metric: "legibility"}},
		{metric: "safety", category: "safety", want: Request{Metric: "safety"}},
		{metric: "safety", category: "legibility", err: `--metric "safety" and --category "legibility" name two metrics`},
	} {
		got, err := NewRequest(tc.tool, tc.metric, tc.category)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v: error %v, want %q", tc, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%+v: got %+v, %v; want %+v", tc, got, err, tc.want)
		}
	}
}
