package rubrics_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/rubrics"
)

// chain writes a three-deep extends chain over TDQS into dir and returns
// the deepest file: each level moves a weight, the last also a metric.
func chain(tb testing.TB) string {
	dir := tb.TempDir()
	files := map[string]string{
		"one.hcl":   "rubric \"one\" {\n  extends = \"tdqs\"\n  version = \"1-one\"\n  weights = { purpose_clarity = 20, usage_guidelines = 25 }\n}\n",
		"two.hcl":   "rubric \"two\" {\n  extends = \"one.hcl\"\n  version = \"1-two\"\n  weights = { conciseness_structure = 5, contextual_completeness = 15 }\n}\n",
		"three.hcl": "rubric \"three\" {\n  extends = \"two.hcl\"\n  version = \"1-three\"\n  weights = { description_mean = 0.5, description_min = 0.5 }\n  surface {\n    metric \"minTdqs\" {\n      value = \"min(tools.map(t, t.score))\"\n    }\n  }\n}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return filepath.Join(dir, "three.hcl")
}

// BenchmarkLoadTDQS loads TDQS from its text, as a run does once.
func BenchmarkLoadTDQS(b *testing.B) {
	src, err := rubrics.Source("tdqs")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := rubric.Load("builtin:tdqs-v1.3.hcl", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadExtendsChain loads a three-deep extends chain over TDQS:
// the issue asks that it cost at most 1.5x loading TDQS itself.
func BenchmarkLoadExtendsChain(b *testing.B) {
	path := chain(b)
	for b.Loop() {
		if _, err := rubric.LoadFile(path); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExtendsChainLoads: the benchmark's chain loads, with every level's
// weights.
func TestExtendsChainLoads(t *testing.T) {
	r, err := rubric.LoadFile(chain(t))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"purpose_clarity": "20", "contextual_completeness": "15", "description_min": "0.5", "overall_coherence": "0.3"} {
		if w, ok := r.Weight(name); !ok || w.String() != want {
			t.Errorf("weight %s = %v, want %s", name, w, want)
		}
	}
}
