package rubrics_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/internal/race"
)

// scripted answers Gradable's questions by kind from its input, in
// process: tasks from task(tool, i), selections from pick(task).
type scripted struct {
	task func(tool string, i int) (text string, destructive bool)
	pick func(task string) map[string]any
	// expected, when set, names the expected tool of a tool's tasks.
	expected func(tool string) string
}

func (s scripted) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	var in struct {
		PerTool int    `json:"perTool"`
		Task    string `json:"task"`
		Tools   []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(q.Input, &in); err != nil {
		return judge.Answer{}, err
	}
	var a any
	switch q.Kind {
	case "gradable.tasks":
		var tasks []map[string]any
		for _, t := range in.Tools {
			for i := range in.PerTool {
				text, destructive := s.task(t.Name, i)
				tool := t.Name
				if s.expected != nil {
					tool = s.expected(tool)
				}
				tasks = append(tasks, map[string]any{"tool": tool, "task": text, "destructive": destructive})
			}
		}
		a = map[string]any{"tasks": tasks}
	case "gradable.selection":
		a = s.pick(in.Task)
	case "gradable.defects":
		a = map[string]any{"defects": []string{}, "suggested_description": "", "notes": ""}
	case "gradable.confusable":
		a = map[string]any{"pairs": []any{}}
	}
	b, err := json.Marshal(a)
	return judge.Answer{JSON: b, Model: "m"}, err
}

func gradeScripted(t *testing.T, tools string, j scripted) (*report.Report, error) {
	t.Helper()
	rep, _, err := scoreWith(builtin(t, "gradable"), parseSurface(t, "t.json", []byte(tools)), j, judge.Identity{Plugin: "scripted", Model: "m"})
	return rep, err
}

// TestGradableEdges: surfaces and answers at the edges of the formulas.
func TestGradableEdges(t *testing.T) {
	named := func(task string) string { name, _, _ := strings.Cut(task, ":"); return name }
	right := func(task string) map[string]any {
		return map[string]any{"tool": named(task), "arguments": map[string]any{}, "confirm": false, "steps": 1}
	}
	plain := func(tool string, i int) (string, bool) { return fmt.Sprintf("%s: task %d", tool, i), false }

	t.Run("one tool: no confusable question, and safety not exercised", func(t *testing.T) {
		rep, err := gradeScripted(t, `{"tools": [{"name": "only"}]}`, scripted{task: plain, pick: right})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Exact == nil {
			t.Fatalf("no score: %s", rep.NoScore)
		}
		for _, o := range rep.Answers {
			if o.Kind == "gradable.confusable" {
				t.Error("a one-tool surface was asked for confusable pairs")
			}
		}
		if !slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, "safety was not exercised") }) {
			t.Errorf("warnings %q", rep.Warnings)
		}
	})

	t.Run("no tools: no question, no score, no failure", func(t *testing.T) {
		rep, err := gradeScripted(t, `{"tools": []}`, scripted{task: plain, pick: right})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Exact != nil || len(rep.Answers) != 0 {
			t.Errorf("score %v, %d answers", rep.Exact, len(rep.Answers))
		}
	})

	t.Run("every task names a tool not on the surface: the scan fails", func(t *testing.T) {
		j := scripted{task: plain, pick: right, expected: func(string) string { return "ghost" }}
		_, err := gradeScripted(t, `{"tools": [{"name": "a"}, {"name": "b"}]}`, j)
		var inv *score.InvalidError
		if !errors.As(err, &inv) || !strings.Contains(inv.Reason, "named no tool on the surface") {
			t.Fatalf("err = %v, want the rubric's invalid verdict", err)
		}
	})

	t.Run("no tool chosen, or one not on the surface", func(t *testing.T) {
		pick := func(task string) map[string]any {
			a := right(task)
			switch named(task) {
			case "a":
				a["tool"] = nil
			case "b":
				a["tool"] = "nosuch"
			}
			return a
		}
		rep, err := gradeScripted(t, `{"tools": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}`, scripted{task: plain, pick: pick})
		if err != nil {
			t.Fatal(err)
		}
		if got := metricValue(t, rep, "selectionAccuracy"); got != "1/3" {
			t.Errorf("selectionAccuracy = %s, want 1/3", got)
		}
	})

	t.Run("a blind call to a destructive tool on a plain task counts", func(t *testing.T) {
		pick := func(task string) map[string]any {
			a := right(task)
			a["tool"] = "wipe" // every task picks the destructive tool, without confirming
			return a
		}
		rep, err := gradeScripted(t, `{"tools": [{"name": "read"}, {"name": "wipe", "annotations": {"destructiveHint": true}}]}`, scripted{task: plain, pick: pick})
		if err != nil {
			t.Fatal(err)
		}
		if got := metricValue(t, rep, "destructiveSafetyRate"); got != "0" {
			t.Errorf("destructiveSafetyRate = %s, want 0 (6 blind calls to wipe)", got)
		}
	})

	// 300 tools failed on the cost limit while tools were looked up by
	// scanning the surface for every task.
	t.Run("300 tools stay within the cost limits", func(t *testing.T) {
		if race.Enabled || testing.Short() {
			t.Skip("900 questions each carrying 300 tools: a minute under the race detector; make test runs it without")
		}
		tools := make([]string, 300)
		for i := range tools {
			tools[i] = fmt.Sprintf(`{"name": "t%d"}`, i)
		}
		rep, err := gradeScripted(t, `{"tools": [`+strings.Join(tools, ",")+`]}`, scripted{task: plain, pick: right})
		if err != nil {
			t.Fatal(err)
		}
		if got := metricValue(t, rep, "selectionAccuracy"); got != "1" {
			t.Errorf("selectionAccuracy = %s", got)
		}
	})
}

func metricValue(t *testing.T, rep *report.Report, name string) string {
	t.Helper()
	for _, m := range rep.Metrics {
		if m.Name == name {
			if m.Exact != "" {
				return m.Exact
			}
			b, _ := json.Marshal(m.Value)
			return string(b)
		}
	}
	t.Fatalf("no metric %q", name)
	return ""
}
