// Package reporttest builds real reports for the tests of the report
// writers: a surface scored with the built-in schema-quality rubric.
package reporttest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

// Version is the program version the reports record.
const Version = "0.0.0-test"

// Score parses data as a surface called name and scores it with
// schema-quality; the report's target is name and its version Version.
func Score(t testing.TB, name string, data []byte) *report.Report {
	t.Helper()
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Run(context.Background(), r, s, score.Options{Target: name, Version: Version})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// Testdata scores a file of engine/report/testdata (real captures are in
// its corpus/ folder), wherever the calling test runs.
func Testdata(t testing.TB, rel string) *report.Report {
	t.Helper()
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("reporttest: cannot find its own source file")
	}
	return ScoreFile(t, filepath.Join(filepath.Dir(self), "..", "testdata", rel))
}

// ScoreFile scores the surface file at path, named by its base name.
func ScoreFile(t testing.TB, path string) *report.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Score(t, filepath.Base(path), b)
}

// Golden compares got with the golden file at path, or rewrites the file
// first when update is set (the tests' -update flag).
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s; if the change is intended, run go test -update and review the diff\n--- got ---\n%s", path, got)
	}
}
