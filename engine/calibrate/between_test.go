package calibrate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
)

// judgeRecord is a record of one judge whose median tdqs of tools t1..t3
// are scores.
func judgeRecord(plugin, hash, digest string, scores ...int64) *Record {
	r := &Record{
		Capture:  CaptureInfo{SurfaceHash: hash, ToolCount: len(scores)},
		Rubric:   RubricInfo{Name: "r", Version: "1", Digest: digest},
		Judge:    &report.Judge{},
		Measures: Measures{Tool: "tdqs"},
	}
	r.Judge.Plugin = plugin
	for i, s := range scores {
		r.Statistics.Tools = append(r.Statistics.Tools, ToolRow{Name: "t" + string(rune('1'+i)), Median: NumVal(ints(s)[0])})
	}
	return r
}

func TestCompare2(t *testing.T) {
	// Judge 1 gives (1,2,3), judge 2 (1,3,3): the case of TestQuadraticKappa
	// and TestOrdinalAlpha's "hand 3 units" (the pairs are the units), so
	// kappa 4/5 and alpha 7/9 = 0.7778; mean absolute difference 1/3.
	a := judgeRecord("one", "h", "d", 1, 2, 3)
	b := judgeRecord("two", "h", "d", 1, 3, 3)
	bt, err := Compare2(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(bt.Agreement) != 1 {
		t.Fatalf("agreement %+v", bt.Agreement)
	}
	ag := bt.Agreement[0]
	if ag.Tools != 3 || ag.Kappa == nil || *ag.Kappa != 0.8 || ag.Alpha == nil || *ag.Alpha != 0.7778 || ag.MeanAbs != 0.3333 {
		t.Errorf("agreement %+v", ag)
	}
	if ag.AlphaRuns != nil || bt.Bootstrap.Resamples != DefaultResamples {
		t.Errorf("alpha across runs %v, bootstrap %+v", ag.AlphaRuns, bt.Bootstrap)
	}
	var md bytes.Buffer
	if err := WriteBetweenMarkdown(&md, a, b, bt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| tdqs | 0.80 | 0.78 |") {
		t.Errorf("markdown:\n%s", md.String())
	}

	// Two captures, or two rubric digests, are refused with what to do.
	if _, err := Compare2(a, judgeRecord("two", "other", "d", 1, 3, 3), Options{}); err == nil || !strings.Contains(err.Error(), "one capture") {
		t.Errorf("different sets: %v", err)
	}
	if _, err := Compare2(a, judgeRecord("two", "h", "e", 1, 3, 3), Options{}); err == nil || !strings.Contains(err.Error(), "one rubric") {
		t.Errorf("different digests: %v", err)
	}
}

// TestCheckBetween: two judges' agreement checks against their records;
// an edited statistic is named, and records of two rubrics are no pair.
func TestCheckBetween(t *testing.T) {
	a := judgeRecord("one", "sha256:s", "sha256:d", 1, 2, 3)
	b := judgeRecord("two", "sha256:s", "sha256:d", 1, 3, 3)
	bt, err := Compare2(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(bt)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		raw    []byte
		b      *Record
		want   string
		errMsg string
	}{
		{name: "as written", raw: raw, b: b},
		{name: "a kappa edited", raw: bytes.Replace(raw, []byte(`"quadratic_weighted_kappa":0.8`), []byte(`"quadratic_weighted_kappa":0.9`), 1), b: b,
			want: `agreement: agreement "tdqs": quadratic weighted kappa says 0.9, its values give 0.8`},
		{name: "judge 2 made again", raw: raw, b: judgeRecord("two", "sha256:s", "sha256:d", 3, 3, 3),
			want: "agreement: agreement \"tdqs\": quadratic weighted kappa"},
		{name: "judge 2 of another rubric", raw: raw, b: judgeRecord("two", "sha256:s", "sha256:e", 1, 3, 3),
			errMsg: "the two calibrations used different rubric digests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			own, err := CheckBetween(tc.raw, a, tc.b)
			if tc.errMsg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errMsg) {
					t.Fatalf("err = %v, want %q", err, tc.errMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, d := range own {
				lines = append(lines, d.String())
			}
			got := strings.Join(lines, "\n")
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("disagreements:\n%s\nwant one that says %q", got, tc.want)
			}
		})
	}
}
