package rubrics_test

import (
	"encoding/json"
	"testing"

	"github.com/rubricmcp/rubric/engine/score"
)

// TestMaxima holds what the built-in rubrics declare their report values
// to be out of, as a report carries it (rubric.maxima) for the HTML
// page's bars: TDQS's dimensions 1 to 5, Gradable's categories their
// points; the others declare none.
func TestMaxima(t *testing.T) {
	for _, tc := range []struct{ rubric, want string }{
		{"tdqs", `{"tool":{"scores":"5"}}`},
		{"gradable", `{"surface":{"categories":{"discoverability":"20","economics":"20","legibility":"30","safety":"30"}}}`},
		{"schema-quality", `null`},
		{"toolset", `null`},
		{"tool-safety", `null`},
	} {
		b, err := json.Marshal(score.RubricOf(builtin(t, tc.rubric)).Maxima)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("%s: maxima %s, want %s", tc.rubric, b, tc.want)
		}
	}
}
