package main

import (
	"bytes"
	"testing"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// committedCalibration is the heuristic judge's calibration against the
// example registry capture, kept in the repository.
const committedCalibration = "../../calibration/examples/tidy-heuristic/calibration.json"

// TestCommittedCalibrationHolds fails once the TDQS rubric, the heuristic
// judge's identity or the example capture moves away from the committed
// calibration record, until the calibration is made again.
func TestCommittedCalibrationHolds(t *testing.T) {
	heavytest.Later(t)
	t.Parallel()
	var out, errb bytes.Buffer
	if code := execute([]string{"calibrate", "--check", committedCalibration}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s\nmake the calibration again from the repository's root:\n"+
			"  go run ./cmd/rubric calibrate examples/captures/tidy.registry.json --judge heuristic --runs 3 --no-cache --out calibration/examples/tidy-heuristic -- go run ./examples/servers/tidy",
			code, errb.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("matches: rubric tdqs 1.3.0")) {
		t.Errorf("stdout: %s", out.String())
	}
}
