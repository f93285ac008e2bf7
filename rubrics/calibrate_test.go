package rubrics_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/judges/replay"
	"github.com/rubricmcp/rubric/rubrics"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/calibrate")

// The calibration of TDQS end to end, from a registry capture through
// the replay judge to the record and its Markdown (the engine's own tests
// use a neutral rubric). The example: examples/servers/tidy's tools with made-up published
// scores, answered by hand in examples/captures/tidy.answers.jsonl.
const (
	examplePath = "../examples/captures/tidy.registry.json"
	answersPath = "../examples/captures/tidy.answers.jsonl"
)

// replayJudge configures the replay judge on the example's answers.
func replayJudge(t *testing.T) (*replay.Judge, judge.Identity) {
	t.Helper()
	j := replay.New()
	id, err := j.Configure(context.Background(), judge.Config{Options: map[string]string{replay.OptionAnswers: answersPath}})
	if err != nil {
		t.Fatal(err)
	}
	return j, id
}

// drift answers like the replay judge, except for the scores its table
// changes in some runs: a judge whose answers vary from run to run.
type drift struct {
	base *replay.Judge
	run  int
	// changes maps run, then tool, then dimension to the score given.
	changes map[int]map[string]map[string]int
}

func (d *drift) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	a, err := d.base.Ask(ctx, q)
	if err != nil {
		return a, err
	}
	change := d.changes[d.run][q.Subject]
	if len(change) == 0 {
		return a, nil
	}
	var v map[string]any
	if err := json.Unmarshal(a.JSON, &v); err != nil {
		return a, err
	}
	scores := v["scores"].(map[string]any)
	for dim, s := range change {
		scores[dim].(map[string]any)["score"] = s
	}
	a.JSON, err = json.Marshal(v)
	return a, err
}

// calibrateExample scores the example capture n times, asking the judge
// that judgeFor returns for each run (from 1), and builds the record.
func calibrateExample(t *testing.T, n int, judgeFor func(run int) ask.Judge, id judge.Identity) *calibrate.Record {
	t.Helper()
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	c, err := calibrate.ReadCapture(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	var reps []*report.Report
	for k := 1; k <= n; k++ {
		asker := &ask.Asker{Judge: judgeFor(k), Identity: id, Rubric: r, Concurrency: 1}
		rep, err := score.Run(context.Background(), r, c.Surface, score.Options{Asker: asker, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		rep.Judge = &report.Judge{Identity: id}
		reps = append(reps, rep)
	}
	rec, err := calibrate.New(c, reps, calibrate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// want is a statistic computed by hand, as an exact fraction.
func wantExact(t *testing.T, what string, got num.Num, exact string) {
	t.Helper()
	if w := num.MustParse(exact); got.Cmp(w) != 0 {
		t.Errorf("%s = %s, want %s (by hand)", what, got.Exact(), w.Exact())
	}
}

func calibVals(vs []calibrate.Val) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return strings.Join(parts, " ")
}

func calibPtrs(vs []*calibrate.Val) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return strings.Join(parts, " ")
}

// pearson is the textbook formula, written out for the test.
func pearsonOf(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx += xs[i] / float64(len(xs))
		my += ys[i] / float64(len(ys))
	}
	var sxy, sxx, syy float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
		syy += (ys[i] - my) * (ys[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// The published TDQS of the example, in the capture's (name) order:
// create, delete, export, get, search, tag, update.
var publishedTDQS = []float64{4.3, 4.9, 3.5, 4.4, 4.6, 3.1, 3.9}

// TestCalibrateExampleCapture calibrates the example with the replay judge, three
// identical runs, and checks every figure against arithmetic done by
// hand from the answers file:
//
//	tool      ours: PC UG BT PS CS CC  weighted  TDQS   published        TDQS
//	create         4  4  3  4  4  4    380      3.8    5 4 4 4 4 4      4.3
//	delete         5  4  5  4  5  4    455      4.6    5 5 5 4 5 5      4.9
//	export         4  3  3  3  4  3    335      3.4    4 3 3 4 4 3      3.5
//	get            5  4  4  3  5  4    420      4.2    5 4 4 4 5 4      4.4
//	search         5  4  4  4  4  4    425      4.3    5 5 4 4 4 5      4.6
//	tag            4  3  3  3  4  3    335      3.4    3 3 3 3 4 3      3.1
//	update         4  3  4  3  4  3    355      3.6    4 4 4 3 4 4      3.9
//
// (weights 25 20 20 15 10 10; TDQS is weighted/100 rounded half up.)
func TestCalibrateExampleCapture(t *testing.T) {
	j, id := replayJudge(t)
	rec := calibrateExample(t, 3, func(int) ask.Judge { return j }, id)
	st := rec.Statistics

	if rec.Measures.Tool != "tdqs" || len(rec.Measures.Dimensions) != 6 || strings.Join(rec.Measures.Labels, ",") != "tier" {
		t.Fatalf("measures: %+v", rec.Measures)
	}
	// Differences ours - published: -0.5 -0.3 -0.1 -0.2 -0.3 +0.3 -0.3.
	// Sum -1.4, so the mean signed difference is -1.4/7 = -1/5; the
	// absolute ones sum to 2.0, so the mean is 2/7.
	tdqs := st.Measures[0]
	wantExact(t, "tdqs mean signed", tdqs.MeanSigned.Num, "-1/5")
	wantExact(t, "tdqs mean absolute", tdqs.MeanAbs.Num, "2/7")
	if tdqs.Higher != 1 || tdqs.Lower != 6 || tdqs.Equal != 0 || tdqs.Tools != 7 {
		t.Errorf("tdqs higher/lower/equal %d/%d/%d of %d, want 1/6/0 of 7", tdqs.Higher, tdqs.Lower, tdqs.Equal, tdqs.Tools)
	}
	// Per dimension, from the table: (name, mean abs, mean signed,
	// higher, lower, equal), looked up by name.
	measures := map[string]calibrate.MeasureStats{}
	for _, m := range st.Measures {
		measures[m.Name] = m
	}
	for _, w := range []struct {
		name        string
		abs, signed string
		hi, lo, eq  int
	}{
		{"scores.purpose_clarity", "2/7", "0", 1, 1, 5},            // create -1, tag +1
		{"scores.usage_guidelines", "3/7", "-3/7", 0, 3, 4},        // delete, search, update -1
		{"scores.behavioral_transparency", "1/7", "-1/7", 0, 1, 6}, // create -1
		{"scores.parameter_semantics", "2/7", "-2/7", 0, 2, 5},     // export, get -1
		{"scores.conciseness_structure", "0", "0", 0, 0, 7},
		{"scores.contextual_completeness", "3/7", "-3/7", 0, 3, 4}, // delete, search, update -1
	} {
		m, ok := measures[w.name]
		if !ok {
			t.Fatalf("no measure %s among %+v", w.name, st.Measures)
		}
		wantExact(t, w.name+" mean absolute", m.MeanAbs.Num, w.abs)
		wantExact(t, w.name+" mean signed", m.MeanSigned.Num, w.signed)
		if m.Higher != w.hi || m.Lower != w.lo || m.Equal != w.eq {
			t.Errorf("%s higher/lower/equal %d/%d/%d, want %d/%d/%d", w.name, m.Higher, m.Lower, m.Equal, w.hi, w.lo, w.eq)
		}
	}
	// Within 0.3 of -0.2: every tool but tag (+0.3 is 0.5 away); create's
	// -0.5 is exactly 0.3 away and counts.
	if st.Within != 6 || st.Compared != 7 {
		t.Errorf("within tolerance %d of %d, want 6 of 7", st.Within, st.Compared)
	}
	ours := []float64{3.8, 4.6, 3.4, 4.2, 4.3, 3.4, 3.6}
	if r := pearsonOf(publishedTDQS, ours); st.Pearson == nil || math.Abs(*st.Pearson-r) > 1e-12 {
		t.Errorf("pearson %v, want %v", st.Pearson, r)
	}
	// The tier: export is 3.4 (B) against a published A; the rest agree.
	if l := st.Labels[0]; l.Equal != 6 || l.Tools != 7 {
		t.Errorf("tiers agree on %d of %d, want 6 of 7", l.Equal, l.Tools)
	}
	// The largest: create -0.5, then the four 0.3s by name, get, export;
	// the dimensions in the rubric's order (its scores map, by name).
	var got []string
	for _, l := range st.Largest {
		var dims []string
		for _, d := range l.Dimensions {
			dims = append(dims, strings.TrimPrefix(d.Name, "scores.")+d.Value.String())
		}
		got = append(got, fmt.Sprintf("%s %s %s", l.Tool, l.Difference, strings.Join(dims, ",")))
	}
	wantLargest := []string{
		"create_bookmark -0.5 behavioral_transparency-1,purpose_clarity-1",
		"delete_bookmark -0.3 contextual_completeness-1,usage_guidelines-1",
		"search_bookmarks -0.3 contextual_completeness-1,usage_guidelines-1",
		"tag_bookmarks 0.3 purpose_clarity1",
		"update_bookmark -0.3 contextual_completeness-1,usage_guidelines-1",
		"get_bookmark -0.2 parameter_semantics-1",
		"export_bookmarks -0.1 parameter_semantics-1",
	}
	if strings.Join(got, "\n") != strings.Join(wantLargest, "\n") {
		t.Errorf("largest differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantLargest, "\n"))
	}
	// The whole set, from the rubric's formulas: mean TDQS 27.3/7 = 3.9,
	// lowest 3.4, description quality 0.6*3.9 + 0.4*3.4 = 3.70, coherence
	// (5+5+4+4)/4 = 4.5, overall 0.7*3.7 + 0.3*4.5 = 3.94, so 3.9.
	set := map[string]calibrate.SetRow{}
	for _, row := range st.Set {
		set[row.Name] = row
	}
	for name, w := range map[string][3]string{ // published, runs, median
		"overallScore":             {"4", "3.9 3.9 3.9", "3.9"},
		"descriptionQualityScore":  {"3.7", "3.7 3.7 3.7", "3.7"},
		"coherenceScore":           {"4.8", "4.5 4.5 4.5", "4.5"},
		"meanTdqs":                 {"4.1", "3.9 3.9 3.9", "3.9"},
		"minTdqs":                  {"3.1", "3.4 3.4 3.4", "3.4"},
		"overallTier":              {"A", "A A A", "A"},
		"toolCountAppropriateness": {"5", "4 4 4", "4"},
	} {
		row, ok := set[name]
		if !ok {
			t.Errorf("whole set: no row %s", name)
			continue
		}
		if g := [3]string{row.Published.String(), calibPtrs(row.Runs), row.Median.String()}; g != w {
			t.Errorf("whole set %s: %v, want %v", name, g, w)
		}
	}
	if _, ok := set["name"]; ok {
		t.Errorf("the server's name matched a report member")
	}
	if l := st.Lowest; l.Published.String() != "3.1" || strings.Join(l.PublishedTools, ",") != "tag_bookmarks" ||
		calibVals(l.Runs) != "3.4 3.4 3.4" || strings.Join(l.RunTools[0], ",") != "export_bookmarks,tag_bookmarks" || l.Median.String() != "3.4" {
		t.Errorf("lowest: %+v", l)
	}
	// Three identical runs do not vary.
	if v := st.Variation; v.MaxRange.Num.Sign() != 0 || v.MeanRange.Sign() != 0 {
		t.Errorf("variation %+v, want none", v)
	}

	// No justification text of the registry's, nor any prose, is kept.
	var buf bytes.Buffer
	if err := calibrate.Write(&buf, rec); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte("justification")) || bytes.Contains(buf.Bytes(), []byte("Heuristic")) {
		t.Errorf("the record holds prose")
	}
	calibGolden(t, "tidy.md", func(w *bytes.Buffer) error { return calibrate.WriteMarkdown(w, rec, "calibration.png") })
}

// TestCalibrateDriftingJudge gives the runs different answers, so that medians
// and run-to-run variation are not trivial:
//
//	run 2: search purpose_clarity 4 (425-25 = 400: 4.0), tag
//	       behavioral_transparency 4 (335+20 = 355: 3.6), get
//	       parameter_semantics 4 (420+15 = 435: 4.4), coherence
//	       completeness 5 ((5+5+4+5)/4 = 4.75: 4.8)
//	run 3: search usage_guidelines 5 (425+20 = 445: 4.5), get
//	       parameter_semantics 4 (4.4)
//
// search runs 4.3 4.0 4.5 (median 4.3, range 0.5), get 4.2 4.4 4.4
// (median 4.4, range 0.2), tag 3.4 3.6 3.4 (median 3.4, range 0.2).
func TestCalibrateDriftingJudge(t *testing.T) {
	base, id := replayJudge(t)
	d := &drift{base: base, changes: map[int]map[string]map[string]int{
		2: {
			"search_bookmarks": {"purpose_clarity": 4},
			"tag_bookmarks":    {"behavioral_transparency": 4},
			"get_bookmark":     {"parameter_semantics": 4},
			"surface":          {"completeness": 5},
		},
		3: {
			"search_bookmarks": {"usage_guidelines": 5},
			"get_bookmark":     {"parameter_semantics": 4},
		},
	}}
	rec := calibrateExample(t, 3, func(run int) ask.Judge { d.run = run; return d }, id)
	st := rec.Statistics
	rows := map[string]calibrate.ToolRow{}
	for _, r := range st.Tools {
		rows[r.Name] = r
	}
	for _, w := range []struct {
		tool, runs, median, diff, rng, mad string
	}{
		// mean 64/15; deviations 1/30, 8/30, 7/30: mean 8/45.
		{"search_bookmarks", "4.3 4 4.5", "4.3", "-0.3", "0.5", "8/45"},
		// mean 13/3; deviations 4/30, 2/30, 2/30: mean 4/45.
		{"get_bookmark", "4.2 4.4 4.4", "4.4", "0", "0.2", "4/45"},
		{"tag_bookmarks", "3.4 3.6 3.4", "3.4", "0.3", "0.2", "4/45"},
		{"create_bookmark", "3.8 3.8 3.8", "3.8", "-0.5", "0", "0"},
	} {
		r := rows[w.tool]
		if calibVals(r.Runs) != w.runs || r.Median.String() != w.median || r.Difference.String() != w.diff || r.Range.String() != w.rng {
			t.Errorf("%s: runs %s median %s difference %s range %s, want %s / %s / %s / %s", w.tool, calibVals(r.Runs), r.Median, r.Difference, r.Range, w.runs, w.median, w.diff, w.rng)
		}
		wantExact(t, w.tool+" mean absolute deviation", r.MeanAbsDeviation.Num, w.mad)
	}
	// The dimensions take their own medians: search's purpose clarity
	// 5 4 5 is 5, its usage guidelines 4 4 5 is 4; get's parameter
	// semantics 3 4 4 is 4, now equal to the published 4.
	for _, dm := range rows["get_bookmark"].Dimensions {
		if dm.Name == "scores.parameter_semantics" && (calibVals(dm.Runs) != "3 4 4" || dm.Median.String() != "4" || dm.Difference.Num.Sign() != 0) {
			t.Errorf("get parameter semantics: %+v", dm)
		}
	}
	// Differences now -0.5 -0.3 -0.1 0 -0.3 +0.3 -0.3: sum -1.2, mean
	// -6/35; absolute sum 1.8, mean 9/35; within 0.3 of -6/35: all but
	// create (0.33 away) and tag (0.47 away).
	tdqs := st.Measures[0]
	wantExact(t, "tdqs mean signed", tdqs.MeanSigned.Num, "-6/35")
	wantExact(t, "tdqs mean absolute", tdqs.MeanAbs.Num, "9/35")
	if tdqs.Higher != 1 || tdqs.Lower != 5 || tdqs.Equal != 1 || st.Within != 5 {
		t.Errorf("higher/lower/equal %d/%d/%d, within %d; want 1/5/1, 5", tdqs.Higher, tdqs.Lower, tdqs.Equal, st.Within)
	}
	var ps calibrate.MeasureStats
	for _, m := range st.Measures {
		if m.Name == "scores.parameter_semantics" {
			ps = m
		}
	}
	wantExact(t, "parameter semantics mean signed", ps.MeanSigned.Num, "-1/7")
	ours := []float64{3.8, 4.6, 3.4, 4.4, 4.3, 3.4, 3.6}
	if r := pearsonOf(publishedTDQS, ours); st.Pearson == nil || math.Abs(*st.Pearson-r) > 1e-12 {
		t.Errorf("pearson %v, want %v", st.Pearson, r)
	}
	// Ranges 0.5, 0.2, 0.2 and four zeros: mean 0.9/7 = 9/70, largest
	// 0.5 on search; deviations (8+4+4)/45 over 7 tools: 16/315.
	v := st.Variation
	wantExact(t, "mean range", v.MeanRange.Num, "9/70")
	wantExact(t, "mean deviation", v.MeanDeviation.Num, "16/315")
	if v.MaxRange.String() != "0.5" || strings.Join(v.MaxRangeTools, ",") != "search_bookmarks" {
		t.Errorf("largest range %s on %v", v.MaxRange, v.MaxRangeTools)
	}
	// The whole set per run. Run 2: TDQS sum 27.3-0.3+0.2+0.2 = 27.4,
	// mean 3.914 (3.9), description quality 0.6*27.4/7 + 1.36 = 3.709
	// (3.7), coherence 4.8, overall 0.7*3.7 + 0.3*4.8 = 4.03 (4.0). Run
	// 3: sum 27.7, mean 3.957 (4.0), description quality 3.734 (3.7),
	// coherence 4.5, overall 3.94 (3.9).
	for _, row := range st.Set {
		w, ok := map[string][2]string{
			"meanTdqs":       {"3.9 3.9 4", "3.9"},
			"coherenceScore": {"4.5 4.8 4.5", "4.5"},
			"overallScore":   {"3.9 4 3.9", "3.9"},
			"completeness":   {"4 5 4", "4"},
		}[row.Name]
		if ok && (calibPtrs(row.Runs) != w[0] || row.Median.String() != w[1]) {
			t.Errorf("whole set %s: runs %s median %s, want %s, %s", row.Name, calibPtrs(row.Runs), row.Median, w[0], w[1])
		}
	}
	// The lowest: 3.4 in every run, but tag is only among them in runs 1
	// and 3.
	if l := st.Lowest; calibVals(l.Runs) != "3.4 3.4 3.4" || strings.Join(l.RunTools[1], ",") != "export_bookmarks" || strings.Join(l.RunTools[2], ",") != "export_bookmarks,tag_bookmarks" {
		t.Errorf("lowest %+v", l)
	}
	calibGolden(t, "drift.md", func(w *bytes.Buffer) error { return calibrate.WriteMarkdown(w, rec, "") })
}

// golden compares what write makes with testdata/NAME, or rewrites it
// with -update.
func calibGolden(t *testing.T, name string, write func(*bytes.Buffer) error) {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "calibrate", name)
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(b, buf.Bytes()) {
		t.Errorf("%s differs from the golden file (go test ./rubrics -run Calib -update rewrites it):\n%s", name, buf.String())
	}
}
