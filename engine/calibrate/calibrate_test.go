package calibrate_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
)

// ratedRubric is a neutral rubric: a judge rates each tool, the rating is
// the tool's score, its band a label, its clarity a dimension, and the
// whole set reports its mean rating.
const ratedRubric = `
rubric "rated" {
  version = "1"
  grades  = { A = 4, F = 0 }
  question "rate" {
    kind    = "test.rate"
    per     = "tool"
    input   = "{'name': tool.name}"
    system  = "Rate."
    user    = "{{ .name }}"
    answer_schema = <<-JSON
      {"type": "object", "required": ["n", "clarity"], "properties": {"n": {"type": "integer"}, "clarity": {"type": "integer"}}}
    JSON
  }
  tool {
    score = "answers.rate.n"
    report {
      rating = "answers.rate.n"
      band   = "answers.rate.n >= 3 ? 'good' : 'poor'"
      scores = "{'clarity': answers.rate.clarity}"
    }
  }
  surface {
    metric "mean" { value = "mean(tools.map(t, t.score))" }
    score = "metrics.mean"
    report "set" {
      meanRating = "round(metrics.mean, 1)"
    }
  }
}
`

// hostile is a tool name a registry could publish: a pipe, a backtick and
// a line break, each of which would break a Markdown table.
const hostile = "a|b`c\nd"

// ratedCapture publishes, per tool: rating, band, clarity, a number the
// rubric does not report (extra) and prose (never kept).
var ratedCapture = fmt.Sprintf(`{
  "_about": "made up\n# not a heading | nor a cell",
  "release": "r1",
  "server": {"name": "srv", "meanRating": 3.5},
  "tools": [
    {"name": "alpha", "definition": {"name": "alpha", "description": "A.", "inputSchema": {"type": "object"}},
     "qualityScore": {"justification": "long prose here", "scores": {"clarity": 3}, "band": "good", "rating": 5, "extra": 1}},
    {"name": "beta", "definition": {"name": "beta", "description": "B.", "inputSchema": {"type": "object"}},
     "qualityScore": {"rating": 3, "band": "good", "scores": {"clarity": 4}}},
    {"name": %q, "definition": {"name": %q, "description": "H.", "inputSchema": {"type": "object"}},
     "qualityScore": {"rating": 2, "band": "poor", "scores": {"clarity": 3}}}
  ]
}`, hostile, hostile)

// ratings is what the judge answers, per run (from 1), per tool; clarity
// is always 3.
var ratings = map[int]map[string]int{
	1: {"alpha": 4, "beta": 2, hostile: 3},
	2: {"alpha": 4, "beta": 3, hostile: 3},
	3: {"alpha": 4, "beta": 5, hostile: 1},
}

type table struct{ run int }

func (j *table) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	n, ok := ratings[j.run][q.Subject]
	if !ok {
		return judge.Answer{}, fmt.Errorf("no rating of %q in run %d", q.Subject, j.run)
	}
	return judge.Answer{JSON: fmt.Appendf(nil, `{"n": %d, "clarity": 3}`, n), Model: "m"}, nil
}

func calibrateRated(t *testing.T) *calibrate.Record {
	t.Helper()
	rec, _ := calibrateCapture(t, ratedCapture, calibrate.Options{})
	return rec
}

// calibrateCapture calibrates the rated rubric, with opt, against a
// capture of alpha, beta and the hostile name, three runs as ratings
// says; it returns the capture as well.
func calibrateCapture(t *testing.T, capture string, opt calibrate.Options) (*calibrate.Record, *calibrate.Capture) {
	t.Helper()
	c, reps := scoredRuns(t, capture, 3)
	rec, err := calibrate.New(c, reps, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rec, c
}

// scoredRuns parses capture and scores it runs times with the rated
// rubric and the table judge.
func scoredRuns(t *testing.T, capture string, runs int) (*calibrate.Capture, []*report.Report) {
	t.Helper()
	r, err := rubric.Load("rated.hcl", []byte(ratedRubric))
	if err != nil {
		t.Fatal(err)
	}
	c, err := calibrate.ParseCapture("capture.json", []byte(capture))
	if err != nil {
		t.Fatal(err)
	}
	id := judge.Identity{Plugin: "table", Version: "1", Model: "m"}
	var reps []*report.Report
	for run := 1; run <= runs; run++ {
		asker := &ask.Asker{Judge: &table{run: run}, Identity: id, Rubric: r, Concurrency: 1}
		rep, err := score.Run(context.Background(), r, c.Surface, score.Options{Asker: asker, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		rep.Judge = &report.Judge{Identity: id}
		reps = append(reps, rep)
	}
	return c, reps
}

func exact(t *testing.T, what string, got num.Num, want string) {
	t.Helper()
	if w := num.MustParse(want); got.Cmp(w) != 0 {
		t.Errorf("%s = %s, want %s (by hand)", what, got.Exact(), w.Exact())
	}
}

// TestCalibrate checks every statistic against arithmetic done by hand:
//
//	tool     runs    median  published  difference  range  mean abs dev
//	alpha    4 4 4   4       5          -1          0      0
//	beta     2 3 5   3       3           0          3      10/9
//	hostile  3 3 1   3       2          +1          2      8/9
//
// clarity is 3 everywhere against 3, 4, 3 published; bands (rating >= 3
// is good) most often good, good, good against good, good, poor.
func TestCalibrate(t *testing.T) {
	rec := calibrateRated(t)
	m := rec.Measures
	if m.Tool != "rating" || strings.Join(m.Dimensions, ",") != "scores.clarity" || strings.Join(m.Labels, ",") != "band" ||
		strings.Join(m.Server, ",") != "meanRating" || strings.Join(m.Unmatched, ",") != "extra" {
		t.Fatalf("measures: %+v", m)
	}
	if rec.Capture.Release != "r1" || rec.Capture.About == "" || rec.Capture.ToolCount != 3 {
		t.Errorf("capture: %+v", rec.Capture)
	}
	st := rec.Statistics
	byName := map[string]calibrate.ToolRow{}
	for _, row := range st.Tools {
		byName[row.Name] = row
	}
	for _, w := range []struct{ tool, median, diff, rng, mad string }{
		{"alpha", "4", "-1", "0", "0"},
		{"beta", "3", "0", "3", "10/9"},
		{hostile, "3", "1", "2", "8/9"},
	} {
		row := byName[w.tool]
		exact(t, w.tool+" median", row.Median.Num, w.median)
		exact(t, w.tool+" difference", row.Difference.Num, w.diff)
		exact(t, w.tool+" range", row.Range.Num, w.rng)
		exact(t, w.tool+" mean absolute deviation", row.MeanAbsDeviation.Num, w.mad)
	}
	rating, clarity := st.Measures[0], st.Measures[1]
	exact(t, "rating mean signed", rating.MeanSigned.Num, "0")
	exact(t, "rating mean absolute", rating.MeanAbs.Num, "2/3")
	if rating.Higher != 1 || rating.Lower != 1 || rating.Equal != 1 {
		t.Errorf("rating higher/lower/equal %+v", rating)
	}
	exact(t, "clarity mean signed", clarity.MeanSigned.Num, "-1/3")
	exact(t, "clarity mean absolute", clarity.MeanAbs.Num, "1/3")
	if l := st.Labels[0]; l.Tools != 3 || l.Equal != 2 {
		t.Errorf("bands agree on %d of %d, want 2 of 3", l.Equal, l.Tools)
	}
	// Within 0.3 of the offset 0: beta only.
	if st.Within != 1 || st.Compared != 3 {
		t.Errorf("within %d of %d, want 1 of 3", st.Within, st.Compared)
	}
	// Pearson of (5, 3, 2) and (4, 3, 3): means 10/3, 10/3; sxy = 5/3·2/3
	// + (-1/3)(-1/3) + (-4/3)(-1/3) = 15/9; sxx = 42/9; syy = 6/9.
	if want := (15.0 / 9) / math.Sqrt(42.0/9*6.0/9); st.Pearson == nil || math.Abs(*st.Pearson-want) > 1e-12 {
		t.Errorf("pearson %v, want %v", st.Pearson, want)
	}
	// Largest: alpha and the hostile name, both 1 away, by name.
	if len(st.Largest) != 2 || st.Largest[0].Tool != "alpha" || st.Largest[1].Tool != hostile {
		t.Errorf("largest %+v", st.Largest)
	}
	// Ranges 0, 3, 2: mean 5/3, largest on beta; deviations 0, 10/9, 8/9.
	v := st.Variation
	exact(t, "mean range", v.MeanRange.Num, "5/3")
	exact(t, "mean deviation", v.MeanDeviation.Num, "2/3")
	if v.MaxRange.String() != "3" || strings.Join(v.MaxRangeTools, ",") != "beta" {
		t.Errorf("largest range %s on %v", v.MaxRange, v.MaxRangeTools)
	}
	// Lowest: published 2 (hostile); runs 2 (beta), 3 (both), 1
	// (hostile); median 2.
	if l := st.Lowest; l.Published.String() != "2" || l.Median.String() != "2" || len(l.RunTools[1]) != 2 {
		t.Errorf("lowest %+v", l)
	}
	// The whole set: the mean rating per run 3, 10/3, 10/3, rounded.
	if row := st.Set[0]; row.Name != "meanRating" || row.Published.String() != "3.5" || row.Median.String() != "3.3" {
		t.Errorf("whole set %+v", row)
	}
	var buf bytes.Buffer
	if err := calibrate.Write(&buf, rec); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte("prose")) {
		t.Errorf("the record holds prose")
	}
}

// TestMarkdownEscapes writes a record whose names and about come from a
// hostile registry: every table row keeps its columns and nothing of
// theirs starts a line of its own.
func TestMarkdownEscapes(t *testing.T) {
	rec := calibrateRated(t)
	var buf bytes.Buffer
	if err := calibrate.WriteMarkdown(&buf, rec, ""); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	columns := 0
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "d") || strings.HasPrefix(line, "# not") {
			t.Errorf("registry text starts a line: %q", line)
		}
		if !strings.HasPrefix(line, "|") {
			columns = 0
			continue
		}
		n := strings.Count(line, "|") - strings.Count(line, `\|`)
		if columns == 0 {
			columns = n
		} else if n != columns {
			t.Errorf("%d cells, want %d: %q", n-1, columns-1, line)
		}
	}
	if !strings.Contains(md, "> made up # not a heading \\| nor a cell") {
		t.Errorf("the about is not one quoted line:\n%s", md)
	}
	if !strings.Contains(md, "| ``a\\|b`c d`` |") {
		t.Errorf("the hostile name is not one code span:\n%s", md)
	}
	var text bytes.Buffer
	if err := calibrate.WriteText(&text, rec); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "\nd") {
		t.Errorf("the terminal summary breaks a name's line:\n%s", text.String())
	}
}

// TestOneRunIsOne: a calibration of one run says "1 run" and speaks of
// the run's values, not of "the median of the 1 runs"; three runs keep
// their median.
func TestOneRunIsOne(t *testing.T) {
	rec := calibrateRated(t)
	for _, c := range []struct {
		runs       int
		text, md   string
		notText, x string
	}{
		{1, "· 1 run ·", "Ours comes from the one run,", "1 runs", "median of the 1 runs"},
		{3, "· 3 runs ·", "Ours is the median of the 3 runs,", "3 run ·", "the one run"},
	} {
		rec.Runs = c.runs
		var text, md bytes.Buffer
		if err := calibrate.WriteText(&text, rec); err != nil {
			t.Fatal(err)
		}
		if err := calibrate.WriteMarkdown(&md, rec, ""); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), c.text) || strings.Contains(text.String(), c.notText) {
			t.Errorf("%d runs: the summary does not say %q (or says %q):\n%s", c.runs, c.text, c.notText, text.String())
		}
		if !strings.Contains(md.String(), c.md) || strings.Contains(md.String(), c.x) {
			t.Errorf("%d runs: calibration.md does not say %q (or says %q)", c.runs, c.md, c.x)
		}
	}
}
