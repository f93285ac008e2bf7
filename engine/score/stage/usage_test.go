package stage

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
)

// What an answer cost, as formulas see it: reported tokens first, then
// the count made when it was asked, and the estimate only for an
// observation recorded without either.
func TestUsageOf(t *testing.T) {
	answer := json.RawMessage(`{"n":7}`) // 7 bytes
	for _, c := range []struct {
		name string
		o    report.Observation
		want map[string]any
	}{
		{"reported", report.Observation{Answer: answer, PromptBytes: 400, Tokens: report.Tokens{Input: 90, Output: 5},
			Counted: &report.CountedTokens{Encoding: "o200k_base", Prompt: 80, Answer: 4}},
			map[string]any{"tokens": int64(95), "estimated": false}},
		{"counted", report.Observation{Answer: answer, PromptBytes: 400, Counted: &report.CountedTokens{Encoding: "o200k_base", Prompt: 80, Answer: 4}},
			map[string]any{"tokens": int64(84), "estimated": false, "encoding": "o200k_base"}},
		// (400 + 7 + 2) / 4 = 102: an old report's observation scores as it did.
		{"recorded before counts", report.Observation{Answer: answer, PromptBytes: 400},
			map[string]any{"tokens": int64(102), "estimated": true}},
	} {
		if got := usageOf(c.o); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
