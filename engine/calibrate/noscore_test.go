package calibrate

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
)

// TestNoToolScore holds what a calibration says when the capture's
// scores have no counterpart in the rubric: both sides' names and the
// flag to change, where it once said only that nothing matched.
func TestNoToolScore(t *testing.T) {
	three := Val{Num: num.Int(3)}
	pub := func(names ...string) *Capture {
		var vals []Named
		for _, n := range names {
			vals = append(vals, Named{Name: n, Value: three})
		}
		return &Capture{Tools: []PublishedTool{{Name: "a", Values: vals}}}
	}
	for _, c := range []struct {
		name    string
		capture *Capture
		ours    scored
		want    string
	}{
		{"a rubric with no report block", pub("tdqs", "scores.clarity"), scored{tools: map[string]map[string]Val{}},
			"the capture publishes tdqs, and the rubric's tool report blocks write no number; calibrate with the rubric the registry's scores follow, whose tool report writes a field of that name (--rubric NAME or PATH)"},
		{"another name for the score", pub("quality"),
			scored{tools: map[string]map[string]Val{"a": {"words": three, "tier": {Text: "A", IsText: true}, "x.y": three}}, toolOrder: []string{"tier", "words", "x.y"}},
			"the capture publishes quality, and the rubric's tool report blocks write the numbers words;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := match(c.capture, c.ours, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("match: %v\nwant it to say %q", err, c.want)
			}
		})
	}
}
