package score_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestCorpusGolden scores every real capture in testdata/corpus (copied from
// published servers' tools/list answers) and compares the whole JSON report
// with testdata/golden. Run with -update to rewrite them, then review the
// diff by hand.
func TestCorpusGolden(t *testing.T) {
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/corpus/*.tools.json")
	if len(files) < 16 {
		t.Fatalf("found %d captures, want the 16 of the corpus", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".tools.json")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := surface.Parse("corpus/"+filepath.Base(f), b)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := score.Run(context.Background(), r, s, score.Options{Target: "corpus/" + filepath.Base(f)})
			if err != nil {
				t.Fatal(err)
			}
			rep.Timings = report.Timings{}
			got, err := report.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata/golden", name+".report.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./engine/score -run Golden -update to create it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("report differs from %s; if the change is intended, run with -update and review the diff", golden)
			}
		})
	}
}
