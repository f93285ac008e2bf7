package score_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/rubrics"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestCorpusGolden scores every real capture in testdata/corpus (copied from
// published servers' tools/list answers) and compares the whole JSON report
// with testdata/golden, but for the embedded surface: a verbatim copy of
// the input would make up most of each golden and hide the scores in its
// diff, so the golden holds its digest instead (see compact), and the
// surface is checked on its own: it parses back to the surface scored.
// Run with -update to rewrite them, then review the diff by hand.
func TestCorpusGolden(t *testing.T) {
	heavytest.Later(t)
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
			full, err := report.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			got := compact(t, full, s)
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

// embedMember is how the report writes its last member, the embedded
// surface.
const embedMember = "\n  \"embedded_surface\": "

// compact checks the embedded surface of a report written by
// report.Marshal and returns the report with that member replaced by a
// digest a reviewer can read: the sha256 and length of the bytes written
// (so that any change to how the surface is embedded still shows as a
// golden diff) and the hash of the surface they parse back to, which must
// be the surface scored, the one the report's surface.hash names.
func compact(t *testing.T, full []byte, scored *surface.Surface) []byte {
	t.Helper()
	text := string(full)
	i := strings.LastIndex(text, embedMember)
	if i < 0 || !strings.HasSuffix(text, "\n}\n") {
		t.Fatalf("the report does not end with its embedded surface:\n%.300s", text[max(0, len(text)-300):])
	}
	embedded := text[i+len(embedMember) : len(text)-len("\n}\n")]
	back, err := surface.Parse("embedded", []byte(embedded))
	if err != nil {
		t.Fatalf("the embedded surface does not parse: %v", err)
	}
	if back.Hash() != scored.Hash() || len(back.Tools) != len(scored.Tools) {
		t.Errorf("the embedded surface parses to %s (%d tools), not the surface scored, %s (%d tools)",
			back.Hash(), len(back.Tools), scored.Hash(), len(scored.Tools))
	}
	var head struct {
		Surface struct {
			Hash string `json:"hash"`
		} `json:"surface"`
	}
	if err := json.Unmarshal(full, &head); err != nil {
		t.Fatal(err)
	}
	if head.Surface.Hash != scored.Hash() {
		t.Errorf("the report's surface.hash is %s, not the surface scored, %s", head.Surface.Hash, scored.Hash())
	}
	digest, err := json.Marshal(map[string]any{
		"bytes":        len(embedded),
		"bytes_sha256": surface.HashBytes([]byte(embedded)),
		"parses_to":    back.Hash(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return []byte(text[:i+len(embedMember)] + string(digest) + "\n}\n")
}
