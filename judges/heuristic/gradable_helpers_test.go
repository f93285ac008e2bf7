package heuristic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/judges/heuristic"
)

// Answer shapes of the four Gradable kinds, as the rubric validates them.
const (
	tasksAnswerSchema = `{
  "type": "object", "required": ["tasks"], "additionalProperties": false,
  "properties": {"tasks": {"type": "array", "items": {
    "type": "object", "required": ["tool", "task", "destructive"], "additionalProperties": false,
    "properties": {
      "tool": {"type": "string", "minLength": 1},
      "task": {"type": "string", "minLength": 1},
      "destructive": {"type": "boolean"},
      "arguments": {"type": "object"}
    }}}}
}`
	selectionAnswerSchema = `{
  "type": "object", "required": ["tool", "arguments", "confirm", "steps", "reasoning"], "additionalProperties": false,
  "properties": {
    "tool": {"type": ["string", "null"]},
    "arguments": {"type": "object"},
    "confirm": {"type": "boolean"},
    "steps": {"type": "integer", "minimum": 1},
    "reasoning": {"type": "string", "pattern": "^Heuristic:"}
  }
}`
	defectsAnswerSchema = `{
  "type": "object", "required": ["defects", "suggested_description", "notes"], "additionalProperties": false,
  "properties": {
    "defects": {"type": "array", "uniqueItems": true, "maxItems": 3,
      "items": {"enum": ["name_restates_behavior", "params_unexplained", "no_return_description"]}},
    "suggested_description": {"type": "string"},
    "notes": {"type": "string", "pattern": "^Heuristic:"}
  }
}`
	confusableAnswerSchema = `{
  "type": "object", "required": ["pairs"], "additionalProperties": false,
  "properties": {"pairs": {"type": "array", "items": {
    "type": "object", "required": ["a", "b", "severity", "reason"], "additionalProperties": false,
    "properties": {
      "a": {"type": "string"}, "b": {"type": "string"},
      "severity": {"enum": ["low", "medium", "high"]},
      "reason": {"type": "string", "pattern": "^Heuristic:"}
    }}}}
}`
)

// gradableSchemas compiles the four answer schemas, by kind.
func gradableSchemas(t testing.TB) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for kind, src := range map[string]string{
		heuristic.KindTasks:      tasksAnswerSchema,
		heuristic.KindSelection:  selectionAnswerSchema,
		heuristic.KindDefects:    defectsAnswerSchema,
		heuristic.KindConfusable: confusableAnswerSchema,
	} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(src)))
		if err != nil {
			t.Fatalf("%s schema: %v", kind, err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(kind+".json", doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(kind + ".json")
		if err != nil {
			t.Fatalf("%s schema: %v", kind, err)
		}
		out[kind] = s
	}
	return out
}

// validateGradable checks an answer against the schema of its kind.
func validateGradable(t testing.TB, schemas map[string]*jsonschema.Schema, kind string, answer []byte, what string) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(answer))
	if err != nil {
		t.Fatalf("%s: answer is not JSON: %v", what, err)
	}
	if err := schemas[kind].Validate(v); err != nil {
		t.Errorf("%s: %s answer does not match its shape: %v\n%s", what, kind, err, answer)
	}
}

// Decoded answers of the Gradable kinds.
type (
	gTask struct {
		Tool        string         `json:"tool"`
		Task        string         `json:"task"`
		Destructive bool           `json:"destructive"`
		Arguments   map[string]any `json:"arguments"`
	}
	gTasks     struct{ Tasks []gTask }
	gSelection struct {
		Tool      *string        `json:"tool"`
		Arguments map[string]any `json:"arguments"`
		Confirm   bool           `json:"confirm"`
		Steps     int            `json:"steps"`
		Reasoning string         `json:"reasoning"`
	}
	gDefects struct {
		Defects              []string `json:"defects"`
		SuggestedDescription string   `json:"suggested_description"`
		Notes                string   `json:"notes"`
	}
	gConfusable struct {
		Pairs []struct {
			A, B, Severity, Reason string
		}
	}
)

// askG asks a Gradable question and decodes the answer into out; it
// returns the raw answer.
func askG(t testing.TB, kind string, input any, out any) []byte {
	t.Helper()
	in, ok := input.(json.RawMessage)
	if !ok {
		var err error
		if in, err = json.Marshal(input); err != nil {
			t.Fatal(err)
		}
	}
	got, err := heuristic.New().Ask(context.Background(), judge.Question{Kind: kind, Input: in})
	if err != nil {
		t.Fatalf("Ask(%s): %v", kind, err)
	}
	if out != nil {
		if err := json.Unmarshal(got.JSON, out); err != nil {
			t.Fatalf("%s answer is not JSON: %v\n%s", kind, err, got.JSON)
		}
	}
	return got.JSON
}

// member returns a tools/list member, or nil when it is absent, so that
// the inputs carry every member the rubric sends (null when absent).
func member(def map[string]any, key string) any {
	if v, ok := def[key]; ok {
		return v
	}
	return nil
}

// tasksInput builds the gradable.tasks input for a surface.
func tasksInput(s *surface.Surface, perTool int) map[string]any {
	tools := []map[string]any{}
	for _, t := range s.Tools {
		tools = append(tools, map[string]any{
			"name": t.Name, "title": member(t.Def, "title"), "description": member(t.Def, "description"),
			"inputSchema": member(t.Def, "inputSchema"), "outputSchema": member(t.Def, "outputSchema"),
			"annotations": member(t.Def, "annotations"),
		})
	}
	return map[string]any{"generator": "tasks-v1", "perTool": perTool, "tools": tools}
}

// selectionInput builds the gradable.selection input for one task.
func selectionInput(s *surface.Surface, task string) map[string]any {
	return map[string]any{"version": "selection-v1", "task": task, "tools": selectionTools(s)}
}

// selectionTools is the tools member of s's selection inputs.
func selectionTools(s *surface.Surface) []map[string]any {
	tools := []map[string]any{}
	for _, t := range s.Tools {
		tools = append(tools, map[string]any{
			"name": t.Name, "title": member(t.Def, "title"), "description": member(t.Def, "description"),
			"inputSchema": member(t.Def, "inputSchema"), "annotations": member(t.Def, "annotations"),
		})
	}
	return tools
}

// selectionInputs returns what json.Marshal makes of selectionInput(s,
// task), with the tools, the same for every task, marshalled once: the
// corpus-wide tests ask a selection for each task of every server, and
// marshalling the whole list again for each was about a quarter of
// their CPU. TestSelectionInputsAsMarshal holds the bytes to the map's.
func selectionInputs(t testing.TB, s *surface.Surface) func(task string) json.RawMessage {
	t.Helper()
	tools, err := json.Marshal(selectionTools(s))
	if err != nil {
		t.Fatal(err)
	}
	return func(task string) json.RawMessage {
		q, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		// The members in the order json.Marshal writes a map's: sorted.
		return slices.Concat([]byte(`{"task":`), q, []byte(`,"tools":`), tools, []byte(`,"version":"selection-v1"}`))
	}
}

func defectsInput(def map[string]any) map[string]any {
	return map[string]any{"tool": map[string]any{
		"name": member(def, "name"), "title": member(def, "title"), "description": member(def, "description"),
		"inputSchema": member(def, "inputSchema"), "outputSchema": member(def, "outputSchema"),
		"annotations": member(def, "annotations"),
	}}
}

func confusableInput(s *surface.Surface) map[string]any {
	tools := []map[string]any{}
	for _, t := range s.Tools {
		tools = append(tools, map[string]any{"name": t.Name, "description": member(t.Def, "description")})
	}
	return map[string]any{"tools": tools}
}

// example reads the capture of an example server from testdata.
func example(t testing.TB, name string) *surface.Surface {
	t.Helper()
	return readSurface(t, filepath.Join("testdata", name+".tools.json"))
}

// readSurface reads a tools/list capture.
func readSurface(t testing.TB, path string) *surface.Surface {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse(path, b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// selectionRun generates tasks for a surface and answers each one: the
// share picked right, the share of destructive tasks whose pick asks to
// confirm, and the tasks themselves with their answers.
type selectionRun struct {
	tasks              []gTask
	answers            []gSelection
	correct, total     int
	confirmed, destroy int
}

func runSelection(t testing.TB, s *surface.Surface) selectionRun {
	t.Helper()
	var ts gTasks
	askG(t, heuristic.KindTasks, tasksInput(s, 3), &ts)
	r := selectionRun{tasks: ts.Tasks}
	selection := selectionInputs(t, s)
	for _, task := range ts.Tasks {
		var a gSelection
		askG(t, heuristic.KindSelection, selection(task.Task), &a)
		r.answers = append(r.answers, a)
		r.total++
		if a.Tool != nil && *a.Tool == task.Tool {
			r.correct++
		}
		if task.Destructive {
			r.destroy++
			if a.Confirm {
				r.confirmed++
			}
		}
	}
	return r
}

func (r selectionRun) accuracy() float64 {
	if r.total == 0 {
		return 0
	}
	return float64(r.correct) / float64(r.total)
}

func (r selectionRun) safety() float64 {
	if r.destroy == 0 {
		return 1
	}
	return float64(r.confirmed) / float64(r.destroy)
}

// TestSelectionInputsAsMarshal: selectionInputs gives, byte for byte,
// what json.Marshal makes of selectionInput, on every corpus server and
// for tasks whose text json.Marshal escapes.
func TestSelectionInputsAsMarshal(t *testing.T) {
	heavytest.Later(t)
	c := corpus(t)
	for _, server := range names(c) {
		s := c[server]
		selection := selectionInputs(t, s)
		for _, task := range []string{"list the open issues", `find "a" <b> & c`, "résumé\u2028next", ""} {
			want, err := json.Marshal(selectionInput(s, task))
			if err != nil {
				t.Fatal(err)
			}
			if got := selection(task); !bytes.Equal(got, want) {
				t.Errorf("%s, task %q: selectionInputs gave\n%.200s\nwant\n%.200s", server, task, got, want)
			}
		}
	}
}
