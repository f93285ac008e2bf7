package eval_test

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/score/eval"
	"github.com/rubricmcp/rubric/internal/cputime"
	"github.com/rubricmcp/rubric/rubrics"
)

// BenchmarkToolSignalsAndMetrics is the part of a tool's scoring that
// builds its activation: TDQS's signals and metrics of one tool of four
// parameters, each formula reading the values before it through the
// scope (the signals' and metrics' maps, their members' bounds).
func BenchmarkToolSignalsAndMetrics(b *testing.B) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		b.Fatal(err)
	}
	props := map[string]any{}
	for _, n := range []string{"id", "title", "body", "tags"} {
		props[n] = map[string]any{"type": "string", "description": "The note's " + n + "."}
	}
	tool := map[string]any{
		"name": "update_note", "title": "Update a note", "description": "Update one note's title, body or tags; fields left out keep their value.",
		"inputSchema": map[string]any{"type": "object", "required": []any{"id"}, "properties": props},
		"annotations": map[string]any{"readOnlyHint": false, "destructiveHint": false},
	}
	scores := map[string]any{}
	for _, d := range []string{"purpose_clarity", "usage_guidelines", "behavioral_transparency", "parameter_semantics", "conciseness_structure", "contextual_completeness"} {
		scores[d] = map[string]any{"score": int64(2 + len(d)%3), "justification": "Says what " + d + " asks."}
	}
	answers := map[string]any{"tool": map[string]any{"scores": scores, "summary": "Updates a note.", "annotation_contradiction": false}}
	def, err := lang.MarshalCanonical(tool)
	if err != nil {
		b.Fatal(err)
	}
	size := uint64(len(def))
	cpu, _ := cputime.Process()
	for b.Loop() {
		sc := &eval.Scope{Vars: lang.Vars{
			"tool": lang.ToolValue(tool), "surface": map[string]any{"tools": []any{tool}},
			"surface_signals": map[string]any{},
		}, Size: size}
		if _, err := eval.Signals(r.Tool.Signals, sc, "signals", "signal"); err != nil {
			b.Fatal(err)
		}
		sc.SetMembers("answers", answers, map[string]uint64{"tool": eval.ValueSize(answers["tool"])})
		if _, _, err := eval.Metrics(r.Tool.Metrics, sc); err != nil {
			b.Fatal(err)
		}
	}
	// The process's CPU time, less swayed than the wall clock by what
	// else a busy machine runs.
	end, _ := cputime.Process()
	b.ReportMetric(float64((end-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
