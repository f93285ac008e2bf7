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
			want := []string{r.Digest, "\nGrades: ", "\nGate (rubric gate, base against head; ", "\nShown rounded half away from zero to " + report.Plural(r.Round, "decimal") + ".\n"}
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

// TestWriteDiff: two weights changed are two differences, the points of
// the checks that are those weights named with them, not counted again.
func TestWriteDiff(t *testing.T) {
	a, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	b, err := rubrics.Find("../../../examples/rubrics/schema-quality-contested.hcl")
	if err != nil {
		t.Fatal(err)
	}
	var w strings.Builder
	if err := outline.WriteDiff(&w, a, b); err != nil {
		t.Fatal(err)
	}
	_, got, _ := strings.Cut(w.String(), b.File+"\n")
	want := "2 differences that can move a score:\n" +
		"  ~ weights.declares_required: 10 -> 5 (and so checks.declares_required.points)\n" +
		"  ~ weights.described_params: 20 -> 25 (and so checks.described_params.points)\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
