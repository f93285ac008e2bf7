package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubricmcp/rubric/engine/report"
)

// tool is one tool's definition and its work.
type tool struct {
	name, title, description string
	input, output            string // JSON Schemas
	readOnly, openWorld      bool
	work                     func(*Server) handler
}

// Schemas shared by several tools' outputs.
const (
	issuesSchema = `{"type": "array", "description": "What to fix, largest gain first.", "items": {"type": "object", "properties": {
		"check": {"type": "string", "description": "The rubric check or dimension that raised it."},
		"message": {"type": "string", "description": "What is wrong, in words."},
		"gain": {"type": "string", "description": "What fixing it earns, as an exact fraction; empty when the rubric does not say."}},
		"required": ["check", "message"]}}`
	rubricSchema = `{"type": "object", "description": "The rubric used: name, version and digest.", "properties": {
		"name": {"type": "string"}, "version": {"type": "string"}, "digest": {"type": "string"}, "title": {"type": "string"},
		"file": {"type": "string"}, "round": {"type": "integer"}}, "required": ["name", "version", "digest"]}`
	nullableScore = `{"type": ["number", "null"], "description": "The overall score, rounded as the rubric says; null when there is nothing to score."}`
	nullableGrade = `{"type": ["string", "null"], "description": "The overall grade, such as A; null when there is no score."}`
)

var tools = []tool{
	{
		name:  "score",
		title: "Score an MCP server's tools",
		description: `Grades every tool definition (name, description, input schema) of one MCP server against a rubric and returns the overall score and grade, each tool's score, grade and issues, and a report_id.
Use it to grade a whole server, such as your own after editing it; to check one definition while you write it, use lint_tool instead, which needs no server.
Give target exactly one of: command (spawns the server over stdio and reads tools/list), url (a streamable HTTP endpoint), file (a saved tools/list JSON) or tools (the tools/list JSON inline).
It reads the server's tool list only and calls none of its tools; a spawned server is stopped afterwards. Targets are held to the limits rubric mcp was started with (start and request timeouts, bytes, tools); a target that breaks them is an error saying which. The default judge is the offline heuristic (no key, no network).
The report is kept for this server's lifetime as the resource rubric://reports/{report_id}: pass report_id to explain or rescore.`,
		input: `{"type": "object", "additionalProperties": false, "required": ["target"], "properties": {
			"target": {"type": "object", "additionalProperties": false, "minProperties": 1, "maxProperties": 1,
				"description": "What to score: an object with exactly one of command, url, file or tools.",
				"properties": {
					"command": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "The server's command line as an argument array, program first, such as [\"npx\", \"-y\", \"@modelcontextprotocol/server-everything\"]. It is run without a shell."},
					"url": {"type": "string", "format": "uri", "description": "The http(s) URL of a streamable HTTP MCP endpoint, such as https://example.com/mcp."},
					"file": {"type": "string", "description": "The path of a JSON file holding a tools/list result, an array of tools or a capture, relative to rubric mcp's working directory."},
					"tools": {"type": "object", "description": "A tools/list result given inline: {\"tools\": [...]}.", "required": ["tools"], "properties": {
						"tools": {"type": "array", "description": "The tool definitions.", "items": {"type": "object", "description": "One tool definition: name, description, inputSchema."}}}}}},
			"rubric": {"type": "string", "description": "A built-in rubric name (see the rubrics tool: schema-quality, tdqs, ...) or the path of a .hcl rubric; default schema-quality."},
			"judge": {"type": "string", "description": "The judge that answers the rubric's questions: a built-in judge name or the path of a judge plugin, with its settings after a colon, such as openai:model=gpt-4o,temperature=0; default heuristic, which is offline. Not started for a rubric that asks no question."}}}`,
		output: `{"type": "object", "properties": {
			"report_id": {"type": "string", "description": "The id to pass to explain and rescore."},
			"resource": {"type": "string", "description": "The full report's resource URI."},
			"target": {"type": "string", "description": "What was scored, as the report records it."},
			"rubric": ` + rubricSchema + `,
			"score": ` + nullableScore + `,
			"grade": ` + nullableGrade + `,
			"no_score": {"type": "string", "description": "Why there is no overall score, when there is none."},
			"tools": {"type": "array", "description": "Each tool's result.", "items": {"type": "object", "properties": {
				"name": {"type": "string"}, "score": {"type": "number"}, "grade": {"type": "string"}, "issues": ` + issuesSchema + `},
				"required": ["name", "score", "grade", "issues"]}},
			"warnings": {"type": "array", "items": {"type": "string"}, "description": "What a reader of the score must know, such as skipped output."}},
			"required": ["report_id", "resource", "target", "rubric", "score", "grade", "tools", "warnings"]}`,
		// It starts the command it is given: nothing says what that
		// command does to the machine, so score does not claim to
		// change nothing.
		readOnly: false, openWorld: true,
		work: func(s *Server) handler { return s.score },
	},
	{
		name:  "lint_tool",
		title: "Lint one tool definition",
		description: `Grades a single tool definition, given as JSON, with each lint rubric (Schema Quality, TDQS with the offline heuristic judge, and Tool Safety) and returns each rubric's score, grade and issues, plus a suggested rewrite of its description.
Use it while writing or editing one tool, before the server exists or runs; to grade a running server's whole tool list, use score.
The suggested rewrite only marks what the rubrics found missing, as bracketed lines to fill in: it is a hypothesis to verify against the tool's implementation, never a statement of what the tool does.
It reads nothing but the definition you pass, changes nothing and needs no key or network; each rubric's report is kept as rubric://reports/{report_id} for explain.`,
		input: `{"type": "object", "additionalProperties": false, "required": ["tool"], "properties": {
			"tool": {"type": "object", "required": ["name"], "description": "One tool definition as an MCP server lists it, such as {\"name\": \"create_issue\", \"description\": \"...\", \"inputSchema\": {\"type\": \"object\", ...}}.",
				"properties": {
					"name": {"type": "string", "description": "The tool's name."},
					"description": {"type": "string", "description": "The description to grade."},
					"inputSchema": {"type": "object", "description": "The JSON Schema of the tool's arguments.", "properties": {}},
					"annotations": {"type": "object", "description": "The tool's hints, such as readOnlyHint, when it has them.", "properties": {}}}}}}`,
		output: `{"type": "object", "properties": {
			"tool": {"type": "string", "description": "The tool's name."},
			"results": {"type": "array", "description": "One entry per lint rubric.", "items": {"type": "object", "properties": {
				"rubric": {"type": "string"}, "version": {"type": "string"}, "report_id": {"type": "string"},
				"score": {"type": ["number", "null"], "description": "The tool's score; null when the rubric could not score it (see error)."}, "grade": {"type": "string"}, "issues": ` + issuesSchema + `,
				"error": {"type": "string", "description": "Why the rubric could not score the tool, when it could not: the call is then an error, and the other rubrics' results stand."}},
				"required": ["rubric", "version", "report_id", "score", "grade", "issues"]}},
			"skipped": {"type": "array", "items": {"type": "string"}, "description": "Lint rubrics that are not available here, and why."},
			"failed": {"type": "boolean", "description": "True when a rubric could not score the tool (its result's error says why): the tool is not passed."},
			"suggested_rewrite": {"type": "object", "description": "A hypothesis, to verify against the implementation.", "properties": {
				"label": {"type": "string", "description": "What the suggestion is and how far to trust it."},
				"description": {"type": "string", "description": "The description with a bracketed line per missing point."}},
				"required": ["label", "description"]}},
			"required": ["tool", "results", "skipped", "suggested_rewrite"]}`,
		readOnly: true,
		work:     func(s *Server) handler { return s.lint },
	},
	{
		name:  "explain",
		title: "Explain a score's arithmetic",
		description: `Returns the arithmetic behind one score of a kept report, term by term: each formula, the values it read and what it computed, down to the checks and the judge's answers.
Use it after score, lint_tool or rescore to learn why a tool got its score, or what moves a metric; give tool for one tool's score, metric for one surface metric, neither for the overall score.
It reads the kept report only and asks no judge. If the report does not agree with itself, agrees is false and the text says where. An unknown report_id (reports are kept for this server's lifetime, the latest {max_reports}) is an error.`,
		input: `{"type": "object", "additionalProperties": false, "required": ["report_id"], "properties": {
			"report_id": {"type": "string", "description": "The report_id that score, lint_tool or rescore returned, such as r1."},
			"tool": {"type": "string", "description": "The name of the tool whose score to explain; leave out for the overall score."},
			"metric": {"type": "string", "description": "The surface metric to explain, such as meanTdqs; leave out for the overall score. Not with tool."}}}`,
		output: `{"type": "object", "properties": {
			"report_id": {"type": "string"},
			"subject": {"type": "string", "description": "What was explained."},
			"arithmetic": {"type": "string", "description": "The explanation as plain text."},
			"agrees": {"type": "boolean", "description": "False when the report's recorded values differ from what its observations give."}},
			"required": ["report_id", "subject", "arithmetic", "agrees"]}`,
		readOnly: true,
		work:     func(s *Server) handler { return s.explain },
	},
	{
		name:  "rescore",
		title: "Rescore a kept report with another rubric",
		description: `Scores the tool list recorded in a kept report again with another rubric and returns old against new: both overall scores and grades, and each tool's old and new score.
Use it to see what a rubric change (new weights, new checks) does without reading the server again; to read the server afresh after editing its tools, use score instead.
It starts no server and asks no judge: the report's recorded answers are reused, so a rubric that asks questions the report never answered is an error. The new report is kept under its own report_id.`,
		input: `{"type": "object", "additionalProperties": false, "required": ["report_id", "rubric"], "properties": {
			"report_id": {"type": "string", "description": "The report_id of the kept report to rescore, such as r1."},
			"rubric": {"type": "string", "description": "A built-in rubric name or the path of a .hcl rubric to score with."}}}`,
		output: `{"type": "object", "properties": {
			"old": {"type": "object", "properties": {"report_id": {"type": "string"}, "rubric": ` + rubricSchema + `, "score": ` + nullableScore + `, "grade": ` + nullableGrade + `}, "required": ["report_id", "rubric", "score", "grade"]},
			"new": {"type": "object", "properties": {"report_id": {"type": "string"}, "rubric": ` + rubricSchema + `, "score": ` + nullableScore + `, "grade": ` + nullableGrade + `}, "required": ["report_id", "rubric", "score", "grade"]},
			"tools": {"type": "array", "items": {"type": "object", "properties": {
				"name": {"type": "string"}, "old_score": {"type": "number"}, "old_grade": {"type": "string"}, "new_score": {"type": "number"}, "new_grade": {"type": "string"}},
				"required": ["name", "old_score", "old_grade", "new_score", "new_grade"]}}},
			"required": ["old", "new", "tools"]}`,
		readOnly: true,
		work:     func(s *Server) handler { return s.rescore },
	},
	{
		name:  "rubrics",
		title: "List the built-in rubrics",
		description: `Lists the rubrics built into rubric: for each its name, version, title, digest (the hash of everything that can move a score), the resource holding its HCL text, its static checks with their weights in points, and whether it asks a judge questions (asks_judge) and which.
Use it to choose the rubric argument of score or rescore, or to cite which rubric version graded a tool; a rubric whose asks_judge is false scores from the definitions alone and starts no judge. Read rubric://rubrics/{name} for a rubric's full formulas.
Give rubric "all" for every built-in rubric, or one name or .hcl path to see that rubric alone (a path also checks that the file loads). It reads rubrics only and changes nothing.`,
		input: `{"type": "object", "additionalProperties": false, "required": ["rubric"], "properties": {
			"rubric": {"type": "string", "description": "\"all\" for every built-in rubric, else a built-in name (such as tdqs) or the path of a .hcl rubric."}}}`,
		output: `{"type": "object", "properties": {
			"rubrics": {"type": "array", "items": {"type": "object", "properties": {
				"name": {"type": "string"}, "version": {"type": "string"}, "title": {"type": "string"}, "digest": {"type": "string"},
				"resource": {"type": "string", "description": "The URI of a built-in rubric's HCL text."},
				"checks": {"type": "array", "description": "The static checks and their weights.", "items": {"type": "object", "properties": {
					"name": {"type": "string"}, "title": {"type": "string"}, "points": {"type": "string", "description": "The check's weight, exact."}},
					"required": ["name", "title", "points"]}},
				"asks_judge": {"type": "boolean", "description": "Whether the rubric asks a judge questions: false scores from the definitions alone, with no judge; true has score's judge answer them (the default, heuristic, answers offline)."},
				"questions": {"type": "array", "description": "The questions the rubric asks a judge, empty when it asks none.", "items": {"type": "object", "properties": {
					"name": {"type": "string"}, "kind": {"type": "string", "description": "The kind a judge recognises the question by."}, "per": {"type": "string", "description": "What each question is asked of: tool, surface, or each item of an earlier answer."}},
					"required": ["name", "kind", "per"]}}},
				"required": ["name", "version", "title", "digest", "checks", "asks_judge", "questions"]}}},
			"required": ["rubrics"]}`,
		readOnly: true,
		work:     func(s *Server) handler { return s.rubrics },
	},
}

// compact is a schema without the layout of its Go source.
func compact(schema string) json.RawMessage {
	var v any
	if err := json.Unmarshal([]byte(schema), &v); err != nil {
		panic(fmt.Sprintf("mcpserver: a tool's schema is not JSON: %v", err))
	}
	b, _ := json.Marshal(v)
	return b
}

func (s *Server) addTools() {
	for _, t := range tools {
		// A description says how many reports this server keeps.
		desc := strings.ReplaceAll(t.description, "{max_reports}", strconv.Itoa(s.opt.MaxReports))
		def := mcp.NewToolWithRawSchema(t.name, desc, compact(t.input))
		def.RawOutputSchema = compact(t.output)
		no := false
		def.Annotations = mcp.ToolAnnotation{
			Title: t.title, ReadOnlyHint: &t.readOnly, DestructiveHint: &no, IdempotentHint: &t.readOnly, OpenWorldHint: &t.openWorld,
		}
		s.mcp.AddTool(def, s.wrap(paramsOf(t.name, t.input), t.work(s)))
	}
}

// kept lists the report id, which the store has just kept, as a
// resource; mcp-go tells the clients that the list changed.
func (s *Server) kept(id string, rep *report.Report, b []byte) {
	uri := reportURI + id
	desc := fmt.Sprintf("The %s report of %s, as rubric score --format json writes it, embedded surface included; kept while it is among this server's latest %d reports.", rep.Rubric.Name, rep.Target, s.opt.MaxReports)
	s.mcp.AddResource(mcp.NewResource(uri, "report "+id,
		mcp.WithResourceDescription(desc),
		mcp.WithMIMEType("application/json"),
		mcp.WithResourceSize(int64(len(b))),
	), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: string(b)}}, nil
	})
}

// dropped takes the report id, which the store has let go, off the list.
func (s *Server) dropped(id string) { s.mcp.DeleteResources(reportURI + id) }

// addResources lists the built-in rubrics; the reports are listed as
// they are kept (kept). No template serves rubric://reports/{id}: a read
// of a report that is not kept must match no handler, for then mcp-go
// answers with MCP's "resource not found" error (-32002, or -32602 from
// revision 2026-07-28 on), where a handler's error would be an internal
// error (-32603). The words of that error are mcp-go's ("handler not
// found for resource URI ..."), which no handler can change: the
// server's instructions name the URIs there are instead.
func (s *Server) addResources() {
	for _, n := range s.opt.Rubrics.Builtins {
		uri := rubricURI + n
		s.mcp.AddResource(mcp.NewResource(uri, n,
			mcp.WithResourceDescription("The built-in rubric "+n+" as HCL: its checks, formulas and grades."),
			mcp.WithMIMEType("text/plain"),
		), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			b, err := s.opt.Rubrics.Source(n)
			if err != nil {
				return nil, err
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "text/plain", Text: string(b)}}, nil
		})
	}
}

// improvePrompt is the prompt that walks an agent through lint, fix,
// re-score.
const improvePrompt = "improve-tool-descriptions"

func (s *Server) addPrompt() {
	s.mcp.AddPrompt(mcp.NewPrompt(improvePrompt,
		mcp.WithPromptDescription("Improve my tool descriptions: lint each tool definition, fix what the rubrics find (checking every change against the implementation), then re-score the server."),
		mcp.WithArgument("server", mcp.ArgumentDescription("How to reach the server to re-score: a command line, a URL or a tools/list JSON file. Optional.")),
	), func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		target := req.Params.Arguments["server"]
		if target == "" {
			target = "the server whose tools you are writing"
		}
		text := fmt.Sprintf(`Improve the tool descriptions of %s with rubric, in this loop:
1. For each tool definition, call lint_tool with the definition as JSON. Read each rubric's issues, largest gain first.
2. Fix the definition in the source: say what the tool does, when to use it and when not (naming the alternative), its side effects and what it returns, and describe every parameter in the input schema. The suggested_rewrite only marks what is missing: write nothing the implementation does not do, and read the implementation to check each sentence.
3. Call lint_tool again on the fixed definition; use explain with its report_id when a score surprises you.
4. When every tool is done, call score on the whole server and compare with the first score.`, target)
		return mcp.NewGetPromptResult("Improve tool descriptions with rubric", []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(text)),
		}), nil
	})
}
