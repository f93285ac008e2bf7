package calibrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
)

func TestCompare(t *testing.T) {
	id := judge.Identity{Plugin: "replay", Version: "1.0.0", Model: "m", Params: map[string]any{"answers_sha256": "abc", "seed": 7}}
	rec := &Record{
		Version: Version,
		Rubric:  RubricInfo{Name: "r", Version: "1", Digest: "sha256:r1"},
		Judge:   &report.Judge{Identity: id},
		Capture: CaptureInfo{SurfaceHash: "sha256:s1", ToolCount: 2},
	}
	same := Current{RubricDigest: "sha256:r1", Judge: &report.Judge{Identity: id}, SurfaceHash: "sha256:s1"}
	otherModel := id
	otherModel.Model = "n"
	otherParams := id
	otherParams.Params = map[string]any{"answers_sha256": "def", "seed": 7}
	for _, tc := range []struct {
		name string
		cur  func(Current) Current
		want []string
	}{
		{"all match", func(c Current) Current { return c }, nil},
		{"a weight changed", func(c Current) Current { c.RubricDigest = "sha256:r2"; return c }, []string{"the rubric digest moved"}},
		{"another model", func(c Current) Current { c.Judge = &report.Judge{Identity: otherModel}; return c }, []string{"the judge model moved: recorded m, now n"}},
		{"another answers file", func(c Current) Current { c.Judge = &report.Judge{Identity: otherParams}; return c }, []string{"the judge parameters moved"}},
		{"another scored set", func(c Current) Current { c.SurfaceHash = "sha256:s2"; return c }, []string{"the scored set moved: recorded sha256:s1 (2 tools)"}},
		{"two at once", func(c Current) Current { c.RubricDigest, c.SurfaceHash = "x", "y"; return c }, []string{"the rubric digest", "the scored set"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			moved := rec.Compare(tc.cur(same))
			if len(moved) != len(tc.want) {
				t.Fatalf("moved %v, want %d", moved, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(moved[i].String(), w) {
					t.Errorf("%q does not say %q", moved[i], w)
				}
			}
		})
	}
}

func TestRecordRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "calibration.json")
	rec := &Record{
		Version: Version, Rubric: RubricInfo{Name: "r", Digest: "sha256:r"}, Capture: CaptureInfo{SurfaceHash: "sha256:s"},
		Judge: &report.Judge{Identity: judge.Identity{Plugin: "p", Params: map[string]any{"temperature": 0.5}}},
	}
	if err := WriteFile(path, rec); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// A number read back from the file is the same parameter.
	if moved := back.Compare(Current{RubricDigest: "sha256:r", SurfaceHash: "sha256:s", Judge: rec.Judge}); len(moved) != 0 {
		t.Errorf("read back, the record moved: %v", moved)
	}
	for _, bad := range []string{`{`, `{"calibration_version": 9}`, `{"calibration_version": 1}`} {
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(path); err == nil {
			t.Errorf("%s was read as a record", bad)
		}
	}
}

// committed is the calibration record the repository ships.
const committed = "../../calibration/examples/tidy-heuristic/calibration.json"

// A record's statistics are recomputed from its own runs and published
// values: an edited statistic, rounded value or exact fraction, an edited
// run or published value, is named with what the record says and what its
// values give.
func TestVerify(t *testing.T) {
	data, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	capture, err := ReadCapture(filepath.Join(filepath.Dir(committed), "../../../examples/captures/tidy.registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		old, new string
		want     []string
	}{
		{"as committed", "", "", nil},
		{"same number written otherwise", `"value": 0.7143,`, `"value": 0.71430,`, nil},
		{"mean absolute difference rounded", `"value": 0.7143,`, `"value": 0.29,`,
			[]string{`statistics: measures "tdqs": mean absolute difference says 0.29, its values give 0.7143`}},
		{"mean absolute difference exact", `"exact": "5/7"`, `"exact": "2/7"`,
			[]string{`statistics: measures "tdqs": mean absolute difference (exact) says 2/7, its values give 5/7`}},
		{"pearson", `"pearson": 0.07422696190252051`, `"pearson": 0.94`,
			[]string{`statistics: pearson says 0.94, its values give 0.07422696190252051`}},
		{"within tolerance", `"within_tolerance": 3`, `"within_tolerance": 6`,
			[]string{`statistics: within tolerance says 6, its values give 3`}},
		{"the count of runs", `"runs": 3`, `"runs": 2`,
			[]string{`runs says 2, its values give 3 (the runs it holds)`}},
		// A published value edited in the record, statistics left alone:
		// the capture says otherwise, and so do the statistics.
		{"a published score", "\"name\": \"tdqs\",\n            \"value\": 3.1", "\"name\": \"tdqs\",\n            \"value\": 2.1",
			[]string{`published: tools "tag_bookmarks": values "tdqs": value says 2.1, the capture gives 3.1`, `statistics: lowest: published says 3.1, its values give 2.1`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.old != "" && !strings.Contains(string(data), tc.old) {
				t.Fatalf("the record has no %s", tc.old)
			}
			path := filepath.Join(t.TempDir(), "calibration.json")
			if err := os.WriteFile(path, []byte(strings.Replace(string(data), tc.old, tc.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			rec, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range rec.Verify(capture) {
				got = append(got, d.String())
			}
			if len(tc.want) > 1 && len(got) > len(tc.want) {
				got = got[:len(tc.want)] // the first lines are the ones asserted
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestReadNamesTheWrongKind: a file of another kind given as a record is
// named for what it is, not "calibration record version 0".
func TestReadNamesTheWrongKind(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ doc, want string }{
		{`{"report_version": 3, "tools": []}`, "sq.json is a score report (rubric score), not a calibration record (write one with rubric calibrate)"},
		{`{"tools": []}`, "sq.json is a capture of a server's tools, not a calibration record"},
		{`{"calibration_version": 9}`, "sq.json: calibration record version 9, this rubric reads version 1"},
		{`{"calibration_version": 1, "runs": []}`, `sq.json:1:36: not a calibration record: "runs" holds an array, where a whole number is wanted`},
		{`{"calibration_version": 1, "capture": {"tool_count": "7"}}`, `not a calibration record: "capture.tool_count" holds a string, where a whole number is wanted`},
		{`{"calibration_version": 1, "judge": 3}`, `not a calibration record: "judge" holds a number, where an object is wanted`},
		{`{"judges": [null, null], "bootstrap": {}, "agreement": []}`, "sq.json holds two judges' agreement with each other, not one calibration record: check it with the records of judge-1/ and judge-2/ beside it"},
	} {
		path := filepath.Join(dir, "sq.json")
		if err := os.WriteFile(path, []byte(tt.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.doc, err, tt.want)
		}
	}
}
