package heuristic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/heuristic"
)

// answerSchemas compiles the JSON Schemas of the two answer shapes.
func answerSchemas(t testing.TB) (tool, coherence *jsonschema.Schema) {
	t.Helper()
	compile := func(name string) *jsonschema.Schema {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(name, doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(name)
		if err != nil {
			t.Fatalf("%s is not a valid JSON Schema: %v", name, err)
		}
		return s
	}
	return compile("tool_answer.schema.json"), compile("coherence_answer.schema.json")
}

// validate checks an answer against its schema, and that every
// justification and the summary say that they come from a heuristic.
func validate(t testing.TB, s *jsonschema.Schema, answerJSON []byte, what string) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(answerJSON))
	if err != nil {
		t.Fatalf("%s: answer is not JSON: %v", what, err)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("%s: answer does not match its schema: %v\n%s", what, err, answerJSON)
	}
	var a answer
	if err := json.Unmarshal(answerJSON, &a); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Summary, "Heuristic: ") {
		t.Errorf("%s: summary %q does not say it is heuristic", what, a.Summary)
	}
	for k, d := range a.Scores {
		if !strings.HasPrefix(d.Justification, "Heuristic: ") {
			t.Errorf("%s: %s justification %q does not say it is heuristic", what, k, d.Justification)
		}
	}
}

func TestIdentity(t *testing.T) {
	ctx := context.Background()
	j := heuristic.New()
	want := judge.Identity{Plugin: "heuristic", Version: "1.5.11", Provider: "rubric", Model: "heuristic-1", Heuristic: true}
	got, err := j.Describe(ctx)
	if err != nil || !identityEqual(got, want) {
		t.Fatalf("Describe = %+v, %v; want %+v", got, err, want)
	}
	for _, model := range []string{"", "heuristic-1"} {
		got, err := j.Configure(ctx, judge.Config{Model: model})
		if err != nil || !identityEqual(got, want) {
			t.Errorf("Configure(model %q) = %+v, %v; want %+v", model, got, err, want)
		}
	}
}

// TestConfigureRefusesOptions: the rules have no settings, so any option,
// a misspelt one included, is refused rather than ignored.
func TestConfigureRefusesOptions(t *testing.T) {
	const leaveIt = ": leave it out, or name a judge that takes options with --judge (openai, anthropic, claude-cli)"
	const leaveThem = ": leave them out, or name a judge that takes options with --judge (openai, anthropic, claude-cli)"
	cases := []struct {
		opts map[string]string
		want string
	}{
		{map[string]string{"temperature": "0.7"}, `the heuristic judge takes no options, not "temperature"` + leaveIt},
		{map[string]string{"seed": "7", "base_url": "http://h"}, `the heuristic judge takes no options, not "base_url", "seed"` + leaveThem},
		{map[string]string{"temperature": ""}, `the heuristic judge takes no options, not "temperature"` + leaveIt},
	}
	for _, c := range cases {
		_, err := heuristic.New().Configure(context.Background(), judge.Config{Options: c.opts})
		if err == nil || err.Error() != c.want {
			t.Errorf("%v:\n got  %v\n want %s", c.opts, err, c.want)
		}
	}
}

func identityEqual(a, b judge.Identity) bool {
	return a.Plugin == b.Plugin && a.Version == b.Version && a.Provider == b.Provider && a.Model == b.Model && a.Heuristic == b.Heuristic && a.Params == nil
}

func TestConfigureRefusesOtherModels(t *testing.T) {
	for _, model := range []string{"gpt-5", "claude-opus-5-5", "heuristic-2", "Heuristic-1"} {
		_, err := heuristic.New().Configure(context.Background(), judge.Config{Model: model})
		if err == nil {
			t.Errorf("Configure(model %q) succeeded; want a refusal", model)
			continue
		}
		msg := err.Error()
		for _, want := range []string{`"heuristic-1"`, `"` + model + `"`, "only one model"} {
			if !strings.Contains(msg, want) {
				t.Errorf("Configure(model %q) error %q does not contain %q", model, msg, want)
			}
		}
	}
}

func TestAskRefuses(t *testing.T) {
	cases := []struct {
		name, kind, input, want string
	}{
		{"unknown kind", "gradable.rewrite", `{}`, `the heuristic judge cannot answer questions of kind "gradable.rewrite" (it answers tdqs.tool, tdqs.coherence, gradable.tasks, gradable.selection, gradable.defects, gradable.confusable)`},
		{"empty kind", "", `{}`, `the heuristic judge cannot answer questions of kind "" (it answers tdqs.tool, tdqs.coherence, gradable.tasks`},
		{"tasks input not JSON", "gradable.tasks", `{"tools":{}}`, "the question's input is not a gradable.tasks object"},
		{"selection input not JSON", "gradable.selection", `[`, "the question's input is not a gradable.selection object"},
		{"defects without a tool", "gradable.defects", `{"tool":null}`, `the question's input has no "tool" object with a "name"`},
		{"confusable input not JSON", "gradable.confusable", `{"tools":3}`, "the question's input is not a gradable.confusable object"},
		{"tool input not JSON", "tdqs.tool", `{"tool":`, "the question's input is not a tdqs.tool object"},
		{"no tool", "tdqs.tool", `{"siblings":[]}`, `the question's input has no "tool" object`},
		{"tool without a name", "tdqs.tool", `{"tool":{"description":"List files."}}`, `the question's tool has no "name"`},
		{"coherence input not JSON", "tdqs.coherence", `[1,2]`, "the question's input is not a tdqs.coherence object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := heuristic.New().Ask(context.Background(), judge.Question{Kind: c.kind, Input: []byte(c.input)})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Ask error = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestAskHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in, _ := json.Marshal(toolSpec{name: "x", desc: "List things."}.input())
	if _, err := heuristic.New().Ask(ctx, judge.Question{Kind: heuristic.KindTool, Input: in}); err != context.Canceled {
		t.Errorf("Ask on a cancelled context = %v, want context.Canceled", err)
	}
}

// TestAskReadsOnlyTheInput: the prompt text and everything else in the
// question but the kind and input leave the answer unchanged.
func TestAskReadsOnlyTheInput(t *testing.T) {
	in, _ := json.Marshal(toolSpec{name: "get_user", desc: "Get a user by id."}.input())
	j := heuristic.New()
	a, err := j.Ask(context.Background(), judge.Question{Kind: heuristic.KindTool, Input: in})
	if err != nil {
		t.Fatal(err)
	}
	b, err := j.Ask(context.Background(), judge.Question{Kind: heuristic.KindTool, Input: in, Rubric: "tdqs", System: "Score generously.", User: "Give every dimension a 5.", Subject: "get_user"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.JSON, b.JSON) {
		t.Errorf("the prompt changed the answer:\n%s\n%s", a.JSON, b.JSON)
	}
}

// TestDeterministic asks the same questions twice, and the same tool
// with its JSON keys in another order, and expects the same bytes.
func TestDeterministic(t *testing.T) {
	for _, s := range append(append([]toolSpec{}, knownGood...), knownPoor...) {
		in, _ := json.Marshal(s.input())
		a, _ := askRaw(t, heuristic.KindTool, in)
		b, _ := askRaw(t, heuristic.KindTool, in)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two answers differ:\n%s\n%s", s.name, a, b)
		}
	}
	one := `{"tool":{"name":"f","description":"Fetch a page. Returns JSON.","inputSchema":{"type":"object","properties":{"url":{"type":"string","description":"Page URL"},"timeout":{"type":"number"}}},"annotations":{"readOnlyHint":true,"openWorldHint":true}},"siblings":["b","a"]}`
	two := `{"siblings":["b","a"],"tool":{"annotations":{"openWorldHint":true,"readOnlyHint":true},"inputSchema":{"properties":{"timeout":{"type":"number"},"url":{"description":"Page URL","type":"string"}},"type":"object"},"description":"Fetch a page. Returns JSON.","name":"f"}}`
	a, _ := askRaw(t, heuristic.KindTool, []byte(one))
	b, _ := askRaw(t, heuristic.KindTool, []byte(two))
	if !bytes.Equal(a, b) {
		t.Errorf("key order changed the answer:\n%s\n%s", a, b)
	}
}

// TestSignalsAreOptional: the engine's precomputed signals, present or
// absent, right or wrong, do not move the answer.
func TestSignalsAreOptional(t *testing.T) {
	in := toolSpec{name: "get_calls", desc: "List calls in a date range.", params: []paramSpec{{name: "from", desc: "Start date"}}}.input()
	without, _ := ask(t, heuristic.KindTool, in)
	in["signals"] = map[string]any{"paramCount": 9, "schemaDescriptionCoverage": 0, "hasAnnotations": true, "inputHash": "0123456789abcdef"}
	with, _ := ask(t, heuristic.KindTool, in)
	if !bytes.Equal(without, with) {
		t.Errorf("signals changed the answer:\n%s\n%s", without, with)
	}
}

// TestAnswersMatchSchemas covers the odd inputs: no description, a null
// one, no input schema, no tools, a count larger than the tools listed.
func TestAnswersMatchSchemas(t *testing.T) {
	toolSchema, coherenceSchema := answerSchemas(t)
	tools := map[string]string{
		"null description":   `{"tool":{"name":"a","description":null,"inputSchema":{"type":"object"}}}`,
		"no description":     `{"tool":{"name":"a"}}`,
		"non-string fields":  `{"tool":{"name":"a","description":7,"title":false,"inputSchema":{"properties":[]},"annotations":"x","outputSchema":1}}`,
		"property not a map": `{"tool":{"name":"a","description":"List a.","inputSchema":{"properties":{"p":true}}}}`,
		"unicode":            `{"tool":{"name":"读取","description":"读取本地文本文件。返回 UTF-8 文本。\n\n参数：path"}}`,
	}
	for name, in := range tools {
		raw, _ := askRaw(t, heuristic.KindTool, []byte(in))
		validate(t, toolSchema, raw, name)
	}
	for _, s := range append(append([]toolSpec{}, knownGood...), knownPoor...) {
		raw, _ := ask(t, heuristic.KindTool, s.input())
		validate(t, toolSchema, raw, s.name)
	}
	surfaces := map[string]string{
		"no tools":           `{"server":"s","toolCount":0,"tools":[]}`,
		"count only":         `{"server":"s","toolCount":40}`,
		"one tool":           `{"tools":[{"name":"run","description":null}]}`,
		"duplicate names":    `{"server":"s","tools":[{"name":"a"},{"name":"a"}]}`,
		"empty name":         `{"server":"s","tools":[{"name":""},{"name":"b_c"}]}`,
		"count below listed": `{"server":"s","toolCount":1,"tools":[{"name":"a"},{"name":"b"},{"name":"c"}]}`,
	}
	for name, in := range surfaces {
		raw, _ := askRaw(t, heuristic.KindCoherence, []byte(in))
		validate(t, coherenceSchema, raw, name)
	}
}

// knownGood are descriptions a careful maintainer would write: purpose
// first, when to use and what instead, effects, limits and returns.
var knownGood = []toolSpec{
	{
		name:        "search_issues",
		desc:        "Search issues across every project the token can see, by text, label, assignee or state. Use this when you do not know an issue's number; to fetch an issue you already know, use get_issue instead. Results are paginated (50 per page; pass the returned cursor for the next page) and sorted by last update.",
		params:      []paramSpec{{"query", "Free text matched against title and body", true, false}, {"labels", "Label names; an issue must carry all of them", false, false}, {"assignee", "Username of the assignee", false, false}, {"state", "open, closed or all (default open)", false, false}, {"cursor", "Cursor from the previous page", false, false}},
		annotations: map[string]any{"readOnlyHint": true, "openWorldHint": true},
		siblings:    []string{"get_issue", "create_issue", "update_issue"},
	},
	{
		name:        "delete_branch",
		desc:        "Delete a branch from a repository. This is permanent: the branch ref is removed and cannot be restored, though its commits stay reachable from other branches or tags. Do not use this on the default branch (the call fails with an error); to undo work on a branch, use revert_commit instead. Requires write permission on the repository.",
		params:      []paramSpec{{"owner", "Repository owner", true, false}, {"repo", "Repository name", true, false}, {"branch", "Branch to delete, without refs/heads/", true, false}},
		annotations: map[string]any{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true},
		siblings:    []string{"create_branch", "list_branches", "revert_commit"},
	},
	{
		name:        "send_email",
		desc:        "Send an email from the authenticated user's mailbox. Use this only when the user has asked for a message to go out; to prepare a message for review, use create_draft instead. The message is delivered at once and stored in Sent. Returns the sent message's id and thread id. Subject to the provider's rate limit of 100 messages per hour.",
		params:      []paramSpec{{"to", "Recipient addresses", true, false}, {"subject", "Subject line", true, false}, {"body", "Plain-text body", true, false}, {"cc", "Carbon-copy addresses", false, false}},
		annotations: map[string]any{"readOnlyHint": false, "destructiveHint": false, "openWorldHint": true},
		siblings:    []string{"create_draft", "list_messages"},
	},
	{
		name:        "get_weather_forecast",
		desc:        "Get the hourly weather forecast for a location up to 7 days ahead. Use this for future conditions; for conditions right now, use get_current_weather instead. The location parameter accepts a city name or latitude,longitude (e.g. '52.52,13.40'), and units default to metric. Returns one entry per hour with temperature, precipitation probability and wind.",
		params:      []paramSpec{{"location", "City name or 'lat,lon'", true, false}, {"days", "Days ahead, 1 to 7", false, false}, {"units", "metric or imperial", false, false}},
		annotations: map[string]any{"readOnlyHint": true, "openWorldHint": true},
		siblings:    []string{"get_current_weather"},
	},
	{
		name:        "run_sql_query",
		desc:        "Run a read-only SQL query against the analytics warehouse and return the rows as JSON. Use this for aggregate questions; to look up one record by id, use get_record instead. Queries time out after 30 seconds and results are truncated at 1,000 rows, so add a LIMIT for large tables. Statements that write (INSERT, UPDATE, DELETE) are rejected with an error.",
		params:      []paramSpec{{"sql", "A single SELECT statement", true, false}, {"timeout_seconds", "Up to 30", false, false}},
		annotations: map[string]any{"readOnlyHint": true, "openWorldHint": false},
		siblings:    []string{"get_record", "list_tables"},
	},
}

// knownPoor are descriptions that leave a model guessing.
var knownPoor = []toolSpec{
	{name: "do_task", desc: "Does the task.", params: []paramSpec{{name: "input"}, {name: "opts", nested: true}}},
	{name: "helper", noDesc: true, params: []paramSpec{{name: "x"}, {name: "y"}}},
	{name: "get_user", desc: "Get user", params: []paramSpec{{name: "id", required: true}}},
	{name: "update", desc: "Updates stuff in the system. Pass the data.", params: []paramSpec{{name: "id"}, {name: "data", nested: true}}},
	{
		name:   "manage_records",
		desc:   "This tool allows you to manage records. It can be used to do many different things with records, depending on what you pass in. It is very powerful and flexible and simply handles everything.",
		params: []paramSpec{{name: "action"}, {name: "payload", nested: true}, {name: "options"}},
	},
}

// TestKnownGoodAbovePoor pins the order that matters most: every
// well-described tool scores above every poorly described one, the good
// ones land in tier A or B, the poor ones in C or below.
func TestKnownGoodAbovePoor(t *testing.T) {
	lowestGood, highestPoor := 100, 0
	var lowName, highName string
	for _, s := range knownGood {
		_, a := ask(t, heuristic.KindTool, s.input())
		v := tdqsTenths(a)
		t.Logf("good %-22s TDQS %s (%s)", s.name, tenths(v), a.Summary)
		if v < lowestGood {
			lowestGood, lowName = v, s.name
		}
		if got := tier(v); got != "A" && got != "B" {
			t.Errorf("good tool %s: TDQS %s, tier %s; want A or B", s.name, tenths(v), got)
		}
	}
	for _, s := range knownPoor {
		_, a := ask(t, heuristic.KindTool, s.input())
		v := tdqsTenths(a)
		t.Logf("poor %-22s TDQS %s (%s)", s.name, tenths(v), a.Summary)
		if v > highestPoor {
			highestPoor, highName = v, s.name
		}
		if got := tier(v); got == "A" || got == "B" {
			t.Errorf("poor tool %s: TDQS %s, tier %s; want C or below", s.name, tenths(v), got)
		}
	}
	if lowestGood <= highestPoor {
		t.Errorf("the lowest good tool (%s, %s) does not score above the highest poor one (%s, %s)", lowName, tenths(lowestGood), highName, tenths(highestPoor))
	}
}

// cueCase is one row of a per-dimension cue table: a tool, the score the
// dimension should get, and words its justification must cite.
type cueCase struct {
	name  string
	tool  toolSpec
	want  int
	cites []string
}

func runCues(t *testing.T, key string, cases []cueCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.tool.name == "" {
				c.tool.name = "tool"
			}
			_, a := ask(t, heuristic.KindTool, c.tool.input())
			d := a.Scores[key]
			if d.Score != c.want {
				t.Errorf("%s = %d, want %d: %s", key, d.Score, c.want, d.Justification)
			}
			for _, w := range c.cites {
				if !strings.Contains(d.Justification, w) {
					t.Errorf("%s justification does not cite %q: %s", key, w, d.Justification)
				}
			}
		})
	}
}

func TestPurposeCues(t *testing.T) {
	runCues(t, "purpose_clarity", []cueCase{
		{"missing", toolSpec{name: "get_user", noDesc: true}, 1, []string{"no description"}},
		{"empty", toolSpec{name: "get_user", desc: "   "}, 1, []string{"no description"}},
		{"vague words only", toolSpec{name: "process", desc: "Process"}, 1, []string{`"Process"`, "vague"}},
		{"vague verb and generic noun", toolSpec{name: "x", desc: "Handles the request."}, 1, []string{"vague"}},
		{"restates the name", toolSpec{name: "get_user", desc: "Get user"}, 2, []string{"restates"}},
		{"restates the title", toolSpec{name: "gu", title: "Get User Profile", desc: "Gets the user profile."}, 2, []string{"restates"}},
		{"no leading verb", toolSpec{name: "weather", desc: "Weather data for cities around the world."}, 3, []string{"no action verb"}},
		{"vague verb with a resource", toolSpec{name: "invoices", desc: "Handle the invoice approval workflow."}, 3, []string{`vague verb "handle"`}},
		{"verb and resource", toolSpec{name: "list_prs", desc: "List the open pull requests of a repository."}, 4, []string{`verb "list"`, "nothing sets it apart"}},
		{"third person verb", toolSpec{name: "prs", desc: "Retrieves the open pull requests of a repository."}, 4, []string{`verb "retrieve"`}},
		{"filler before the verb", toolSpec{name: "prs", desc: "This tool lets you list the open pull requests of a repository."}, 4, []string{`verb "list"`}},
		{"adverb before the verb", toolSpec{name: "delete_note", desc: "Permanently deletes a note and its attachments."}, 4, []string{`verb "delete"`}},
		{"name before the purpose", toolSpec{name: "list_prs", desc: "list_prs: List the open pull requests of a repository."}, 4, []string{`verb "list"`}},
		{"names a sibling", toolSpec{name: "list_prs", desc: "List the open pull requests of one repository. For all repositories, use search_prs.", siblings: []string{"search_prs"}}, 5, []string{"search_prs"}},
		{"contrast word", toolSpec{name: "list_prs", desc: "List the open pull requests of one repository, rather than searching across all of them."}, 5, []string{`"rather than"`}},
	})
}

func TestUsageCues(t *testing.T) {
	runCues(t, "usage_guidelines", []cueCase{
		{"missing", toolSpec{noDesc: true}, 1, []string{"missing"}},
		{"one word", toolSpec{desc: "Process"}, 1, []string{"too short"}},
		{"no guidance", toolSpec{name: "update_drive", desc: "Update shared drive settings including name, color, and restrictions."}, 2, []string{"no cue"}},
		{"implied", toolSpec{desc: "Convert an amount between currencies, for example to price an order abroad."}, 3, []string{`"for example"`}},
		{"when", toolSpec{desc: "Fetch recent news articles. Use this when the user asks about current events."}, 4, []string{`"use this when"`}},
		{"when not", toolSpec{desc: "Read a text file from disk. Do not use for binary files."}, 4, []string{`"do not use"`}},
		{"prerequisite", toolSpec{desc: "Commit the staged changes with a message. Requires that changes were staged first."}, 4, []string{`"requires"`}},
		{"when, not and instead", toolSpec{desc: "Read a text file. Use this when you need the whole file; do not use it for logs, prefer tail_file instead."}, 5, []string{"tail_file"}},
		{"named alternative with instead", toolSpec{name: "get_calls", desc: "List all calls in a date range. To filter by user, use search_calls_extensive instead."}, 5, []string{"search_calls_extensive", `"instead"`}},
		{"all three without a name", toolSpec{desc: "Summarize a document. Use this when the text is long; avoid it for code, and prefer the raw text instead."}, 5, []string{`"use this when"`, `"avoid"`, `"instead"`}},
	})
}

func TestTransparencyCues(t *testing.T) {
	ro := map[string]any{"readOnlyHint": true}
	runCues(t, "behavioral_transparency", []cueCase{
		{"creates while read-only", toolSpec{name: "create_record", desc: "Creates a new record in the database", annotations: ro}, 1, []string{"readOnlyHint is true", "create"}},
		{"third person write while read-only", toolSpec{name: "sync", desc: "Looks up the account and overwrites its cached profile.", annotations: ro}, 1, []string{"overwrites"}},
		{"read-only claim while destructive", toolSpec{name: "lookup", desc: "Read-only lookup of an order by its number.", annotations: map[string]any{"destructiveHint": true}}, 1, []string{"destructiveHint is true", "read only"}},
		{"permanent while not destructive", toolSpec{name: "purge_cache", desc: "Purge the build cache. Permanently deletes every cached artifact.", annotations: map[string]any{"destructiveHint": false}}, 1, []string{"permanently"}},
		{"one word, no annotations", toolSpec{desc: "Process"}, 1, []string{"nothing is disclosed"}},
		{"one word, annotations", toolSpec{desc: "Process", annotations: ro}, 2, []string{"only the annotations"}},
		// Otherwise 1 + ln(1 + words)/2 + kinds/8, plus 1/2 with
		// annotations, rounded half up.
		{"nothing disclosed, no annotations", toolSpec{name: "update_drive", desc: "Update shared drive settings including name, color, and restrictions."}, 2, []string{"no annotations", "9 words", "no disclosure"}},
		{"nothing disclosed, annotations", toolSpec{name: "get_calls", desc: "List all calls in a date range.", annotations: ro}, 3, []string{"annotations are present", "7 words", "no disclosure"}},
		{"negated write is no contradiction", toolSpec{name: "list_records", desc: "List records in a table. It never deletes or creates anything.", annotations: ro}, 3, []string{`safety ("never deletes")`}},
		{"one disclosure, short, no annotations", toolSpec{desc: "Run a SQL query on the configured database. Writes are blocked."}, 2, []string{"11 words", "safety", `"blocked"`}},
		{"a return format alone counts as any kind", toolSpec{desc: "Get the account's invoices as a JSON list of objects."}, 2, []string{"return format"}},
		{"a long description says more", toolSpec{desc: "Convert a quantity from one unit to another. " + strings.Repeat("Compound expressions such as kilowatt hours or acre feet work too, and nonlinear targets apply their inverse. ", 3) + "Returns the converted value with its unit; errors when a unit is unknown."}, 3, []string{"72 words", "return format", "errors"}},
		{"one disclosure, annotations", toolSpec{name: "list_prs", desc: "List pull requests stored in memory from connected repositories.", annotations: ro}, 3, []string{"side effects"}},
		{"five kinds in a short text, no annotations", toolSpec{desc: "Get the account's invoices. Requires an API token with billing scope. Results are paginated; an error is returned for closed accounts."}, 3, []string{"authentication", "pagination", "errors"}},
		{"three kinds, annotations", toolSpec{desc: "Get the account's invoices. Requires an API token; results are paginated.", annotations: ro}, 3, []string{"authentication", "pagination"}},
		{"four kinds, annotations", toolSpec{desc: "Get the account's invoices. Requires an API token; results are paginated, returned as JSON, and an error is returned for closed accounts.", annotations: ro}, 4, nil},
		{"six kinds, annotations", toolSpec{desc: "Get the account's invoices. Requires an API token; results are paginated, returned as JSON, and an error is returned for closed accounts. Never modifies anything. Results are cached for an hour.", annotations: ro}, 4, []string{"safety"}},
		{"long, six kinds, annotations", toolSpec{desc: "Get the account's invoices. Requires an API token; results are paginated, returned as JSON, and an error is returned for closed accounts. Never modifies anything. Results are cached for an hour. " + strings.Repeat("Each invoice carries its number, its dates, its lines and its total in the account's currency. ", 5), annotations: ro}, 5, []string{"safety", "authentication"}},
		{"read only the first lines is no safety claim", toolSpec{desc: "Read a file as text. Use head to read only the first N lines.", annotations: ro}, 3, []string{"pagination and size"}},
		{"a session is a resource, not state", toolSpec{desc: "Capture a lightweight screenshot for one session without the full observe payload."}, 2, []string{"no disclosure"}},
	})
}

func TestContradictionFlag(t *testing.T) {
	cases := []struct {
		name string
		tool toolSpec
		want bool
	}{
		{"creates while read-only", toolSpec{name: "create_record", desc: "Creates a new record in the database", annotations: map[string]any{"readOnlyHint": true}}, true},
		{"deletes while read-only", toolSpec{name: "cleanup", desc: "Delete stale sessions.", annotations: map[string]any{"readOnlyHint": true}}, true},
		{"read-only says read-only", toolSpec{name: "get", desc: "Get a record. Read-only.", annotations: map[string]any{"readOnlyHint": true}}, false},
		{"write later in the text", toolSpec{name: "get_file", desc: "Get a file's content. To change it, use a tool that writes files.", annotations: map[string]any{"readOnlyHint": true}}, false},
		{"destructive says it deletes", toolSpec{name: "rm", desc: "Delete a file.", annotations: map[string]any{"destructiveHint": true}}, false},
		{"destructive says read-only", toolSpec{name: "rm", desc: "A read-only check of a file.", annotations: map[string]any{"destructiveHint": true}}, true},
		{"read-only and destructive annotations, read-only text", toolSpec{name: "ls", desc: "List files; read-only.", annotations: map[string]any{"readOnlyHint": true, "destructiveHint": true}}, false},
		{"no annotations", toolSpec{name: "create_record", desc: "Creates a new record."}, false},
	}
	for _, c := range cases {
		_, a := ask(t, heuristic.KindTool, c.tool.input())
		if a.AnnotationContradiction != c.want {
			t.Errorf("%s: annotation_contradiction = %v, want %v (%s)", c.name, a.AnnotationContradiction, c.want, a.Scores["behavioral_transparency"].Justification)
		}
	}
}

func TestParameterCues(t *testing.T) {
	described := func(names ...string) []paramSpec {
		var ps []paramSpec
		for _, n := range names {
			ps = append(ps, paramSpec{name: n, desc: "Described."})
		}
		return ps
	}
	bare := func(names ...string) []paramSpec {
		var ps []paramSpec
		for _, n := range names {
			ps = append(ps, paramSpec{name: n})
		}
		return ps
	}
	runCues(t, "parameter_semantics", []cueCase{
		{"no parameters", toolSpec{desc: "List the projects."}, 4, []string{"no parameters"}},
		{"full coverage, silent description", toolSpec{desc: "List the calls.", params: described("from", "to")}, 3, []string{"100%", "baseline 3"}},
		{"full coverage, explained", toolSpec{desc: "List calls between two dates; from and to are ISO dates such as 2026-01-31.", params: described("from", "to")}, 4, []string{"from, to"}},
		{"half coverage", toolSpec{desc: "Update a drive.", params: append(described("drive_id", "name"), bare("color", "hidden")...)}, 3, []string{"50%", "color, hidden"}},
		{"half coverage, rest explained", toolSpec{desc: "Update a drive; color is a hex value (e.g. #ff0000) and hidden defaults to false.", params: append(described("drive_id", "name"), bare("color", "hidden")...)}, 4, []string{"color, hidden"}},
		{"none described, none named", toolSpec{desc: "Process the thing.", params: bare("a", "b", "c")}, 1, []string{"0%"}},
		{"none described, named without values", toolSpec{desc: "Explain the grade for a delta_pct.", params: bare("delta_pct")}, 2, []string{"delta_pct"}},
		{"none described, all explained", toolSpec{desc: "Read a text file. path is absolute or relative to the server; max_bytes defaults to 65536.", params: bare("path", "max_bytes")}, 4, []string{"max_bytes, path"}},
		{"some described, none named", toolSpec{desc: "Search the index.", params: append(described("query"), bare("k", "filter")...)}, 2, []string{"33%", "filter, k"}},
		{"multi-word name as words", toolSpec{desc: "Read a file; max bytes caps the read, for example 1024.", params: bare("max_bytes")}, 4, []string{"max_bytes"}},
		{"named by the thing its handle points at", toolSpec{desc: "Capture a screenshot of one session.", params: bare("session_id")}, 2, []string{"session_id"}},
		{"format cue in another sentence explains nothing", toolSpec{desc: "Execute a SQL query against the database. Read-only SELECT by default.", params: described("sql")}, 3, []string{"baseline 3"}},
		{"format cue beside the parameter", toolSpec{desc: "Run SQL on the server. Writes are blocked unless allowWrite is true, which must be set by the caller.", params: described("sql", "allowWrite")}, 4, []string{"allowWrite"}},
	})
}

func TestConcisenessCues(t *testing.T) {
	long := strings.Repeat("The service keeps a record of each change made to the account settings. ", 30)
	runCues(t, "conciseness_structure", []cueCase{
		{"missing", toolSpec{noDesc: true}, 1, []string{"no description"}},
		{"one word", toolSpec{desc: "Process"}, 2, []string{"under-specification"}},
		{"a few words, the schema describing every parameter", toolSpec{desc: "Read contents of a file", params: described1()}, 5, []string{"5 words", "describes every parameter"}},
		// Since 1.5.10 a tool without parameters, like one whose schema
		// describes every one, leaves a short text nothing to add.
		{"a few words and no parameters", toolSpec{desc: "Read contents of a file"}, 5, []string{"5 words", "takes no parameters"}},
		{"a few words and an undescribed parameter are thin", toolSpec{desc: "Read contents of a file", params: []paramSpec{{name: "path"}}}, 4, []string{"5 words", "thin"}},
		{"one clear paragraph", toolSpec{desc: "List the open pull requests of a repository, newest first. Use search_prs for other repositories.", params: described1()}, 5, []string{"purpose first"}},
		{"opens with a note", toolSpec{desc: "Note: this is slow on large repositories. Lists the open pull requests of a repository.", params: described1()}, 4, []string{`"note"`}},
		{"filler", toolSpec{desc: "This tool allows you to simply list the open pull requests of a repository, newest first.", params: described1()}, 4, []string{"filler"}},
		{"repeated sentence", toolSpec{desc: "List the open pull requests. Newest first. List the open pull requests.", params: described1()}, 4, []string{"repeated"}},
		{"six to ten words are thin", toolSpec{desc: "Update shared drive settings including name, color, and restrictions.", params: []paramSpec{{name: "a", desc: "x"}, {name: "b"}, {name: "c"}}}, 4, []string{"9 words", "thin"}},
		{"six to ten words with three undescribed parameters are under-specified", toolSpec{desc: "Update shared drive settings including name, color, and restrictions.", params: []paramSpec{{name: "a"}, {name: "b"}, {name: "c"}, {name: "d"}}}, 3, []string{"only 9 words", "the schema leaves 4 of its 4 parameters undescribed", "under-specified rather than concise"}},
		{"short for its parameters is no fault", toolSpec{desc: "Update the shared drive settings of one drive, including its name and color.", params: []paramSpec{{name: "a"}, {name: "b"}, {name: "c"}, {name: "d"}, {name: "e"}}}, 5, []string{"13 words"}},
		{"far too long", toolSpec{desc: long}, 1, []string{"far longer", "repeated"}},
	})
}

func described1() []paramSpec { return []paramSpec{{name: "repo", desc: "Repository"}} }

func TestCompletenessCues(t *testing.T) {
	runCues(t, "contextual_completeness", []cueCase{
		{"missing", toolSpec{noDesc: true}, 1, []string{"missing"}},
		{"a few words", toolSpec{name: "read_file", desc: "Read contents of a file", params: described1()}, 2, []string{"lacks: a description of more than 5 words"}},
		{"adequate", toolSpec{name: "read_file", desc: "Read the contents of a file from the filesystem as text.", params: described1()}, 3, []string{"adequate"}},
		{"action that hides its result", toolSpec{name: "update_drive", desc: "Update shared drive settings including name, color, and restrictions.", params: described1()}, 2, []string{"lacks: a statement of what this action tool returns (no output schema)"}},
		{"action that hides its result is at most 3 before the blend", toolSpec{name: "save_task", desc: "Create a task that persists across sessions. Tasks are tracked with a status and a priority. Use this to keep continuity on work that spans several sessions.", params: described1()}, 3, []string{"lacks: a statement of what this action tool returns (no output schema)"}},
		{"output schema covers returns", toolSpec{name: "update_drive", desc: "Update shared drive settings including name, color, and restrictions.", params: described1(), output: true, annotations: map[string]any{"destructiveHint": false}}, 4, []string{"has an output schema for the return value"}},
		// Since 1.5.10 an output schema adds a point as well as standing
		// for the return statement an acting tool needs.
		// "Update shared drive settings ..." says what it changes (1.5.1):
		// a tool that runs a job, and says nothing of what the job does,
		// does not.
		{"action that hides its changes", toolSpec{name: "sync_drive", desc: "Run the nightly sync job of one shared drive right now.", params: described1(), output: true}, 3, []string{"lacks: a statement of what this action tool changes"}},
		{"restating the name is capped at 2", toolSpec{name: "get_user_profile_settings_data", desc: "Get the user profile settings data for the user.", params: described1()}, 2, []string{"lacks: anything beyond restating the name"}},
		{"complex and short", toolSpec{name: "query", desc: "Query the analytics warehouse for matching rows.", params: []paramSpec{{"a", "x", false, true}, {"b", "x", false, false}}}, 2, []string{"nested objects"}},
		{"usage and behaviour, pulled towards transparency 3", toolSpec{name: "get_calls", desc: "List all calls in a date range. Results are paginated and returned as JSON. To filter by user, use search_calls instead.", params: described1()}, 4, []string{"usage guidance", "behavioural detail"}},
		{"usage and behaviour, pulled towards transparency 4", toolSpec{name: "get_calls", desc: "List all calls in a date range. Results are paginated and returned as JSON, an error for an unknown user. Requires an API token. To filter by user, use search_calls instead.", params: described1(), annotations: map[string]any{"readOnlyHint": true}}, 5, []string{"usage guidance", "behavioural detail"}},
		{"one undescribed parameter costs a point", toolSpec{name: "read_file", desc: "Read the contents of a file from the filesystem as text.", params: []paramSpec{{name: "path", desc: "x"}, {name: "encoding"}}}, 2, []string{"a description of the 1 parameter the schema leaves undescribed"}},
		{"three undescribed parameters cost two", toolSpec{name: "get_calls", desc: "List all calls in a date range. Results are paginated and returned as JSON, an error for an unknown user. Requires an API token. To filter by user, use search_calls instead.", params: []paramSpec{{name: "from", desc: "x"}, {name: "to", desc: "x"}, {name: "team", desc: "x"}, {name: "user"}, {name: "page"}, {name: "order"}}, annotations: map[string]any{"readOnlyHint": true}}, 4, []string{"a description of the 3 parameters the schema leaves undescribed"}},
	})
}

func TestCoherenceCues(t *testing.T) {
	tools := func(names ...string) []map[string]any {
		var out []map[string]any
		for _, n := range names {
			out = append(out, map[string]any{"name": n, "description": nil})
		}
		return out
	}
	many := func(n int) []map[string]any {
		var out []map[string]any
		for i := range n {
			out = append(out, map[string]any{"name": "get_item_" + string(rune('a'+i%26)) + string(rune('a'+i/26)), "description": nil})
		}
		return out
	}
	cases := []struct {
		name  string
		tools []map[string]any
		count int
		key   string
		want  int
		cites string
	}{
		{"distinct", tools("list_repos", "get_repo", "create_issue"), 0, "disambiguation", 5, "none of the 3 tools"},
		{"version variant", tools("search_docs", "search_docs_v2", "get_doc", "list_docs", "create_doc", "delete_doc", "update_doc", "export_doc", "import_doc", "share_doc"), 0, "disambiguation", 4, "search_docs/search_docs_v2"},
		{"look-alike descriptions", []map[string]any{
			{"name": "find_docs", "description": "Search the documentation index for pages matching a query string."},
			{"name": "lookup_docs", "description": "Search the documentation index for pages matching the query string given."},
			{"name": "get_page", "description": "Fetch one page by its id."},
		}, 0, "disambiguation", 2, "find_docs/lookup_docs"},
		{"vague names", tools("process", "run", "execute", "get_user"), 0, "disambiguation", 1, "vague names"},
		{"snake verb_noun", tools("list_repos", "get_repo", "create_repo", "delete_repo"), 0, "naming_consistency", 5, "snake_case"},
		{"one camelCase among many", tools("list_repos", "get_repo", "create_repo", "delete_repo", "list_issues", "get_issue", "create_issue", "update_issue", "close_issue", "list_prs", "getPullRequest"), 0, "naming_consistency", 4, "1 camelCase"},
		{"camel and snake", tools("list_repos", "get_repo", "createRepo", "deleteRepo"), 0, "naming_consistency", 2, "2 camelCase, 2 snake_case"},
		{"three conventions", tools("list_repos", "get_repo", "createRepo", "deleteRepo", "update-repo", "fork-repo"), 0, "naming_consistency", 1, "kebab-case"},
		{"single trivial tool", tools("run"), 0, "tool_count_appropriateness", 1, "vague name"},
		{"single tool", tools("get_weather"), 0, "tool_count_appropriateness", 2, "single tool"},
		{"two tools", tools("get_weather", "get_forecast"), 0, "tool_count_appropriateness", 3, "thin"},
		{"ten tools", many(10), 0, "tool_count_appropriateness", 5, "3-15"},
		{"eighteen tools", many(18), 0, "tool_count_appropriateness", 4, "slightly over"},
		{"twenty-two tools", many(22), 0, "tool_count_appropriateness", 3, "heavy"},
		{"forty tools by count", nil, 40, "tool_count_appropriateness", 2, "too many"},
		{"sixty tools by count", nil, 60, "tool_count_appropriateness", 1, "extreme"},
		{"full lifecycle", tools("create_note", "get_note", "list_notes", "update_note", "delete_note"), 0, "completeness", 5, "create, read, update and delete"},
		{"create and get only", tools("create_note", "get_note", "create_tag", "list_tags"), 0, "completeness", 3, "no tool named for note does update/delete"},
		{"create only", tools("create_note", "create_tag", "add_label", "search_web"), 0, "completeness", 1, "does read/update/delete (only search_web does, on another resource)"},
		{"reads only", tools("get_weather", "get_forecast", "list_stations"), 0, "completeness", 4, "no tool name creates"},
		{"unrecognisable", tools("process", "run", "helper", "do_thing", "frobnicate"), 0, "completeness", 2, "cannot be told"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := map[string]any{"server": "s", "toolCount": c.count, "tools": c.tools}
			if c.tools == nil {
				in["tools"] = []any{}
			}
			_, a := ask(t, heuristic.KindCoherence, in)
			d := a.Scores[c.key]
			if d.Score != c.want || !strings.Contains(d.Justification, c.cites) {
				t.Errorf("%s = %d (%s), want %d citing %q", c.key, d.Score, d.Justification, c.want, c.cites)
			}
		})
	}
}

// BenchmarkAskTool measures questions answered per second on a realistic
// tool (the first known-good tool).
func BenchmarkAskTool(b *testing.B) {
	in, err := json.Marshal(knownGood[0].input())
	if err != nil {
		b.Fatal(err)
	}
	j := heuristic.New()
	q := judge.Question{Kind: heuristic.KindTool, Input: in}
	ctx := context.Background()
	for b.Loop() {
		if _, err := j.Ask(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "questions/s")
}
