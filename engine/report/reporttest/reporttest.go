// Package reporttest builds real reports for the tests of the report
// writers: a surface scored with the built-in schema-quality rubric.
package reporttest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

// Score parses data as a surface called name and scores it with
// schema-quality; the report's target is name.
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
	rep, err := score.Run(context.Background(), r, s, score.Options{Target: name})
	if err != nil {
		t.Fatal(err)
	}
	return rep
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
