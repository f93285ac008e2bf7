package heuristic_test

import (
	"bytes"
	"encoding/json"

	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaErrors validates v against a tool's inputSchema as the rubric's
// schema_errors does (santhosh-tekuri/jsonschema, nothing fetched) and
// returns what is wrong, or "" when v is valid or the tool has no
// object schema.
func schemaErrors(t testing.TB, schema any, v map[string]any) string {
	t.Helper()
	if _, ok := schema.(map[string]any); !ok {
		return ""
	}
	sb, _ := json.Marshal(schema)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sb))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("input.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("input.json")
	if err != nil {
		return "" // the rubric counts a schema that does not compile on its own
	}
	vb, _ := json.Marshal(v)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(vb))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(inst); err != nil {
		return strings.Join(strings.Fields(err.Error()), " ")
	}
	return ""
}

func inputSchemas(s *surface.Surface) map[string]any {
	m := map[string]any{}
	for _, tl := range s.Tools {
		m[tl.Name] = member(tl.Def, "inputSchema")
	}
	return m
}

// TestInventedArgumentsValidate: over every corpus server, the arguments
// of every generated task and of every selection answer validate against
// the tool's own inputSchema. (Issue 22: a file path filled into a
// parameter whose pattern wants an id was counted against the server.)
// An argument the heuristic cannot build is left out and said in the
// reasoning; none of the corpus needs that.
func TestInventedArgumentsValidate(t *testing.T) {
	heavytest.Later(t)
	if testing.Short() {
		t.Skip("asks every selection of the corpus")
	}
	c := corpus(t)
	checked := 0
	for _, server := range names(c) {
		s := c[server]
		schemas := inputSchemas(s)
		var ts gTasks
		askG(t, heuristic.KindTasks, tasksInput(s, 3), &ts)
		selection := selectionInputs(t, s)
		for _, task := range ts.Tasks {
			if e := schemaErrors(t, schemas[task.Tool], task.Arguments); e != "" {
				t.Errorf("%s: task %q for %s: arguments %s: %s", server, task.Task, task.Tool, compact(task.Arguments), e)
			}
			var a gSelection
			askG(t, heuristic.KindSelection, selection(task.Task), &a)
			checked++
			if a.Tool == nil {
				continue
			}
			if strings.Contains(a.Reasoning, "No value it can build") {
				t.Errorf("%s: %s: %s", server, *a.Tool, a.Reasoning)
				continue
			}
			if e := schemaErrors(t, schemas[*a.Tool], a.Arguments); e != "" {
				t.Errorf("%s: task %q chose %s with %s: %s", server, task.Task, *a.Tool, compact(a.Arguments), e)
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d selections checked", checked)
	}
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestArgumentsFitPatternsAndBounds: one tool per constraint; the
// selection answer's arguments validate, and a schema no value fits is
// said in the reasoning rather than answered with a value it refuses.
func TestArgumentsFitPatternsAndBounds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema map[string]any
		want   string // in the reasoning
	}{
		{"pattern", obj(map[string]any{"file_id": map[string]any{"type": "string", "pattern": "^F[0-9]{6}$"}}), "from the schema"},
		{"pattern on a path", obj(map[string]any{"path": map[string]any{"type": "string", "pattern": "^[a-z]+:[0-9]+$"}}), "from the schema"},
		{"lengths", obj(map[string]any{"code": map[string]any{"type": "string", "minLength": 12, "maxLength": 12}}), "from the schema"},
		{"bounds", obj(map[string]any{"count": map[string]any{"type": "integer", "minimum": 100, "maximum": 200, "multipleOf": 50}}), "from the schema"},
		{"enum", obj(map[string]any{"mode": map[string]any{"type": "string", "enum": []any{"fast", "slow"}}}), "from the schema"},
		{"unique items", obj(map[string]any{"tags": map[string]any{"type": "array", "minItems": 2, "uniqueItems": true, "items": map[string]any{"type": "string", "enum": []any{"a", "b", "c"}}}}), "from the schema"},
		{"nullable number", obj(map[string]any{"limit": map[string]any{"anyOf": []any{map[string]any{"type": "integer", "minimum": 3}, map[string]any{"type": "null"}}}}), "from the schema"},
		{"local ref", map[string]any{"type": "object", "required": []any{"when"}, "$defs": map[string]any{"day": map[string]any{"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}}, "properties": map[string]any{"when": map[string]any{"$ref": "#/$defs/day"}}}, "from the schema"},
		{"unsatisfiable", obj(map[string]any{"n": map[string]any{"type": "integer", "minimum": 5, "maximum": 1}}), "No value it can build satisfies the schema of n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tools := []map[string]any{{"name": "open_record", "description": "Open one record of the archive.", "inputSchema": tc.schema}}
			var a gSelection
			askG(t, heuristic.KindSelection, map[string]any{"version": "selection-v1", "task": "open the record of the archive", "tools": tools}, &a)
			if a.Tool == nil || *a.Tool != "open_record" {
				t.Fatalf("chose %v", a.Tool)
			}
			if !strings.Contains(a.Reasoning, tc.want) {
				t.Errorf("reasoning %q does not say %q", a.Reasoning, tc.want)
			}
			if tc.name == "unsatisfiable" {
				if len(a.Arguments) != 0 {
					t.Errorf("arguments %s, want none", compact(a.Arguments))
				}
				return
			}
			if e := schemaErrors(t, tc.schema, a.Arguments); e != "" {
				t.Errorf("arguments %s: %s", compact(a.Arguments), e)
			}
			var ts gTasks
			askG(t, heuristic.KindTasks, map[string]any{"generator": "tasks-v1", "perTool": 3, "tools": tools}, &ts)
			for _, task := range ts.Tasks {
				if e := schemaErrors(t, tc.schema, task.Arguments); e != "" {
					t.Errorf("task %q: arguments %s: %s", task.Task, compact(task.Arguments), e)
				}
			}
		})
	}
}

// obj is an object schema whose members are all required.
func obj(props map[string]any) map[string]any {
	var req []any
	for k := range props {
		req = append(req, k)
	}
	return map[string]any{"type": "object", "properties": props, "required": req}
}
