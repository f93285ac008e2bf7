package calibrate

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
)

// TestJudgeTextNamesWhoAnswered: the calibration's Markdown and text
// name the judge as its HTML does: the model it pins, or, for a judge
// whose answers came from several (a replayed file whose lines name
// different ones), those models with their answers, which the text
// left out.
func TestJudgeTextNamesWhoAnswered(t *testing.T) {
	for _, tc := range []struct {
		name  string
		judge *report.Judge
		want  string
	}{
		{"no judge", nil, "none"},
		{"a pinned model", &report.Judge{Identity: judge.Identity{Plugin: "openai", Version: "1.2.0", Model: "gpt-4o"}}, "openai 1.2.0 · model gpt-4o"},
		{"several models", &report.Judge{Identity: judge.Identity{Plugin: "replay", Version: "1.0.0",
			Params: map[string]any{judge.ParamModels: "a (2 answers), b (1 answer)"}}}, "replay 1.0.0 · models a (2 answers), b (1 answer)"},
		{"a heuristic", &report.Judge{Identity: judge.Identity{Plugin: "heuristic", Version: "1.5.9", Model: "heuristic-1", Heuristic: true}},
			"heuristic 1.5.9 · model heuristic-1 (a heuristic, not a model)"},
		{"neither", &report.Judge{Identity: judge.Identity{Plugin: "replay", Version: "1.0.0"}}, "replay 1.0.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := judgeText(&Record{Judge: tc.judge}); got != tc.want {
				t.Errorf("judgeText = %q\nwant       %q", got, tc.want)
			}
		})
	}
}
