package heuristic_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/rubricmcp/rubric/judges/heuristic"
)

// TestDumpTuning writes the enlarged tuning part's records
// (enlargedTuning), the heuristic's answers and the published scores as
// JSON lines to the file RUBRIC_TUNING_DUMP names, for fitting outside Go. It reads no held-out
// part. Skipped unless the variable is set.
func TestDumpTuning(t *testing.T) {
	path := os.Getenv("RUBRIC_TUNING_DUMP")
	if path == "" {
		t.Skip("RUBRIC_TUNING_DUMP not set")
	}
	tuning := enlargedTuning(t)
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	enc := json.NewEncoder(out)
	for _, r := range tuning {
		_, a := ask(t, heuristic.KindTool, r.input)
		if err := enc.Encode(map[string]any{
			"label": r.label, "fold": foldOf(r), "set": r.set, "input": r.input,
			"published": r.published, "tdqs": r.tdqs, "answer": a,
		}); err != nil {
			t.Fatal(err)
		}
	}
}
