package heuristic_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/judges/heuristic"
)

// Regression tests for issue 22 point 6: every explanation the heuristic
// writes must be true of the definitions it names. Each row is a small
// surface, the explanation it used to give, and what it must say now.

// coherenceOf asks the coherence question for tools given by name (and
// an optional description each, after a "|").
func coherenceOf(t *testing.T, tools ...string) map[string]dimensionAnswer {
	t.Helper()
	var list []map[string]any
	for _, n := range tools {
		name, desc, _ := strings.Cut(n, "|")
		tl := map[string]any{"name": name}
		if desc != "" {
			tl["description"] = desc
		}
		list = append(list, tl)
	}
	raw, _ := ask(t, heuristic.KindCoherence, map[string]any{"server": "s", "toolCount": len(list), "tools": list})
	var a struct {
		Scores map[string]dimensionAnswer `json:"scores"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	return a.Scores
}

type dimensionAnswer struct {
	Score         int    `json:"score"`
	Justification string `json:"justification"`
}

func TestCoherenceExplanationsAreTrue(t *testing.T) {
	for _, tc := range []struct {
		name      string
		tools     []string
		dimension string
		score     int      // 0: any
		says      []string // in the justification
		never     []string // never in it
	}{
		{
			name:      "a full lifecycle of a generic noun",
			tools:     []string{"create_task", "list_tasks", "update_task", "delete_task"},
			dimension: "completeness", score: 5,
			says:  []string{"(task) has create, read, update and delete"},
			never: []string{"lacks", "no tool name creates, updates or deletes"},
		},
		{
			name:      "update and delete named for another resource",
			tools:     []string{"create_todo", "list_todos", "update_task", "delete_task"},
			dimension: "completeness",
			says:      []string{"no tool named for todo does update/delete (only delete_task, update_task do, on other resources)"},
			never:     []string{"lacks"},
		},
		{
			name:      "get_data is vague",
			tools:     []string{"get_data", "create_user", "delete_user", "list_users"},
			dimension: "disambiguation",
			says:      []string{"vague names (get_data)"},
			never:     []string{"none of the"},
		},
		{
			name:      "fetch_info is vague",
			tools:     []string{"fetch_info", "send_email", "list_emails"},
			dimension: "disambiguation",
			says:      []string{"vague names (fetch_info)"},
		},
		{
			name:      "a domain noun with a verb is not vague",
			tools:     []string{"create_task", "list_tasks", "send_message"},
			dimension: "disambiguation", score: 5,
			says: []string{"none of the 3 tools has a vague name"},
		},
		{
			name: "a delete named by a bare verb whose description names the resource",
			tools: []string{"find_bookmarks|Find bookmarks.", "update_bookmark|Updates a bookmark.", "remove|Removes a bookmark.",
				"get_data|Gets data."},
			dimension: "completeness", score: 4,
			says:  []string{"75% of the create/read/update/delete operations", "no tool named for bookmark does create."},
			never: []string{"another resource", "does create/delete"},
		},
		{
			name:      "a delete whose resource nothing names",
			tools:     []string{"create_task", "list_tasks", "update_task", "remove|Removes an item."},
			dimension: "completeness",
			says:      []string{"no tool named for task does delete (only remove does, but its name names no resource)"},
			never:     []string{"another resource"},
		},
		{
			name:      "deletes on another resource and on an unnamed one",
			tools:     []string{"create_todo", "list_todos", "update_todo", "delete_task", "remove|Removes an item."},
			dimension: "completeness",
			says:      []string{"no tool named for todo does delete (delete_task does, on another resource; remove does, but its name names no resource)"},
			never:     []string{"(only delete_task", "(only remove"},
		},
		{
			name:      "one issue is one",
			tools:     []string{"get_data", "create_user", "delete_user", "list_users"},
			dimension: "disambiguation",
			says:      []string{"1 issue among 4 tools"},
			never:     []string{"(s)"},
		},
		{
			name:      "put is an update",
			tools:     []string{"put_object", "get_object", "delete_object", "list_objects", "create_object"},
			dimension: "completeness", score: 5,
			says: []string{"(object) has create, read, update and delete"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := coherenceOf(t, tc.tools...)[tc.dimension]
			checkJustification(t, tc.dimension, d.Score, d.Justification, tc.score, tc.says, tc.never)
		})
	}
}

func TestPutAndDeleteAreNotConfused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tools []map[string]any
	}{
		{"put and delete a blob", []map[string]any{
			{"name": "put_blob", "description": "Blob container storage account operation on the blob with name in the container of the account."},
			{"name": "delete_blob", "description": "Blob container storage account operation on the blob with name in the container of the account, gone."},
			{"name": "list_containers", "description": "List the containers."},
		}},
		{"put and delete a secret", []map[string]any{
			{"name": "put_secret", "description": "Store a secret in the vault at the given path, with its key and value, for the given mount and namespace."},
			{"name": "delete_secret", "description": "Delete a secret in the vault at the given path, with its key, for the given mount and namespace."},
			{"name": "list_mounts", "description": "List the mounts."},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a gConfusable
			askG(t, heuristic.KindConfusable, map[string]any{"tools": tc.tools}, &a)
			for _, p := range a.Pairs {
				if p.Severity == "high" || p.Severity == "medium" {
					t.Errorf("%s / %s rated %s: %s", p.A, p.B, p.Severity, p.Reason)
				}
				if !strings.Contains(p.Reason, "different operations") {
					t.Errorf("%s / %s: reason %q does not say the operations differ", p.A, p.B, p.Reason)
				}
			}
		})
	}
}

// TestSynonymousVerbsAreNotTheSameVerb: github's create_issue and
// add_issue_comment were paired for the "same verb"; their verbs are two,
// which the heuristic reads as synonyms, and the reason says so. A pair
// that does share its verb still says "same verb".
func TestSynonymousVerbsAreNotTheSameVerb(t *testing.T) {
	for _, tc := range []struct {
		name        string
		tools       []map[string]any
		says, never string
	}{
		{"create and add", []map[string]any{
			{"name": "create_issue", "description": "Create a new issue in a GitHub repository"},
			{"name": "add_issue_comment", "description": "Add a comment to an existing issue"},
			{"name": "list_commits", "description": "Get list of commits of a branch"},
		}, "synonymous verbs (create, add)", "same verb"},
		{"get and get", []map[string]any{
			{"name": "get_pull_request", "description": "Get details of a specific pull request"},
			{"name": "get_pull_request_files", "description": "Get the list of files changed in a pull request"},
			{"name": "merge_branch", "description": "Merge a branch"},
		}, "same verb", "synonymous"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a gConfusable
			askG(t, heuristic.KindConfusable, map[string]any{"tools": tc.tools}, &a)
			if len(a.Pairs) == 0 {
				t.Fatalf("no pair: the case no longer tests the reason")
			}
			for _, p := range a.Pairs {
				if !strings.Contains(p.Reason, tc.says) || strings.Contains(p.Reason, tc.never) {
					t.Errorf("%s / %s: reason %q, want it to say %q and not %q", p.A, p.B, p.Reason, tc.says, tc.never)
				}
			}
		})
	}
}

// TestContradictionNeedsContext: phrases matched out of context flagged
// tools as contradicting their annotations, forcing transparency to 1.
// A negation, a "does not modify", a phrase about what the tool acts on
// or about another subject is no contradiction; the plain cases still
// are.
func TestContradictionNeedsContext(t *testing.T) {
	ro := map[string]any{"readOnlyHint": true}
	destructive := map[string]any{"destructiveHint": true, "readOnlyHint": false}
	safe := map[string]any{"destructiveHint": false, "readOnlyHint": false}
	for _, tc := range []struct {
		name string
		tool toolSpec
		want bool
	}{
		{"write verb of a tool that says it modifies nothing", toolSpec{name: "snapshot_view", desc: "Create a read-only view of the query results; it does not modify the database.", annotations: ro}, false},
		{"a verb of another subject after which", toolSpec{name: "list_jobs", desc: "List the scheduled jobs which creates reports every night.", annotations: ro}, false},
		{"a claim negated after it", toolSpec{name: "get_status", desc: "It creates nothing and deletes nothing: returns the status of the sync.", annotations: ro}, false},
		{"read-only of the files it acts on", toolSpec{name: "delete_file", desc: "Delete a file. Fails on read-only files.", annotations: destructive}, false},
		{"read-only negated", toolSpec{name: "remove_branch", desc: "Remove a branch. This is not a read-only operation.", annotations: destructive}, false},
		{"permanently of something else, as a participle", toolSpec{name: "list_trash", desc: "List the items in the trash, which are permanently deleted after 30 days.", annotations: ro}, false},
		{"destroys of another subject", toolSpec{name: "get_cleanup_report", desc: "Get the report of what the cleanup job destroys each night.", annotations: ro}, false},
		{"a tool that creates, read-only", toolSpec{name: "make_record", desc: "A tool that creates records in the database.", annotations: ro}, true},
		{"permanently deletes, not destructive", toolSpec{name: "purge_record", desc: "Permanently deletes the record.", annotations: safe}, true},
		{"it wipes, read-only", toolSpec{name: "reset_cache", desc: "Reset the cache state. It wipes every entry.", annotations: ro}, true},
		{"destructive says it changes nothing", toolSpec{name: "drop_table", desc: "Drop a table. This tool has no side effects.", annotations: destructive}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, a := ask(t, heuristic.KindTool, tc.tool.input())
			if a.AnnotationContradiction != tc.want {
				t.Errorf("annotation_contradiction = %v, want %v (%s)", a.AnnotationContradiction, tc.want, a.Scores["behavioral_transparency"].Justification)
			}
			if !tc.want && a.Scores["behavioral_transparency"].Score == 1 {
				t.Errorf("transparency 1 without a contradiction: %s", a.Scores["behavioral_transparency"].Justification)
			}
		})
	}
}

// TestToolExplanationsAreTrue: the per-tool justifications say what
// triggered them, with counts and plurals that agree and each quoted
// phrase quoted once (QA of issue 22: "a missing, placeholder or
// one-word description" of two-word descriptions, "2 word(s)", a %q
// over phrases already joined with quotes).
func TestToolExplanationsAreTrue(t *testing.T) {
	one := []paramSpec{{name: "id"}}
	for _, tc := range []struct {
		name      string
		tool      toolSpec
		dimension string
		score     int      // 0: any
		says      []string // in the justification
		never     []string // never in it
	}{
		{"two words, no annotations", toolSpec{name: "export", desc: "Exports bookmarks."}, "behavioral_transparency", 1,
			[]string{"no annotations and a description of only 2 words: nothing is disclosed."}, []string{"one-word", "missing", "placeholder"}},
		{"one word, no annotations", toolSpec{name: "export", desc: "Exports."}, "behavioral_transparency", 1,
			[]string{"a description of only 1 word: nothing"}, []string{"1 words"}},
		{"placeholder, no annotations", toolSpec{name: "export", desc: "TODO: write this."}, "behavioral_transparency", 1,
			[]string{`no annotations and a placeholder description ("todo"): nothing`}, []string{"one-word", "words"}},
		{"no description, no annotations", toolSpec{name: "export", noDesc: true}, "behavioral_transparency", 1,
			[]string{"no annotations and no description: nothing is disclosed."}, []string{"one-word", "placeholder"}},
		{"two words are under-specification", toolSpec{name: "export", desc: "Exports bookmarks."}, "conciseness_structure", 2,
			[]string{`2 words ("Exports bookmarks.") is under-specification`}, []string{"(s)"}},
		{"one word is under-specification", toolSpec{name: "export", desc: "Exports."}, "conciseness_structure", 2,
			[]string{`1 word ("Exports.") is under-specification`}, []string{"(s)", "1 words"}},
		{"one sentence", toolSpec{name: "export_bookmarks", desc: "Export every bookmark of the account as one HTML or JSON file, newest first, with tags and folders kept."}, "conciseness_structure", 0,
			[]string{"words in 1 sentence"}, []string{"(s)"}},
		{"filler phrases quoted one by one", toolSpec{name: "export_bookmarks", desc: "This simply exports every bookmark of the account; it just writes one HTML or JSON file with tags and folders kept."}, "conciseness_structure", 0,
			[]string{`filler such as "simply", "just"`}, []string{`\"`}},
		{"the one parameter", toolSpec{name: "remove", desc: "Removes a bookmark.", params: one}, "parameter_semantics", 1,
			[]string{"the one parameter has no description and the description does not name it."}, []string{"0% of 1", "none of them"}},
		{"one named parameter takes values", toolSpec{name: "save", desc: "Saves a bookmark from data.", params: []paramSpec{{name: "data"}}}, "parameter_semantics", 2,
			[]string{"names data but does not say what values it takes."}, []string{"they take"}},
		{"one undescribed parameter", toolSpec{name: "rename_bookmark", desc: "Rename a bookmark; the to parameter is the new title, as plain text.",
			params: []paramSpec{{name: "id", desc: "The bookmark's id."}, {name: "to"}}}, "parameter_semantics", 4,
			[]string{"names the undescribed parameter to, with a format or value cue ("}, []string{"parameters to", "explains"}},
		// filesystem's move_file said "constraints (\"allowed director\")"
		// and git_log "authentication (\"auth\")": a cue's stem, words the
		// text does not hold. The quote is the word that matched.
		{"a stem's whole word quoted", toolSpec{name: "move_file", desc: "Move a file. Both paths must be within allowed directories."}, "behavioral_transparency", 0,
			[]string{`constraints ("allowed directories")`}, []string{`"allowed director"`}},
		{"a stem quoted as the text has it", toolSpec{name: "view_log", desc: "View the commit history of a private repository; it needs authentication."}, "behavioral_transparency", 0,
			[]string{`authentication ("authentication")`}, []string{`("auth")`}},
		// notion's API-update-page-markdown: usage "only implied (\"e g\")",
		// its text says "(e.g. row limit exceeded)". Since 1.5.8 that
		// example of a value implies no usage; an example of a use ("e.g.
		// to fix a typo") does, quoted as written.
		{"an abbreviation quoted as written", toolSpec{name: "update_page", desc: "Update a page, e.g. to fix a typo. Fails on a conflict."}, "usage_guidelines", 3,
			[]string{`usage is only implied ("e.g.")`}, []string{`"e g"`}},
		{"a value cue quoted as written", toolSpec{name: "rename_bookmark", desc: "Rename a bookmark; the to parameter is the new title, e.g. Reading list.",
			params: []paramSpec{{name: "id", desc: "The bookmark's id."}, {name: "to"}}}, "parameter_semantics", 4,
			[]string{`names the undescribed parameter to, with a format or value cue ("e.g.")`}, []string{`"e g"`}},
		{"a complex tool of one parameter", toolSpec{name: "update_bookmark", desc: "Updates a bookmark's fields.", params: []paramSpec{{name: "fields", nested: true}}}, "contextual_completeness", 0,
			[]string{"a description long enough for a tool whose one parameter holds nested objects"}, []string{"1 parameters", "complex tool ("}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, a := ask(t, heuristic.KindTool, tc.tool.input())
			d := a.Scores[tc.dimension]
			checkJustification(t, tc.dimension, d.Score, d.Justification, tc.score, tc.says, tc.never)
		})
	}
}

// TestCountsAgreeWithTheirNouns: a coherence summary and a selection's
// reasoning over one tool say so, not "the 1 tools".
func TestCountsAgreeWithTheirNouns(t *testing.T) {
	raw, _ := ask(t, heuristic.KindCoherence, map[string]any{"server": "s", "toolCount": 1, "tools": []map[string]any{{"name": "export_bookmarks"}}})
	var c struct{ Summary string }
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Summary, `scored the only tool of "s"`) {
		t.Errorf("summary %q", c.Summary)
	}
	var a gSelection
	askG(t, heuristic.KindSelection, map[string]any{"version": "selection-v1", "task": "Water the plants",
		"tools": []map[string]any{{"name": "export_bookmarks", "description": "Export every bookmark as a file."}}}, &a)
	if a.Tool != nil || !strings.Contains(a.Reasoning, "matches the only tool's name, title, description or parameters") {
		t.Errorf("tool %v, reasoning %q", a.Tool, a.Reasoning)
	}
}

// TestSuggestionReadsAsADescription: issue 22 wants a suggested
// description an author can paste. The QA pass still saw "Get data. When
// to use it and what it changes are not documented; state them." Now
// the suggestion says what the definition shows, and the notes, outside
// it, what the author must add.
func TestSuggestionReadsAsADescription(t *testing.T) {
	for _, tc := range []struct {
		name       string
		tool       map[string]any
		suggestion string
		notes      []string
	}{
		{"get_data of the sloppy server", map[string]any{"name": "get_data", "description": "Gets data.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{}}}},
			"Get data. Optional: id.",
			[]string{"add what the definition does not show: when to use it and what it changes; what the call returns."}},
		{"a required parameter with nothing said of it", map[string]any{"name": "update_bookmark", "description": "Updates a bookmark.",
			"inputSchema": map[string]any{"type": "object", "required": []any{"id"}, "properties": map[string]any{"id": map[string]any{"type": "string"}}}},
			"Update a bookmark. Requires id (string).",
			[]string{"what id means and which values it accepts", "verify it against the implementation"}},
		{"what the output schema says", map[string]any{"name": "count_words", "description": "Counts words.",
			"annotations":  map[string]any{"readOnlyHint": true},
			"outputSchema": map[string]any{"type": "object", "description": "The number of words."}},
			"Count words. Read-only: it changes nothing. Returns the number of words.",
			[]string{"when to use it and what it changes."}},
		// github's list_issues has seven optional parameters; the
		// suggestion named six and ended, as if state were not one.
		{"more optional parameters than a suggestion lists", map[string]any{"name": "list_issues",
			"description": "List issues in a repository with filtering options",
			"inputSchema": map[string]any{"type": "object", "required": []any{"repo"}, "properties": map[string]any{
				"repo": map[string]any{"type": "string", "description": "Repository name"}, "direction": map[string]any{"type": "string"},
				"labels": map[string]any{"type": "string"}, "page": map[string]any{"type": "number"}, "per_page": map[string]any{"type": "number"},
				"since": map[string]any{"type": "string"}, "sort": map[string]any{"type": "string"}, "state": map[string]any{"type": "string"}}}},
			"List issues in a repository with filtering options. Requires repo (string): Repository name. " +
				"Optional: direction (string), labels (string), page (number), per_page (number), since (string), sort (string), and 1 more (see the inputSchema).",
			[]string{"what the call returns"}},
		// github's get_pull_request_status: the purpose was cut at six
		// words, "Get the combined status of all status."
		{"a purpose longer than a task's object", map[string]any{"name": "get_pull_request_status",
			"description": "Get the combined status of all status checks for a pull request",
			"inputSchema": map[string]any{"type": "object", "required": []any{"pull_number"}, "properties": map[string]any{
				"pull_number": map[string]any{"type": "number", "description": "Pull request number"}}}},
			"Get the combined status of all status checks. Requires pull_number (number): Pull request number.",
			[]string{"when to use it and what it changes", "what the call returns"}},
		// With no natural end within the bound, the name's verb and
		// resource, not a phrase cut short.
		{"a purpose with no end in sight", map[string]any{"name": "get_status",
			"description": "Get status " + strings.Repeat("very ", 20) + "much",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}}},
			"Get the status.",
			[]string{"what the call returns"}},
		{"nothing but a name", map[string]any{"name": "frobnicate"},
			"",
			[]string{"show nothing a better description could say, and add what the definition does not show: what the tool does to the frobnicate; when to use it and what it changes; what the call returns."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a gDefects
			askG(t, heuristic.KindDefects, defectsInput(tc.tool), &a)
			if a.SuggestedDescription != tc.suggestion {
				t.Errorf("suggestion %q, want %q", a.SuggestedDescription, tc.suggestion)
			}
			for _, n := range tc.notes {
				if !strings.Contains(a.Notes, n) {
					t.Errorf("notes %q do not say %q", a.Notes, n)
				}
			}
			assertSuggestionPasteable(t, tc.tool, a)
		})
	}
}

// checkJustification holds a dimension's answer to a case: its score,
// when the case gives one (0: any), and a justification that says each
// of says and none of never.
func checkJustification(t *testing.T, dimension string, score int, justification string, want int, says, never []string) {
	t.Helper()
	if want != 0 && score != want {
		t.Errorf("%s = %d, want %d (%s)", dimension, score, want, justification)
	}
	for _, s := range says {
		if !strings.Contains(justification, s) {
			t.Errorf("justification %q does not say %q", justification, s)
		}
	}
	for _, s := range never {
		if strings.Contains(justification, s) {
			t.Errorf("justification %q says %q", justification, s)
		}
	}
}
