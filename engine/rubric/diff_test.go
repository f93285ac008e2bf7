package rubric

import (
	"os"
	"strings"
	"testing"
)

// TestDiff: two rubrics differ by exactly the parts an edit moved, each
// under its name, weights first; equal digests differ by nothing.
func TestDiff(t *testing.T) {
	b, err := os.ReadFile("../../rubrics/schema-quality-v1.hcl")
	if err != nil {
		t.Fatal(err)
	}
	base := loadString(t, string(b))
	edit := strings.NewReplacer(
		"described_params  = 20", "described_params  = 10",
		"B = 75", "B = 80",
		`"size(params(tool)) > 0"`, `"size(params(tool)) > 1"`,
	).Replace(string(b))
	changed := loadString(t, edit)
	got := Diff(base, changed)
	want := []Change{
		{Key: "weights.described_params", Old: "20", New: "10"},
		{Key: "checks.described_params.points", Old: "20", New: "10", Follows: "weights.described_params"},
		{Key: "checks.has_properties.pass", Old: "size(params(tool)) > 0", New: "size(params(tool)) > 1"},
		{Key: "grades.B", Old: "75", New: "80"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d changes, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if d := Diff(base, loadString(t, "# a comment\n"+string(b))); len(d) != 0 {
		t.Errorf("a comment made a difference: %+v", d)
	}
	added := loadString(t, strings.Replace(string(b), "round       = 1", "round       = 1\n  judge_labels = { v = \"2\" }", 1))
	if d := Diff(base, added); len(d) != 1 || d[0].Kind() != "added" || d[0].Key != "judge_labels.v" {
		t.Errorf("a new label: got %+v", d)
	}
	if d := Diff(added, base); len(d) != 1 || d[0].Kind() != "removed" {
		t.Errorf("a removed label: got %+v", d)
	}
}
