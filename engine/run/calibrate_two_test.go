package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// TestCalibrateTwoWritesThePairWhole: a calibration of two judges
// replaces the earlier pair in --out as a whole, and one whose judge 2
// fails leaves --out as it was: never judge 1's new calibration beside
// judge 2's old one, and nothing half written beside --out.
func TestCalibrateTwoWritesThePairWhole(t *testing.T) {
	for _, tc := range []struct {
		name     string
		earlier  bool // --out holds an earlier pair, and a file of the user's
		fail     bool // judge 2 fails
		judge1   string
		wantGone bool // --out does not exist afterwards
	}{
		{name: "a new directory", judge1: "new 1"},
		{name: "over an earlier pair", earlier: true, judge1: "new 1"},
		{name: "judge 2 fails over an earlier pair", earlier: true, fail: true, judge1: "old 1"},
		{name: "judge 2 fails in a new directory", fail: true, wantGone: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			out := filepath.Join(parent, "calib")
			if tc.earlier {
				for i := 1; i <= 2; i++ {
					writeText(t, filepath.Join(out, fmt.Sprintf("judge-%d", i), RecordFile), fmt.Sprintf("old %d", i))
				}
				writeText(t, filepath.Join(out, BetweenJSON), "old pair")
				writeText(t, filepath.Join(out, "notes.txt"), "mine")
			}
			one := func(_ context.Context, i int, _ *rubric.Rubric, c Calibration) (*calibrate.Record, error) {
				if tc.fail && i == 1 {
					return nil, errors.New("cannot start")
				}
				writeText(t, filepath.Join(c.Out, RecordFile), fmt.Sprintf("new %d", i+1))
				return &calibrate.Record{Capture: calibrate.CaptureInfo{SurfaceHash: "sha256:s"}, Rubric: calibrate.RubricInfo{Digest: "sha256:d"}, Measures: calibrate.Measures{Tool: "x"}}, nil
			}
			_, _, err := CalibrateTwo(context.Background(), nil, Calibration{Out: out, Runs: 1}, [2]string{"a", "b"}, one)
			if tc.fail != (err != nil) {
				t.Fatalf("err = %v", err)
			}
			if err != nil && !strings.Contains(err.Error(), "judge 2 (b): cannot start; "+out+" is as it was") {
				t.Errorf("err = %v", err)
			}
			if _, err := os.Stat(out); tc.wantGone != os.IsNotExist(err) {
				t.Fatalf("%s: %v", out, err)
			}
			if !tc.wantGone {
				if got := readText(t, filepath.Join(out, "judge-1", RecordFile)); got != tc.judge1 {
					t.Errorf("judge-1 holds %q, want %q", got, tc.judge1)
				}
				wantPair := "old pair"
				if !tc.fail {
					wantPair = "new 2"
					if got := readText(t, filepath.Join(out, "judge-2", RecordFile)); got != wantPair {
						t.Errorf("judge-2 holds %q, want %q", got, wantPair)
					}
					if got := readText(t, filepath.Join(out, BetweenJSON)); !strings.Contains(got, `"agreement"`) {
						t.Errorf("%s holds %q", BetweenJSON, got)
					}
				} else if got := readText(t, filepath.Join(out, BetweenJSON)); got != wantPair {
					t.Errorf("%s holds %q, want %q", BetweenJSON, got, wantPair)
				}
			}
			if tc.earlier {
				if got := readText(t, filepath.Join(out, "notes.txt")); got != "mine" {
					t.Errorf("the user's file holds %q", got)
				}
			}
			entries, err := os.ReadDir(parent)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.Name() != "calib" {
					t.Errorf("%s left beside --out", e.Name())
				}
			}
		})
	}
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
