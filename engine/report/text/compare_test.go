package text

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report/reporttest"
)

func TestDelta(t *testing.T) {
	tests := []struct {
		old, cur string
		digits   int
		want     string
	}{
		{"70", "70", 1, "0"},
		{"70", "85/2", 1, "-27.5"},
		{"3", "7/2", 1, "+0.5"},
		{"1/3", "2/3", 2, "+0.33"},
		{"1/3", "1/3", 0, "0"},
		{"", "3", 1, "n/a"},
		{"3", "x", 1, "n/a"},
	}
	for _, tt := range tests {
		if got := delta(tt.old, tt.cur, tt.digits); got != tt.want {
			t.Errorf("delta(%s, %s, %d) = %q, want %q", tt.old, tt.cur, tt.digits, got, tt.want)
		}
	}
}

// TestComparisonOfOneTool says "of 1 tool", not "of 1 tools".
func TestComparisonOfOneTool(t *testing.T) {
	rep := reporttest.Score(t, "one.tools.json", []byte(`[{"name": "only", "description": "The one tool.", "inputSchema": {"type": "object"}}]`))
	var b strings.Builder
	if err := WriteComparison(&b, rep, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "0 of 1 tool changed score.") {
		t.Errorf("the comparison of one tool reads:\n%s", b.String())
	}
}

// TestComparisonNamesTheUnscored: a rescore of a report that left a tool
// unscored counts the others and then names it, where it ended at "0 of
// 4 tools changed score" as if the server had four.
func TestComparisonNamesTheUnscored(t *testing.T) {
	rep := reporttest.Partial(t)
	var b strings.Builder
	if err := WriteComparison(&b, rep, rep); err != nil {
		t.Fatal(err)
	}
	want := "0 of 4 tools changed score.\n1 tool left unscored (no answer about it could be read): " + reporttest.PartialUnscored + ".\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("the comparison ends:\n%s\nwant it to end:\n%s", b.String(), want)
	}
}
