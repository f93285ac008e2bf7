package score

import (
	"context"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestFormulasBoundedByWhatTheyRead: a formula is bounded by the
// variables it reads, and by the members it reads of a tool's signals,
// answers and metrics, not by the longest value of the tool's scope. A
// sum of a tool's scores was bounded by the tool's length, and a list
// of a few names by a long description signal beside it: on a
// definition of some kilobytes they left the untracked path, where
// cel-go's tracker made them several times slower (at 5,000 TDQS tools,
// the weighted score and the fix list were a tenth of the run's CPU).
// What is counted, not timed: evaluations on the tracked path of a
// formula over the data (lang.TrackedOverData). The heavy rows check the
// other way: a formula that does read a long value still meets the
// cost limit.
func TestFormulasBoundedByWhatTheyRead(t *testing.T) {
	heavytest.Later(t)
	words := strings.TrimSpace(strings.Repeat("ab ", 5_000))
	for _, tt := range []struct {
		name    string
		metric  string
		tracked bool   // whether it stays on the tracked path
		err     string // the run's error, if it must fail
	}{
		// Each of these reads only short values: the names, and the
		// score each is given.
		{"a member of the signals", "size(signals.names.map(x, signals.names.map(y, x + y)))", false, ""},
		{"members of the metrics", "size(metrics.scores.map(x, metrics.scores.map(y, string(x) + string(y))))", false, ""},
		// The long signal read whole, or every signal (the whole group),
		// keeps the tool's bound.
		{"the long member", "size(signals.words.map(x, signals.names.map(y, x + y)))", true, ""},
		{"the group whole", "size(signals.names.map(x, signals.names.map(y, x + y))) + size(signals)", true, ""},
		{"the tool", "size(signals.names.map(x, signals.names.map(y, x + y + tool.name)))", true, ""},
		// Quadratic in a long member: stopped at the limit.
		{"every pair of the words", "size(signals.words.map(x, signals.words.map(y, x + y)))", true, "cost limit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := toolRubric(t, `    signals {
      description = "tool.description"
      words       = "tool.description.split(' ')"
      names       = "['a', 'b', 'c']"
    }
    metric "scores" { value = "[1, 2, 3]" }
    metric "pairs" { value = "`+tt.metric+`" }
    score = "1"`)
			before := lang.TrackedOverData()
			_, err := Run(context.Background(), r, surfacetest.OneTool(t, "read", words), Options{})
			tracked := lang.TrackedOverData() - before
			switch {
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one saying %q", err, tt.err)
			case tt.err == "" && err != nil:
				t.Fatal(err)
			}
			if (tracked > 0) != tt.tracked {
				t.Errorf("%d evaluations tracked over the data, want tracked: %v", tracked, tt.tracked)
			}
		})
	}
}
