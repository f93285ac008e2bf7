package heuristic_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/judges/heuristic"
)

// FuzzQuestions asks every kind of question the offline judge answers
// about any surface the loader accepts, built as the rubrics build
// their inputs: each must come back as an answer of its shape, or as an
// error, never a panic or a judge that goes round forever (a parameter
// named "" once did, for the selection question).
func FuzzQuestions(f *testing.F) {
	for _, seed := range []string{
		`{"tools":[{"name":"read_note","description":"Read a note by its id.","inputSchema":{"type":"object","properties":{"":{"type":"string"},"id":{"type":"string"}}}},{"name":"count_notes","description":5}]}`,
		`{"tools":[{"name":"delete_file","description":"Delete the file at path. Irreversible.","annotations":{"destructiveHint":true},"inputSchema":{"type":"object","required":["path"],"properties":{"path":{"type":"string","pattern":"^/"}}}},{"name":"list_files","description":"List files under a folder, when you need names only.","inputSchema":{"type":"object","properties":{"folder":{"type":"string","enum":["a","b"]},"limit":{"type":"integer","minimum":1,"maximum":10}}}}]}`,
		`[{"name":"a","inputSchema":{"$ref":"#/$defs/x","$defs":{"x":{"type":"object","properties":{"y":{"anyOf":[{"type":"string"},{"type":"null"}]}}}}}}]`,
		`[{"name":"x y","title":"","description":"   ","inputSchema":{"type":"object","properties":{"a b":{"type":"array","items":{"type":"object"}}}}}]`,
	} {
		f.Add([]byte(seed))
	}
	schemas := gradableSchemas(f)
	j := heuristic.New()
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := surface.Parse("fuzz", b)
		if err != nil || len(s.Tools) == 0 || len(s.Tools) > 20 {
			return
		}
		askOK := func(kind string, input any) []byte {
			in, err := json.Marshal(input)
			if err != nil {
				t.Fatal(err)
			}
			got, err := j.Ask(context.Background(), judge.Question{Kind: kind, Input: in})
			if err != nil {
				return nil // refused with a reason: allowed
			}
			if !json.Valid(got.JSON) {
				t.Fatalf("%s answer is not JSON: %s", kind, got.JSON)
			}
			return got.JSON
		}
		for i := range s.Tools {
			askOK(heuristic.KindTool, toolInput(s, i))
			if a := askOK(heuristic.KindDefects, defectsInput(s.Tools[i].Def)); a != nil {
				validateGradable(t, schemas, heuristic.KindDefects, a, s.Tools[i].Name)
			}
		}
		askOK(heuristic.KindCoherence, coherenceInput("fuzz", s))
		if a := askOK(heuristic.KindConfusable, confusableInput(s)); a != nil {
			validateGradable(t, schemas, heuristic.KindConfusable, a, "confusable")
		}
		tasks := askOK(heuristic.KindTasks, tasksInput(s, 2))
		if tasks == nil {
			return
		}
		validateGradable(t, schemas, heuristic.KindTasks, tasks, "tasks")
		var ts gTasks
		if err := json.Unmarshal(tasks, &ts); err != nil {
			t.Fatal(err)
		}
		for _, task := range ts.Tasks {
			if a := askOK(heuristic.KindSelection, selectionInput(s, task.Task)); a != nil {
				validateGradable(t, schemas, heuristic.KindSelection, a, task.Task)
			}
		}
	})
}
