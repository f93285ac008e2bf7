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
