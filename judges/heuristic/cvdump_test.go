package heuristic_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/judges/heuristic"
)

// devFiles are the files of calibration/dev whose records the judge is
// tuned on since issue 19's second fit of 1.5.0: every file of
// published per-tool scores, held-out ones included, since every one has
// now been read by earlier rules. glama_tdqs_rescored.json is left out:
// it scores definitions the others already hold more than once, and it
// measures the registry against itself. This is what 1.5.0 was fitted
// on. Since issue 19's fourth 1.6.0 candidate the 1.6, 1.7, 1.8 and 1.9
// parts (tuning and fresh sides), each read by two rules before (1.4.0
// and 1.5.0; then 1.5.0 and each of three 1.6.0 candidates, none
// adopted), are tuning data too; that fit is read once on a part
// transcribed after it. Since issue 19's twelfth reading the 1.10 and
// 1.11 parts (both sides, each read by two rules and by every 1.5
// reading since) and the tuning side of 1.12 are tuning data as well:
// of the files of published per-tool scores only glama_tdqs_fresh_1_12.json
// is held out.
var devFiles = []string{
	"glama_tdqs_observed.json", "glama_tdqs_heldout.json", "glama_tdqs_tuning_1_3.json",
	"glama_tdqs_extra.json", "glama_tdqs_heldout_1_3.json",
	tuningFile15, freshFile15,
	tuningFile16, freshFile16, tuningFile17, freshFile17,
	tuningFile18, freshFile18, tuningFile19, freshFile19,
	tuningFile110, freshFile110, tuningFile111, freshFile111,
	tuningFile112,
}

// allTuning is every record of devFiles and the specification's
// examples, each with its file as its set: the data the second 1.5.0
// candidate was fitted on by cross-validation (foldOf).
func allTuning(t testing.TB) []record {
	recs := specRecords(t)
	for _, f := range devFiles {
		r, _ := observedRecords(t, f, f)
		recs = append(recs, r...)
	}
	return recs
}

// TestDumpTuning writes every record of the development set (allTuning),
// its fold, the heuristic's answers and the published scores as JSON
// lines to the file RUBRIC_TUNING_DUMP names, for fitting outside Go.
// Skipped unless the variable is set.
func TestDumpTuning(t *testing.T) {
	path := os.Getenv("RUBRIC_TUNING_DUMP")
	if path == "" {
		t.Skip("RUBRIC_TUNING_DUMP not set")
	}
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	enc := json.NewEncoder(out)
	for _, r := range allTuning(t) {
		_, a := ask(t, heuristic.KindTool, r.input)
		if err := enc.Encode(map[string]any{
			"label": r.label, "fold": foldOf(r), "set": r.set, "input": r.input,
			"published": r.published, "tdqs": r.tdqs, "answer": a,
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAgreementFile prints the judge's agreement with one file of
// published scores: per-tool Pearson and MAD, and each dimension's
// count, MAD and Pearson. RUBRIC_AGREEMENT_FILE names the file under
// calibration/dev; it is read as the Glama files are. Skipped unless the variable is set:
//
//	RUBRIC_AGREEMENT_FILE=glama_tdqs_fresh_1_6.json go test ./judges/heuristic -run 'TestAgreementFile$' -v
func TestAgreementFile(t *testing.T) {
	name := os.Getenv("RUBRIC_AGREEMENT_FILE")
	if name == "" {
		t.Skip("RUBRIC_AGREEMENT_FILE not set")
	}
	if _, err := os.Stat(filepath.Join(calibrationDir, name)); err != nil {
		t.Fatalf("RUBRIC_AGREEMENT_FILE=%s: %v; name a file of published scores under calibration/dev, such as %s", name, err, freshFile15)
	}
	recs, skipped := observedRecords(t, name, "named")
	for _, s := range skipped {
		t.Logf("skipped: %s", s)
	}
	tb := tabulate(t, name, recs)
	var b strings.Builder
	r, _ := tb.tools.pearson()
	fmt.Fprintf(&b, "heuristic %s on %s: %d tools, per-tool Pearson %.3f, MAD %.3f\n", heuristic.Version, name, len(tb.rows), r, tb.tools.mad())
	for _, d := range toolDims {
		p := tb.dims[d.key]
		pr, ok := p.pearson()
		fmt.Fprintf(&b, "  %-24s n %3d  MAD %.3f  Pearson %s\n", d.key, len(p.pub), p.mad(), cell(pr, ok && len(p.pub) > 1))
	}
	t.Log("\n" + b.String())
}
