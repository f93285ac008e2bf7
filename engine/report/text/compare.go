package text

import (
	"fmt"
	"io"
	"strings"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/columns"
	"github.com/rubricmcp/rubric/internal/words"
)

// WriteComparison writes two reports of one surface side by side (rubric
// rescore): each tool's old and new score and grade and the change, the
// overall when both have one, how many tools changed score, and which
// tools are left unscored.
func WriteComparison(w io.Writer, old, cur *report.Report) error {
	fmt.Fprintf(w, "old: %s %s (%s)\nnew: %s %s (%s)\n\n",
		old.Rubric.Name, old.Rubric.Version, report.ShortHash(old.Rubric.Digest),
		cur.Rubric.Name, cur.Rubric.Version, report.ShortHash(cur.Rubric.Digest))
	oldBy := map[string]report.Tool{}
	for _, t := range old.Tools {
		oldBy[t.Name] = t
	}
	rows := [][]string{{"tool", "old", "grade", "new", "grade", "change"}}
	changed := 0
	for _, t := range cur.Tools {
		o := oldBy[t.Name]
		d := delta(o.Exact, t.Exact, cur.Rubric.Round)
		if d != "0" {
			changed++
		}
		rows = append(rows, []string{t.Name, string(o.Score), o.Grade, string(t.Score), t.Grade, d})
	}
	if old.Exact != nil && cur.Exact != nil {
		rows = append(rows, []string{"overall", string(*old.Score), *old.Grade, string(*cur.Score), *cur.Grade, delta(*old.Exact, *cur.Exact, cur.Rubric.Round)})
	}
	columns.Write(w, "", "lrlrlr", rows)
	if _, err := fmt.Fprintf(w, "\n%d of %s changed score.\n", changed, report.Plural(len(cur.Tools), "tool")); err != nil {
		return err
	}
	if n := len(cur.UnscoredTools); n > 0 {
		names := make([]string, n)
		for i, t := range cur.UnscoredTools {
			names[i] = report.EscapeControls(t.Name, false)
		}
		_, err := fmt.Fprintf(w, "%s left unscored (no answer about %s could be read): %s.\n",
			report.Plural(n, "tool"), words.Pick(n, "it", "them"), strings.Join(names, ", "))
		return err
	}
	return nil
}

// delta is new minus old, rounded like the scores, with a sign.
func delta(oldExact, newExact string, digits int) string {
	o, err1 := num.Parse(oldExact)
	n, err2 := num.Parse(newExact)
	if err1 != nil || err2 != nil {
		return "n/a"
	}
	d := n.Sub(o)
	if d.Sign() == 0 {
		return "0"
	}
	s := d.Decimal(digits)
	if d.Sign() > 0 {
		s = "+" + s
	}
	return s
}
