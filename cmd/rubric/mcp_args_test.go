package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestMCPArguments: a client that calls a tool with what the tool cannot
// use hears, in the tool's own terms, which argument to change, or which
// flag of rubric mcp the person who started it must; nothing it was told
// was kept is already gone.
func TestMCPArguments(t *testing.T) {
	t.Parallel()
	file := map[string]any{"file": corpusFile}
	c := stdioClient(t, "--max-reports", "2")
	list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == "explain" && !strings.Contains(tool.Description, "the latest 2)") {
			t.Errorf("explain's description does not say that the latest 2 reports are kept: %s", tool.Description)
		}
	}
	var first scored
	call(t, c, "score", map[string]any{"target": file}, &first)
	for _, tc := range []struct {
		name   string
		tool   string
		args   map[string]any
		want   string // part of the error
		unwant string // what the error must not say
	}{
		{"a judge without its model", "score", map[string]any{"target": file, "rubric": "tdqs", "judge": "openai"}, `the openai judge needs a model: give the judge argument as "openai:model=NAME"`, "--model"},
		{"a judge without one of its settings", "score", map[string]any{"target": file, "rubric": "tdqs", "judge": "openai:temperature=0"}, `give the judge argument as "openai:temperature=0,model=NAME"`, "--model"},
		// The key is read from rubric mcp's environment: the client's
		// configuration gives it, not a shell the agent can reach.
		{"a judge without its key", "score", map[string]any{"target": file, "rubric": "tdqs", "judge": "openai:model=gpt-4o,api_key_env=RUBRIC_TEST_NO_SUCH_KEY"}, "put the variable in the env of rubric's entry in your MCP client's configuration (such as claude mcp add -e NAME=KEY rubric -- rubric mcp) and restart the server", ""},
		{"replay without answers", "score", map[string]any{"target": file, "rubric": "tdqs", "judge": "replay"}, `the replay judge needs an answers file: give the judge argument as "replay:answers=FILE"`, "--answers"},
		{"a metric of a rubric with none", "explain", map[string]any{"report_id": first.ReportID, "metric": "nosuch"}, "explain its overall score (leave out both metric and tool) or a tool's (give tool)", "--"},
		{"a tool not in the report", "explain", map[string]any{"report_id": first.ReportID, "tool": "read_fiel"}, `no tool "read_fiel" in the report (did you mean "read_file"?) (14 tools; score's result lists them all)`, "rubric score"},
		{"a number for report_id", "explain", map[string]any{"report_id": 123}, "report_id must be a string, not a number", `no report ""`},
		{"an unknown argument", "score", map[string]any{"target": file, "extra": 1}, `score has no argument "extra": its arguments are judge, rubric, target`, ""},
		{"a misspelt argument", "score", map[string]any{"target": file, "rubirc": "tdqs"}, `(did you mean "rubric"?)`, ""},
		{"a misspelt target", "score", map[string]any{"target": map[string]any{"flie": corpusFile}}, `target has a member "flie" (did you mean "file"?)`, ""},
		{"lint_tool beyond --max-reports", "lint_tool", map[string]any{"tool": map[string]any{"name": "x", "description": "Reads x.", "inputSchema": map[string]any{"type": "object"}}}, "start it with --max-reports 3 or more", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, c, tc.tool, tc.args, nil)
			got := resultText(res)
			if !res.IsError || !strings.Contains(got, tc.want) || (tc.unwant != "" && strings.Contains(got, tc.unwant)) {
				t.Errorf("IsError %v, %q; want an error containing %q", res.IsError, got, tc.want)
			}
		})
	}

	// A judge for a rubric that asks it nothing is not started, and the
	// result says it was not used.
	var sq struct {
		Warnings []string `json:"warnings"`
	}
	call(t, c, "score", map[string]any{"target": file, "judge": "openai"}, &sq)
	if !slices.ContainsFunc(sq.Warnings, func(w string) bool {
		// It names no flag of the command line, which an MCP client has not.
		return strings.Contains(w, "the judge openai is not started: the rubric schema-quality asks no question; to use the judge, choose a rubric that asks questions") && !strings.Contains(w, "--")
	}) {
		t.Errorf("score of schema-quality with judge openai: warnings %q", sq.Warnings)
	}
}

// TestMCPLintIDsKept: every report id lint_tool returns can be read when
// it returns, at the smallest --max-reports that lets it run, after a
// score has filled the store.
func TestMCPLintIDsKept(t *testing.T) {
	t.Parallel()
	c := stdioClient(t, "--max-reports", "3")
	call(t, c, "score", map[string]any{"target": map[string]any{"file": corpusFile}}, &scored{})
	var lint struct {
		Results []struct {
			ReportID string `json:"report_id"`
		} `json:"results"`
	}
	call(t, c, "lint_tool", map[string]any{"tool": map[string]any{"name": "x", "description": "Reads x.", "inputSchema": map[string]any{"type": "object"}}}, &lint)
	if len(lint.Results) != 3 {
		t.Fatalf("lint_tool: %+v", lint)
	}
	for _, r := range lint.Results {
		if res := call(t, c, "explain", map[string]any{"report_id": r.ReportID}, nil); res.IsError {
			t.Errorf("explain %s, just returned by lint_tool: %s", r.ReportID, resultText(res))
		}
	}
}
