package assemble

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/score/eval"
)

// TestSizeWith: a map bounded with one member's bound given is bounded
// as eval.ValueSize bounds it whole, whichever of its length, a key, the
// given member or another member is the largest: Surface bounds every
// tool's entry so, its answers bounded once as the tool was finished.
func TestSizeWith(t *testing.T) {
	answers := map[string]any{"tool": map[string]any{"summary": strings.Repeat("s", 40), "scores": []any{int64(3), "x"}}}
	long := strings.Repeat("k", 60)
	cases := map[string]map[string]any{
		"the given member": {"name": "t", "score": num.Int(3), "answers": answers},
		"another member":   {"name": strings.Repeat("n", 90), "answers": answers},
		"a key":            {long: "v", "answers": answers},
		"a nested member":  {"weights": map[string]any{"a": strings.Repeat("w", 70)}, "answers": answers},
		"the length":       {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "answers": map[string]any{}},
		"no such member":   {"name": "t", "grade": "B"},
	}
	for name, m := range cases {
		want := eval.ValueSize(m)
		if got := sizeWith(m, "answers", eval.ValueSize(m["answers"])); got != want {
			t.Errorf("%s: sizeWith gives %d, eval.ValueSize %d", name, got, want)
		}
	}
}
