package tdqs

import (
	"encoding/json"
	"strings"
	"testing"
)

// reviewRow is one definition of a review of heuristic 1.5.2's cues:
// the dimension read, the score it must have, and a phrase its
// justification must hold or must not.
type reviewRow struct {
	name, tool, dim string
	score           int
	has, hasNot     string
}

// checkReviewRows scores each row's tool alone and checks its dimension.
func checkReviewRows(t *testing.T, rows []reviewRow) {
	t.Helper()
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) {
			var tool map[string]any
			if err := json.Unmarshal([]byte(c.tool), &tool); err != nil {
				t.Fatalf("the row's tool: %v", err)
			}
			got, err := Tool(&ToolInput{Tool: tool})
			if err != nil {
				t.Fatal(err)
			}
			a := got.(toolAnswer)
			d := map[string]dimension{
				"purpose_clarity": a.Scores.PurposeClarity, "usage_guidelines": a.Scores.UsageGuidelines,
				"behavioral_transparency": a.Scores.BehavioralTransparency, "parameter_semantics": a.Scores.ParameterSemantics,
				"conciseness_structure": a.Scores.ConcisenessStructure, "contextual_completeness": a.Scores.ContextualCompleteness,
			}[c.dim]
			if d.Score != c.score {
				t.Errorf("%s = %d, want %d (%s)", c.dim, d.Score, c.score, d.Justification)
			}
			if c.has != "" && !strings.Contains(d.Justification, c.has) {
				t.Errorf("%s justification %q does not say %q", c.dim, d.Justification, c.has)
			}
			if c.hasNot != "" && strings.Contains(d.Justification, c.hasNot) {
				t.Errorf("%s justification %q says %q, which is false of the definition", c.dim, d.Justification, c.hasNot)
			}
		})
	}
}

// TestReviewClearAdjective: "clear" joined the verbs of change, and a
// clause opening with it and a noun now says what an acting tool
// changes, though there it is an adjective ("Clear instructions give
// better summaries"); 1.5.1 said the tool states no change.
func TestReviewClearAdjective(t *testing.T) {
	checkReviewRows(t, []reviewRow{
		{"clear instructions", `{"name": "summarize", "description": "Summarize the document. Clear instructions give better summaries.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`, "contextual_completeness", 3, "what this action tool changes", ""},
	})
}
