package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/transport"
)

// TestStoreBound: the store keeps the latest max reports; an evicted id
// is an error that says how many are kept.
func TestStoreBound(t *testing.T) {
	s := newStore(2, nil)
	var ids []string
	for range 3 {
		id, err := s.put(&report.Report{ReportVersion: report.Version, Target: "t"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if strings.Join(ids, " ") != "r1 r2 r3" {
		t.Errorf("ids %v", ids)
	}
	if _, err := s.raw("r1"); err == nil || !strings.Contains(err.Error(), "latest 2 reports") {
		t.Errorf("r1 after two more: %v", err)
	}
	for _, id := range ids[1:] {
		if rep, err := s.get(id); err != nil || rep.Target != "t" {
			t.Errorf("%s: %v %v", id, rep, err)
		}
	}
}

// TestInline: inline JSON is held to the target's byte limit, counted
// before it is encoded again and after.
func TestInline(t *testing.T) {
	limits := transport.Limits{MaxBytes: 100}
	for _, c := range []struct {
		name string
		v    any
		want string // an error's text, or the JSON
	}{
		{"small", map[string]any{"tools": []any{}}, `{"tools":[]}`},
		{"a string of JSON", `{"tools":[]}`, `{"tools":[]}`},
		{"long string", map[string]any{"tools": []any{map[string]any{"name": strings.Repeat("x", 101)}}}, "more than the 100 bytes"},
		{"many small values", map[string]any{"tools": make([]any, 60)}, "more than the 100 bytes"}, // nulls: only the encoding shows the size
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := inline(c.v, limits, inlineTarget)
			got := string(b)
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestRewrite: a suggested rewrite keeps the description and adds one
// line to verify per distinct issue, labelled as a hypothesis; without
// issues there is nothing to suggest.
func TestRewrite(t *testing.T) {
	got := rewrite(" Lists files. ", []string{"no usage cue", "no usage cue", `the description "Lists files." says nothing of errors`})
	// A message's own quotes stay as written, never escaped.
	want := "Lists files.\n[TO VERIFY: address: no usage cue]\n[TO VERIFY: address: the description \"Lists files.\" says nothing of errors]"
	if got.Description != want || got.Label != hypothesis {
		t.Errorf("got %+v", got)
	}
	if none := rewrite("Lists files.", nil); none.Description != "Lists files." || strings.Contains(none.Label, "HYPOTHESIS") {
		t.Errorf("no issues: %+v", none)
	}
}

// TestScoreIsNotReadOnly: score starts whatever command it is given, so
// it does not tell a client it changes nothing; the tools that only read
// a definition or a kept report do.
func TestScoreIsNotReadOnly(t *testing.T) {
	for _, tl := range tools {
		if want := tl.name != "score"; tl.readOnly != want {
			t.Errorf("%s: readOnly %v, want %v", tl.name, tl.readOnly, want)
		}
	}
}

// TestInlineToolCount: inline tools are held to --max-tools, as a file
// target of as many tools is.
func TestInlineToolCount(t *testing.T) {
	srv := New(Options{Target: transport.Target{Limits: transport.Limits{MaxTools: 2}}})
	defer srv.Close()
	tool := func(name string) map[string]any {
		return map[string]any{"name": name, "inputSchema": map[string]any{"type": "object"}}
	}
	for _, c := range []struct {
		tools []any
		want  string
	}{
		{[]any{tool("a"), tool("b")}, ""},
		{[]any{tool("a"), tool("b"), tool("c")}, "the inline tools hold 3 tools, more than the 2 a target may have"},
	} {
		_, err := srv.source(&call{args: map[string]any{"target": map[string]any{"tools": c.tools}}})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%d tools: error %q, want %q", len(c.tools), got, c.want)
		}
	}
}

// TestStoreKeepsACallTogether: the reports of one call are kept together,
// pushing out older ones only, so that every id the call returns can be
// read when it returns; a call of more reports than the store keeps is
// refused, naming the flag to raise.
func TestStoreKeepsACallTogether(t *testing.T) {
	rep := &report.Report{ReportVersion: report.Version, Target: "t"}
	s := newStore(3, nil)
	if _, err := s.put(rep); err != nil {
		t.Fatal(err)
	}
	ids, err := s.putAll(rep, rep, rep)
	if err != nil || strings.Join(ids, " ") != "r2 r3 r4" {
		t.Fatalf("putAll: %v %v", ids, err)
	}
	for _, id := range ids {
		if _, err := s.raw(id); err != nil {
			t.Errorf("%s, just returned: %v", id, err)
		}
	}
	if _, err := s.putAll(rep, rep, rep, rep); err == nil || !strings.Contains(err.Error(), "--max-reports 4 or more") {
		t.Errorf("4 reports into a store of 3: %v", err)
	}
	if _, err := s.raw("r4"); err != nil {
		t.Errorf("a refused call dropped r4: %v", err)
	}
}

// TestArguments: an argument a tool's schema does not declare is
// refused, naming the one meant and the tool's arguments; one of the
// wrong type is named with its type, not read as missing.
func TestArguments(t *testing.T) {
	p := map[string]params{}
	for _, tl := range tools {
		p[tl.name] = paramsOf(tl.name, tl.input)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"score", map[string]any{"target": map[string]any{}, "judge": "heuristic", "rubric": "tdqs"}, ""},
		{"score", map[string]any{"target": map[string]any{}, "extra": 1.0}, `score has no argument "extra": its arguments are judge, rubric, target`},
		{"score", map[string]any{"target": map[string]any{}, "rubirc": "tdqs"}, `score has no argument "rubirc" (did you mean "rubric"?)`},
		{"explain", map[string]any{"report_id": 123.0}, "report_id must be a string, not a number: The report_id that score, lint_tool or rescore returned, such as r1."},
		{"explain", map[string]any{"report_id": nil}, "report_id must be a string, not null"},
		{"lint_tool", map[string]any{"tool": "x"}, "tool must be an object, not a string"},
		{"rubrics", map[string]any{"rubric": []any{}}, "rubric must be a string, not an array"},
	} {
		err := p[c.tool].check(c.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s %v: %q, want %q", c.tool, c.args, got, c.want)
		}
	}
}

// TestInstructions: the instructions a client receives name both kinds
// of resource URI: a read of any other is mcp-go's not-found error,
// whose words rubric cannot choose.
func TestInstructions(t *testing.T) {
	srv := New(Options{})
	defer srv.Close()
	c, err := client.NewInProcessClient(srv.MCP())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-11-25"
	res, err := c.Initialize(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, uri := range []string{"rubric://reports/ID", "rubric://rubrics/NAME"} {
		if !strings.Contains(res.Instructions, uri) {
			t.Errorf("the instructions do not name %s: %s", uri, res.Instructions)
		}
	}
}

// TestNaturalCompare: runs of digits compare by value, the rest as text.
func TestNaturalCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"r2", "r10", -1},
		{"r10", "r2", 1},
		{"r10", "r10", 0},
		{"r1", "r1a", -1},
		{"r9x", "r10", -1},
		{"a", "b", -1},
		{"rubric://reports/r12", "rubric://rubrics/gradable", -1},
		{"r007", "r7", 0},
		{"v1.10", "v1.9", 1},
	} {
		if got := naturalCompare(c.a, c.b); got != c.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestReportResourcesInOrder: resources/list lists the kept reports by
// number (r2 before r10), then the rubrics.
func TestReportResourcesInOrder(t *testing.T) {
	srv := New(Options{Rubrics: Rubrics{Builtins: []string{"tdqs", "schema-quality"}}})
	defer srv.Close()
	for range 11 {
		if _, err := srv.reports.put(&report.Report{ReportVersion: report.Version, Target: "t", Rubric: report.Rubric{Name: "x"}}); err != nil {
			t.Fatal(err)
		}
	}
	c, err := client.NewInProcessClient(srv.MCP())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-11-25"
	if _, err := c.Initialize(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	list, err := c.ListResources(context.Background(), mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range list.Resources {
		got = append(got, strings.TrimPrefix(strings.TrimPrefix(r.URI, "rubric://reports/"), "rubric://rubrics/"))
	}
	want := "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 schema-quality tdqs"
	if strings.Join(got, " ") != want {
		t.Errorf("resources/list: %s\nwant %s", strings.Join(got, " "), want)
	}
}
