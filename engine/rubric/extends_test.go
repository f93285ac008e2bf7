package rubric

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtendsChain: a three-deep chain merges as the rules say (weights
// key by key, a block replaced in place, a new one added after the
// parent's, a tool block merged member by member), and the flattened form
// loads to the same digest.
func TestExtendsChain(t *testing.T) {
	r, err := LoadFile("testdata/extends/top.hcl")
	if err != nil {
		t.Fatal(err)
	}
	var checks []string
	for _, c := range r.Checks {
		checks = append(checks, c.Name+"="+c.Points.Exact())
	}
	if got, want := strings.Join(checks, " "), "typed=30 named=50 described=7"; got != want {
		t.Errorf("checks: got %s, want %s", got, want)
	}
	var weights []string
	for _, w := range r.Weights {
		weights = append(weights, w.Name+"="+w.Value.Exact())
	}
	if got, want := strings.Join(weights, " "), "typed=30 purpose_clarity=1"; got != want {
		t.Errorf("weights: got %s, want %s", got, want)
	}
	if r.Name != "top" || r.Version != "1.0.0-top" || len(r.Tool.Metrics) != 1 || r.Tool.Score.Source != "metrics.double / 4" || r.Grades[0].Min.Exact() != "40" {
		t.Errorf("merged wrong: %s %s, %d metrics, score %q, grade A at %s", r.Name, r.Version, len(r.Tool.Metrics), r.Tool.Score.Source, r.Grades[0].Min)
	}
	src, _ := os.ReadFile("testdata/extends/top.hcl")
	flat, err := Flat("testdata/extends/top.hcl", src)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.hcl")
	if err := os.WriteFile(copyPath, flat, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadFile(copyPath)
	if err != nil {
		t.Fatalf("the flat form does not load: %v\n%s", err, flat)
	}
	if c.Digest != r.Digest {
		t.Errorf("the flat form's digest %s differs from the child's %s:\n%s", c.Digest, r.Digest, flat)
	}
	if strings.Contains(string(flat), "extends =") {
		t.Errorf("the flat form still extends:\n%s", flat)
	}
	// The parent, unchanged, has its own digest.
	base, err := LoadFile("testdata/extends/base.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if base.Digest == r.Digest {
		t.Error("the child has its parent's digest")
	}
}
