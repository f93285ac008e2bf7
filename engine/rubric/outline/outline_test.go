package outline_test

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric/outline"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestWrite outlines every built-in rubric: each names its digest, every
// question or check it declares, its grades and its gate rule.
// (cmd/rubric/testdata/script/rubrics.txtar holds one outline whole.)
func TestWrite(t *testing.T) {
	list, err := rubrics.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range list {
		t.Run(b.Name, func(t *testing.T) {
			r, err := rubrics.Find(b.Name)
			if err != nil {
				t.Fatal(err)
			}
			var w strings.Builder
			if err := outline.Write(&w, r); err != nil {
				t.Fatal(err)
			}
			out := w.String()
			want := []string{r.Digest, "\nGrades: ", "\nGate (rubric gate, base against head; ", "\nShown rounded half up to " + report.Plural(r.Round, "decimal") + ".\n"}
			for _, c := range r.Checks {
				want = append(want, "  "+c.Name+" ")
			}
			for _, q := range r.Questions {
				want = append(want, "  "+q.Name+" ")
			}
			for _, s := range want {
				if !strings.Contains(out, s) {
					t.Errorf("the outline lacks %q", s)
				}
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	if got := outline.OneLine("sum(\n  checks.map(c,\n\tc.points))\n"); got != "sum( checks.map(c, c.points))" {
		t.Errorf("got %q", got)
	}
}
