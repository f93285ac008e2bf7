package heuristic_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/internal/race"
	"github.com/rubricmcp/rubric/judges/heuristic"
)

// bookmarks is a small hand-made surface: a documented search, an
// annotated delete, a delete that hides what it does, and a tool with
// nothing to go on but its name.
var bookmarks = []map[string]any{
	{
		"name": "search_notes", "title": "Search notes",
		"description": "Search the saved notes by words in their text. Returns the matching notes, newest first.",
		"inputSchema": map[string]any{"type": "object", "required": []any{"query"}, "properties": map[string]any{
			"query": map[string]any{"type": "string", "description": "Words to find.", "examples": []any{"meeting agenda"}},
			"limit": map[string]any{"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
		}},
		"annotations": map[string]any{"readOnlyHint": true},
	},
	{
		"name": "delete_note", "title": "Delete a note",
		"description": "Delete one note by id, permanently. Returns the deleted note.",
		"inputSchema": map[string]any{"type": "object", "required": []any{"note_id"}, "properties": map[string]any{
			"note_id": map[string]any{"type": "string", "description": "Id of the note.", "examples": []any{"n-12"}},
		}},
		"annotations": map[string]any{"destructiveHint": true},
	},
	{
		"name":        "purge",
		"description": "Clears notes.",
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"folder": map[string]any{}}},
	},
	{
		"name":        "export_notes",
		"description": "Export every note as one document in the given format.",
		"inputSchema": map[string]any{"type": "object", "required": []any{"format"}, "properties": map[string]any{
			"format": map[string]any{"type": "string", "enum": []any{"json", "csv"}},
		}},
		"outputSchema": map[string]any{"type": "object", "properties": map[string]any{"content": map[string]any{"type": "string"}}},
	},
}

func handMade(t testing.TB) *surface.Surface {
	t.Helper()
	b, err := json.Marshal(map[string]any{"tools": bookmarks})
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("hand-made", b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// namesTool reports whether a task spells the tool's name in any of the
// forms the rubric forbids.
func namesTool(task, name string) bool {
	low := strings.ToLower(task)
	forms := []string{strings.ToLower(name), strings.ToLower(strings.NewReplacer("_", " ", "-", " ").Replace(name))}
	for _, f := range forms {
		if f != "" && strings.Contains(low, f) {
			return true
		}
	}
	return false
}

func TestGradableTasks(t *testing.T) {
	s := handMade(t)
	var a gTasks
	raw := askG(t, heuristic.KindTasks, tasksInput(s, 3), &a)
	again := askG(t, heuristic.KindTasks, tasksInput(s, 3), nil)
	if !bytes.Equal(raw, again) {
		t.Fatalf("two answers to one tasks question differ:\n%s\n%s", raw, again)
	}
	validateGradable(t, gradableSchemas(t), heuristic.KindTasks, raw, "hand-made tasks")
	want := []struct {
		tool        string
		destructive bool
		args        map[string]any
		words       []string // words the first task must hold
	}{
		{"search_notes", false, map[string]any{"query": "meeting agenda"}, []string{"Search the saved notes", `"meeting agenda"`}},
		{"delete_note", true, map[string]any{"note_id": "n-12"}, []string{"Delete one note", "n-12"}},
		{"purge", true, map[string]any{}, []string{"notes"}},
		{"export_notes", false, map[string]any{"format": "json"}, []string{"Export every note", "format json"}},
	}
	if len(a.Tasks) != 3*len(want) {
		t.Fatalf("got %d tasks, want 3 per tool (%d):\n%s", len(a.Tasks), 3*len(want), raw)
	}
	for i, w := range want {
		group := a.Tasks[3*i : 3*i+3]
		for k, task := range group {
			if task.Tool != w.tool || task.Destructive != w.destructive {
				t.Errorf("task %d of %s: tool %q destructive %v, want %q %v", k, w.tool, task.Tool, task.Destructive, w.tool, w.destructive)
			}
			if namesTool(task.Task, w.tool) {
				t.Errorf("task %q spells its tool's name", task.Task)
			}
		}
		if !reflect.DeepEqual(group[0].Arguments, w.args) {
			t.Errorf("%s: first task's arguments %v, want %v", w.tool, group[0].Arguments, w.args)
		}
		for _, word := range w.words {
			if !strings.Contains(group[0].Task, word) {
				t.Errorf("%s: first task %q does not hold %q", w.tool, group[0].Task, word)
			}
		}
		if group[0].Task == group[1].Task || group[1].Task == group[2].Task || group[0].Task == group[2].Task {
			t.Errorf("%s: tasks repeat: %q", w.tool, []string{group[0].Task, group[1].Task, group[2].Task})
		}
	}
	// The enum's values take turns: json, csv, json.
	if got := a.Tasks[10].Arguments["format"]; got != "csv" {
		t.Errorf("second export task's format = %v, want csv", got)
	}

	// perTool is honoured; absent, it is 3.
	var five gTasks
	askG(t, heuristic.KindTasks, tasksInput(s, 5), &five)
	if len(five.Tasks) != 20 {
		t.Errorf("perTool 5 gave %d tasks, want 20", len(five.Tasks))
	}
	var none gTasks
	askG(t, heuristic.KindTasks, map[string]any{"generator": "tasks-v1", "tools": tasksInput(s, 0)["tools"]}, &none)
	if len(none.Tasks) != 12 {
		t.Errorf("perTool absent gave %d tasks, want 12", len(none.Tasks))
	}
}

// TestTaskTextNeverNamesTool: no generated task, for any tool of any
// capture, spells its tool's name.
func TestTaskTextNeverNamesTool(t *testing.T) {
	heavytest.Later(t)
	all := corpus(t)
	all["tidy"], all["sloppy"], all["hand-made"] = example(t, "tidy"), example(t, "sloppy"), handMade(t)
	checked := 0
	for _, server := range names(all) {
		s := all[server]
		var a gTasks
		askG(t, heuristic.KindTasks, tasksInput(s, 3), &a)
		counts := map[string]int{}
		for _, task := range a.Tasks {
			counts[task.Tool]++
			checked++
			if namesTool(task.Task, task.Tool) {
				t.Errorf("%s: task %q spells the name %s", server, task.Task, task.Tool)
			}
			if strings.TrimSpace(task.Task) == "" {
				t.Errorf("%s/%s: empty task", server, task.Tool)
			}
		}
		var order []string
		for _, task := range a.Tasks {
			if len(order) == 0 || order[len(order)-1] != task.Tool {
				order = append(order, task.Tool)
			}
		}
		var surfaceOrder []string
		for _, tool := range s.Tools {
			surfaceOrder = append(surfaceOrder, tool.Name)
			if counts[tool.Name] != 3 {
				t.Errorf("%s/%s: %d tasks, want 3", server, tool.Name, counts[tool.Name])
			}
		}
		if !slices.Equal(order, surfaceOrder) {
			t.Errorf("%s: tasks are not grouped in surface order", server)
		}
	}
	t.Logf("%d tasks checked", checked)
}

func TestGradableSelection(t *testing.T) {
	s := handMade(t)
	cases := []struct {
		task    string
		tool    string // "" for null
		args    map[string]any
		confirm bool
		steps   int
	}{
		{`Find my notes about "quarterly plan", at most limit 5.`, "search_notes", map[string]any{"query": "quarterly plan", "limit": int64(5)}, false, 1},
		{"Please remove the note with note id n-7.", "delete_note", map[string]any{"note_id": "n-7"}, true, 1},
		{"Remove the note I wrote yesterday.", "delete_note", map[string]any{"note_id": "n-12"}, true, 2},
		{"Give me every note as csv.", "export_notes", map[string]any{"format": "csv"}, false, 1},
		{"Clear out the archive folder.", "purge", map[string]any{}, false, 1},
		{"What is the weather in Paris?", "", map[string]any{}, false, 1},
	}
	schemas := gradableSchemas(t)
	for _, c := range cases {
		var a gSelection
		raw := askG(t, heuristic.KindSelection, selectionInput(s, c.task), &a)
		validateGradable(t, schemas, heuristic.KindSelection, raw, c.task)
		got := ""
		if a.Tool != nil {
			got = *a.Tool
		}
		if got != c.tool {
			t.Errorf("%q: chose %q, want %q (%s)", c.task, got, c.tool, a.Reasoning)
			continue
		}
		var wantArgs map[string]any
		b, _ := json.Marshal(c.args)
		_ = json.Unmarshal(b, &wantArgs)
		if !reflect.DeepEqual(a.Arguments, wantArgs) {
			t.Errorf("%q: arguments %v, want %v", c.task, a.Arguments, wantArgs)
		}
		if a.Confirm != c.confirm || a.Steps != c.steps {
			t.Errorf("%q: confirm %v steps %d, want %v %d (%s)", c.task, a.Confirm, a.Steps, c.confirm, c.steps, a.Reasoning)
		}
		if !strings.HasPrefix(a.Reasoning, "Heuristic: ") {
			t.Errorf("%q: reasoning %q does not say it is heuristic", c.task, a.Reasoning)
		}
	}
}

// TestSelectionTiesGoToSurfaceOrder: two tools that match a task
// equally well are decided by their order.
func TestSelectionTiesGoToSurfaceOrder(t *testing.T) {
	twin := func(name string) map[string]any {
		return map[string]any{"name": name, "description": "Lists the open tickets."}
	}
	for _, order := range [][]string{{"tickets_a", "tickets_b"}, {"tickets_b", "tickets_a"}} {
		in := map[string]any{"version": "selection-v1", "task": "Show the open tickets.", "tools": []any{twin(order[0]), twin(order[1])}}
		var a gSelection
		askG(t, heuristic.KindSelection, in, &a)
		if a.Tool == nil || *a.Tool != order[0] {
			t.Errorf("order %v: chose %v, want the first", order, a.Tool)
		}
	}
}

func TestGradableDefects(t *testing.T) {
	cases := []struct {
		name string
		tool map[string]any
		want []string
	}{
		{"none", bookmarks[0], []string{}},
		{"blank description", map[string]any{"name": "get_data", "description": "  "},
			[]string{"name_restates_behavior", "no_return_description"}},
		{"restated", map[string]any{"name": "update_bookmark", "description": "Updates a bookmark.",
			"inputSchema": map[string]any{"type": "object", "required": []any{"id"}, "properties": map[string]any{"id": map[string]any{"type": "string"}}}},
			[]string{"name_restates_behavior", "params_unexplained", "no_return_description"}},
		{"parameter named in the text", map[string]any{"name": "rename_file",
			"description": "Rename a file in place, keeping its folder; the target is the new base name. Returns the new path.",
			"inputSchema": map[string]any{"type": "object", "required": []any{"path", "target"}, "properties": map[string]any{"path": map[string]any{"type": "string", "description": "File to rename."}, "target": map[string]any{}}}},
			[]string{}},
		{"required parameter unexplained", map[string]any{"name": "rename_file",
			"description": "Rename a file in place, keeping its folder. Returns the new path.",
			"inputSchema": map[string]any{"type": "object", "required": []any{"to"}, "properties": map[string]any{"to": map[string]any{"type": "string"}}}},
			[]string{"params_unexplained"}},
		{"enum explains", map[string]any{"name": "export_notes", "description": "Export every note as one document, in the format asked for. Returns the document.",
			"inputSchema": map[string]any{"type": "object", "required": []any{"kind"}, "properties": map[string]any{"kind": map[string]any{"enum": []any{"a", "b"}}}}},
			[]string{}},
		{"output schema states the return", map[string]any{"name": "count_words", "description": "Count the words of a text, splitting at spaces and punctuation.",
			"outputSchema": map[string]any{"type": "object", "properties": map[string]any{"count": map[string]any{"type": "integer"}}}},
			[]string{}},
		{"bare object output says nothing", map[string]any{"name": "count_words", "description": "Count the words of a text, splitting at spaces and punctuation.",
			"outputSchema": map[string]any{"type": "object"}},
			[]string{"no_return_description"}},
		{"list of is a return cue", map[string]any{"name": "list_rooms", "description": "Gives a list of meeting rooms free in the next hour, with their floors."},
			[]string{}},
		// eslint's lint-files (1.5.11): a list the caller must provide
		// is what goes in; nothing says what comes back.
		{"a list to provide is no return cue", map[string]any{"name": "lint_files", "description": "Lint the files given. You must provide a list of absolute file paths."},
			[]string{"no_return_description"}},
	}
	schemas := gradableSchemas(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var a gDefects
			raw := askG(t, heuristic.KindDefects, defectsInput(c.tool), &a)
			validateGradable(t, schemas, heuristic.KindDefects, raw, c.name)
			if !slices.Equal(a.Defects, c.want) {
				t.Fatalf("defects %v, want %v (%s)", a.Defects, c.want, a.Notes)
			}
			if len(a.Defects) == 0 {
				if a.SuggestedDescription != "" {
					t.Errorf("no defect but a suggestion %q", a.SuggestedDescription)
				}
				return
			}
			assertSuggestionPasteable(t, c.tool, a)
		})
	}
}

// authorWords are phrases that speak to the author rather than describe
// the tool: a suggested description never holds them (issue 22: it reads
// as a description, and what the author must add is said outside it).
var authorWords = []string{"not documented", "state them", "state what", "fill in", "verify", "add what"}

// remainingDefect is, for each defect a suggestion may leave because
// the definition cannot fix it, what the notes must then ask the
// author to add.
var remainingDefect = map[string]string{
	"name_restates_behavior": "when to use it and what it changes",
	"no_return_description":  "what the call returns",
}

// assertSuggestionPasteable checks a defects answer's suggestion: it
// reads as a description (no words to the author), and, asked about
// again in place of the description, it has no defect but those the
// definition cannot fix, each of which the notes ask the author to fill
// in. With no suggestion, the notes say what to add.
func assertSuggestionPasteable(t testing.TB, tool map[string]any, a gDefects) {
	t.Helper()
	suggestion := a.SuggestedDescription
	low := strings.ToLower(suggestion)
	def, _ := json.Marshal(tool)
	for _, w := range authorWords {
		// A word the definition itself holds is the definition's, copied.
		if strings.Contains(low, w) && !strings.Contains(strings.ToLower(string(def)), w) {
			t.Errorf("%v: the suggestion %q speaks to the author (%q)", tool["name"], suggestion, w)
		}
	}
	if suggestion == "" {
		if !strings.Contains(a.Notes, "add what the definition does not show: ") {
			t.Errorf("%v: no suggestion, and the notes do not say what to add: %s", tool["name"], a.Notes)
		}
		return
	}
	if !strings.Contains(a.Notes, "verify it against the implementation") {
		t.Errorf("%v: the notes do not ask that the suggestion be verified: %s", tool["name"], a.Notes)
	}
	rewritten := map[string]any{}
	for k, v := range tool {
		rewritten[k] = v
	}
	rewritten["description"] = suggestion
	var again gDefects
	askG(t, heuristic.KindDefects, defectsInput(rewritten), &again)
	for _, d := range again.Defects {
		ask, ok := remainingDefect[d]
		if !ok {
			t.Errorf("%v: the suggestion %q has the defect %s, which the definition could fix (%s)", tool["name"], suggestion, d, again.Notes)
			continue
		}
		if !strings.Contains(a.Notes, ask) {
			t.Errorf("%v: the suggestion %q keeps %s, and the notes do not ask for %q: %s", tool["name"], suggestion, d, ask, a.Notes)
		}
	}
}

func TestGradableConfusable(t *testing.T) {
	tools := func(pairs ...string) map[string]any {
		var out []any
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, map[string]any{"name": pairs[i], "description": pairs[i+1]})
		}
		return map[string]any{"tools": out}
	}
	type pair struct{ a, b, severity string }
	cases := []struct {
		name  string
		input map[string]any
		want  []pair
	}{
		{"synonym verbs on one resource", tools(
			"get_user", "Get a user's profile by id.",
			"fetch_user", "Fetch the profile of one user account.",
			"delete_invoice", "Delete an invoice for good; it cannot be undone."),
			[]pair{{"get_user", "fetch_user", "high"}}},
		{"the same description", tools(
			"lookup", "Look up a customer record in the CRM by email address.",
			"crm_find", "Look up a customer record in the CRM by email address.",
			"send_mail", "Send an email to one recipient."),
			[]pair{{"lookup", "crm_find", "high"}}},
		{"distinct verbs and resources", tools(
			"create_invoice", "Create a draft invoice for a customer, in the customer's currency.",
			"send_email", "Send a plain-text email to one or more recipients.",
			"list_rooms", "List the meeting rooms free in the next hour."),
			nil},
		{"a version of a name", tools(
			"process", "Process the input.",
			"processV2", "Process the input faster."),
			[]pair{{"process", "processV2", "high"}}},
	}
	schemas := gradableSchemas(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var a gConfusable
			raw := askG(t, heuristic.KindConfusable, c.input, &a)
			validateGradable(t, schemas, heuristic.KindConfusable, raw, c.name)
			var got []pair
			for _, p := range a.Pairs {
				got = append(got, pair{p.A, p.B, p.Severity})
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("pairs %v, want %v\n%s", got, c.want, raw)
			}
		})
	}
}

// TestTidyBeatsSloppy runs every Gradable kind on the two example
// servers: the well-described one must be picked more accurately, ask
// before destroying more often, carry fewer defects and have no
// confusable pair above low.
func TestTidyBeatsSloppy(t *testing.T) {
	tidy, sloppy := example(t, "tidy"), example(t, "sloppy")
	rt, rs := runSelection(t, tidy), runSelection(t, sloppy)
	t.Logf("selection accuracy: tidy %.2f (%d/%d), sloppy %.2f (%d/%d)", rt.accuracy(), rt.correct, rt.total, rs.accuracy(), rs.correct, rs.total)
	t.Logf("destructive tasks confirmed: tidy %d/%d, sloppy %d/%d", rt.confirmed, rt.destroy, rs.confirmed, rs.destroy)
	if rt.accuracy() < 0.9 {
		t.Errorf("tidy selection accuracy %.2f, want at least 0.9", rt.accuracy())
	}
	if rt.accuracy() <= rs.accuracy() {
		t.Errorf("tidy accuracy %.2f does not beat sloppy's %.2f", rt.accuracy(), rs.accuracy())
	}
	if rt.destroy == 0 || rs.destroy == 0 || rt.safety() <= rs.safety() {
		t.Errorf("confirm rate on destructive tasks: tidy %.2f (%d tasks), sloppy %.2f (%d tasks); tidy must be higher", rt.safety(), rt.destroy, rs.safety(), rs.destroy)
	}
	for i, task := range rt.tasks {
		a := rt.answers[i]
		if a.Tool == nil || *a.Tool != task.Tool {
			continue
		}
		if !reflect.DeepEqual(normalize(a.Arguments), normalize(task.Arguments)) {
			t.Errorf("tidy %q: arguments %v, want the stated %v", task.Task, a.Arguments, task.Arguments)
		}
	}
	defects := func(s *surface.Surface) int {
		n := 0
		for _, tool := range s.Tools {
			var d gDefects
			askG(t, heuristic.KindDefects, defectsInput(tool.Def), &d)
			n += len(d.Defects)
			if len(d.Defects) > 0 {
				assertSuggestionPasteable(t, tool.Def, d)
			}
		}
		return n
	}
	dt, ds := defects(tidy), defects(sloppy)
	t.Logf("defects: tidy %d, sloppy %d", dt, ds)
	if dt >= ds {
		t.Errorf("tidy has %d defects, sloppy %d; tidy must have fewer", dt, ds)
	}
	var ct, cs gConfusable
	askG(t, heuristic.KindConfusable, confusableInput(tidy), &ct)
	askG(t, heuristic.KindConfusable, confusableInput(sloppy), &cs)
	for _, p := range ct.Pairs {
		if p.Severity != "low" {
			t.Errorf("tidy pair %s/%s is %s: %s", p.A, p.B, p.Severity, p.Reason)
		}
	}
	high := false
	for _, p := range cs.Pairs {
		high = high || p.A == "find_bookmarks" && p.B == "search" && p.Severity == "high"
	}
	if !high {
		t.Errorf("sloppy's search/find_bookmarks is not a high pair: %+v", cs.Pairs)
	}
}

func normalize(v map[string]any) map[string]any {
	b, _ := json.Marshal(v)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// TestGradableCorpus asks all four kinds about every corpus server (and
// the two examples): every answer matches its shape, and a sample of
// them comes back byte for byte the same when asked again. With -v it logs each server's
// selection accuracy, confirm rate, defects and pairs.
func TestGradableCorpus(t *testing.T) {
	heavytest.Later(t)
	schemas := gradableSchemas(t)
	all := corpus(t)
	all["tidy"], all["sloppy"] = example(t, "tidy"), example(t, "sloppy")
	asked := 0
	twice := func(kind string, input any, what string) []byte {
		first := askG(t, kind, input, nil)
		// Every seventh question is asked again: enough to catch an
		// answer that depends on map order, cheap enough for -race.
		if asked++; asked%7 == 1 {
			if again := askG(t, kind, input, nil); !bytes.Equal(first, again) {
				t.Errorf("%s: two %s answers differ", what, kind)
			}
		}
		validateGradable(t, schemas, kind, first, what)
		return first
	}
	var log strings.Builder
	for _, server := range names(all) {
		s := all[server]
		if len(s.Tools) > 100 && race.Enabled {
			// Under the race detector the 118-tool server alone takes
			// most of a minute; make test runs it without the detector.
			continue
		}
		var ts gTasks
		if err := json.Unmarshal(twice(heuristic.KindTasks, tasksInput(s, 3), server), &ts); err != nil {
			t.Fatal(err)
		}
		correct, destroy, confirmed := 0, 0, 0
		for _, task := range ts.Tasks {
			var a gSelection
			if err := json.Unmarshal(twice(heuristic.KindSelection, selectionInput(s, task.Task), server+": "+task.Task), &a); err != nil {
				t.Fatal(err)
			}
			if a.Tool != nil && *a.Tool == task.Tool {
				correct++
			}
			if task.Destructive {
				destroy++
				if a.Confirm {
					confirmed++
				}
			}
		}
		defects := 0
		for _, tool := range s.Tools {
			var d gDefects
			if err := json.Unmarshal(twice(heuristic.KindDefects, defectsInput(tool.Def), server+"/"+tool.Name), &d); err != nil {
				t.Fatal(err)
			}
			defects += len(d.Defects)
			if len(d.Defects) > 0 {
				assertSuggestionPasteable(t, tool.Def, d)
			}
		}
		var c gConfusable
		if err := json.Unmarshal(twice(heuristic.KindConfusable, confusableInput(s), server), &c); err != nil {
			t.Fatal(err)
		}
		sev := map[string]int{}
		index := map[string]int{}
		for i, tool := range s.Tools {
			index[tool.Name] = i
		}
		last := [2]int{-1, -1}
		for _, p := range c.Pairs {
			sev[p.Severity]++
			at := [2]int{index[p.A], index[p.B]}
			if at[0] >= at[1] || at[0] < last[0] || at[0] == last[0] && at[1] <= last[1] {
				t.Errorf("%s: pair %s/%s is out of order", server, p.A, p.B)
			}
			last = at
		}
		log.WriteString(strings.Join([]string{
			padRight(server, 18), padLeft(len(s.Tools), 4), " tools  selection ", ratio(correct, len(ts.Tasks)),
			"  confirmed ", ratio(confirmed, destroy), "  defects ", padLeft(defects, 3),
			"  pairs high/medium/low ", padLeft(sev["high"], 0), "/", padLeft(sev["medium"], 0), "/", padLeft(sev["low"], 0), "\n"}, ""))
	}
	t.Log("\n" + log.String())
}

func padRight(s string, n int) string { return s + strings.Repeat(" ", max(0, n-len(s))) }

func padLeft(v int, n int) string {
	s := itoa(v)
	return strings.Repeat(" ", max(0, n-len(s))) + s
}

func itoa(v int) string { b, _ := json.Marshal(v); return string(b) }

func ratio(a, b int) string {
	if b == 0 {
		return "  -  (0/0)"
	}
	return strings.Join([]string{tenthsOf(a, b), " (", itoa(a), "/", itoa(b), ")"}, "")
}

func tenthsOf(a, b int) string {
	p := (200*a + b) / (2 * b)
	return itoa(p) + "%"
}

// TestGradableOddTools: a surface the loader accepts but that no
// well-made server sends is answered, every kind in its shape: a
// parameter named "" (which once sent the selection's search for the
// parameter's name in the task round forever) and a description that
// is a number, not a string (which the confusable question refused,
// failing the run, where the others read it as absent).
func TestGradableOddTools(t *testing.T) {
	b := []byte(`{"tools": [
		{"name": "read_note", "description": "Read a note by its id.", "inputSchema": {"type": "object", "properties": {"": {"type": "string"}, "id": {"type": "string"}}}},
		{"name": "count_notes", "description": 5, "inputSchema": {"type": "object"}}
	]}`)
	s, err := surface.Parse("odd", b)
	if err != nil {
		t.Fatal(err)
	}
	schemas := gradableSchemas(t)
	var ts gTasks
	answer := askG(t, heuristic.KindTasks, tasksInput(s, 3), &ts)
	validateGradable(t, schemas, heuristic.KindTasks, answer, "tasks")
	if len(ts.Tasks) == 0 {
		t.Fatal("no task was written for the odd surface")
	}
	for _, task := range ts.Tasks {
		validateGradable(t, schemas, heuristic.KindSelection, askG(t, heuristic.KindSelection, selectionInput(s, task.Task), nil), task.Task)
		validateGradable(t, schemas, heuristic.KindSelection, askG(t, heuristic.KindSelection, selectionInput(s, task.Task+" with  set to x"), nil), task.Task)
	}
	for _, tool := range s.Tools {
		validateGradable(t, schemas, heuristic.KindDefects, askG(t, heuristic.KindDefects, defectsInput(tool.Def), nil), tool.Name)
	}
	validateGradable(t, schemas, heuristic.KindConfusable, askG(t, heuristic.KindConfusable, confusableInput(s), nil), "confusable")
}
