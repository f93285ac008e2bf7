package gradable

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
)

// TestScoresAsScore: the scores summed over the terms' postings are, for
// every document, the score looked up document by document, to the last
// bit (each document's terms are added in the same order), over every
// corpus server, with each of its tools' names and descriptions as the
// task.
func TestScoresAsScore(t *testing.T) {
	checked := 0
	for _, capture := range surfacetest.CorpusTools(t) {
		b, err := json.Marshal(capture)
		if err != nil {
			t.Fatal(err)
		}
		var tools []gTool
		if err := json.Unmarshal(b, &tools); err != nil {
			t.Fatal(err)
		}
		ix := indexTools(tools)
		for _, tool := range tools {
			for _, task := range []string{tool.Name, tool.description(), "list " + tool.Name + " and its " + tool.title()} {
				q := query(task)
				for i, got := range ix.scores(q) {
					want, _ := ix.score(i, q)
					if math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("task %q, tool %s: %v from the postings, %v looked up", task, tools[i].Name, got, want)
					}
					if got > 0 {
						checked++
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d positive scores compared", checked)
	}
}
