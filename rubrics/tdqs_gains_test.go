package rubrics_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/score"
)

// TestTDQSGainIsWhatTheFixMoves: each gain the TDQS fix list gives is
// what the tool's TDQS, as shown (rounded to one decimal), moves when
// the fix is made: the judge's answer about that dimension is set to 5,
// the report is scored again from its answers, and the tool's new score
// less its old one is the gain. Before, the gain was (5 - score) x
// weight / 100 unrounded, and on these captures one issue in twelve
// promised what the shown score would not move (0.75 where 1.4 became
// 2.1).
func TestTDQSGainIsWhatTheFixMoves(t *testing.T) {
	r := builtin(t, "tdqs")
	dims := []string{"purpose_clarity", "usage_guidelines", "behavioral_transparency", "parameter_semantics", "conciseness_structure", "contextual_completeness"}
	checked, rounded := 0, 0
	for _, name := range []string{"desktop-commander", "git", "memory", "everything", "postgres"} {
		s := readSurface(t, filepath.Join("..", "engine", "score", "testdata", "corpus", name+".tools.json"))
		rep, _ := gradeHeuristic(t, r, s)
		for i, tool := range rep.Tools {
			for _, is := range tool.Issues {
				if !slices.Contains(dims, is.Check) {
					continue // a flag: No Description gains 5 less the score, checked in TestFixListOrder
				}
				var answer map[string]any
				if err := json.Unmarshal(tool.Answers[0].Answer, &answer); err != nil {
					t.Fatal(err)
				}
				answer["scores"].(map[string]any)[is.Check].(map[string]any)["score"] = 5
				fixed, err := json.Marshal(answer)
				if err != nil {
					t.Fatal(err)
				}
				edited := *rep
				edited.Tools = slices.Clone(rep.Tools)
				edited.Tools[i].Answers = slices.Clone(tool.Answers)
				edited.Tools[i].Answers[0].Answer = fixed
				again, err := score.Run(context.Background(), r, s, score.Options{Asker: ask.FromReport(&edited)})
				if err != nil {
					t.Fatalf("%s %s: %v", name, tool.Name, err)
				}
				moved := num.MustParse(again.Tools[i].Exact).Sub(num.MustParse(tool.Exact))
				gain := num.MustParse(is.Gain)
				if moved.Cmp(gain) != 0 {
					t.Errorf("%s %s %s: the fix list gains %s, the fix moves the tool's TDQS %s to %s (%s)", name, tool.Name, is.Check, gain.Exact(), tool.Exact, again.Tools[i].Exact, moved.Exact())
				}
				checked++
				if w := strings.TrimSpace(is.Points); w != "" {
					exact := num.Int(5).Sub(num.MustParse(strings.TrimSuffix(strings.Fields(is.Message)[2], ":"))).Mul(num.MustParse(w))
					if q, _ := exact.Quo(num.Int(100)); q.Cmp(gain) != 0 {
						rounded++
					}
				}
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d issues checked", checked)
	}
	// The captures hold fixes whose unrounded gain the shown score does
	// not move by, so the test tells the two apart.
	if rounded == 0 {
		t.Error("no issue's gain differs from (5 - score) x weight / 100: the test cannot tell the rounded gain from the unrounded one")
	}
	t.Logf("%d issues checked, %d of them move the shown score by other than (5 - score) x weight / 100", checked, rounded)
}
