package html_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/report/html"
)

// TestWriteCalibrationFile: the file holds the page WriteCalibration
// writes; a file that cannot be written is named in the error.
func TestWriteCalibrationFile(t *testing.T) {
	rec, err := calibrate.Read(filepath.Join("..", "..", "..", "calibration", "examples", "tidy-heuristic", "calibration.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := html.WriteCalibration(&want, rec); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "calibration.html")
	if err := html.WriteCalibrationFile(path, rec); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Errorf("the file differs from the page (%v)", err)
	}
	// Under a regular file, no directory can be made.
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(notDir, "c.html")
	if err := html.WriteCalibrationFile(missing, rec); err == nil || !strings.Contains(err.Error(), "write "+missing) {
		t.Errorf("error %v, want one naming %s", err, missing)
	}
}
