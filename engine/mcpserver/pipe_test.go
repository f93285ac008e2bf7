package mcpserver

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcptransport "github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/rubrics"
)

// pipeClient serves srv over stdio on a pair of pipes, as rubric mcp
// serves its client, and returns mcp-go's client at the other end,
// initialized with the classic handshake.
func pipeClient(t *testing.T, srv *Server) *client.Client {
	t.Helper()
	toClient, fromServer := io.Pipe()
	toServer, fromClient := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.ServeStdio(ctx, toServer, fromServer)
	}()
	c := client.NewClient(mcptransport.NewIO(toClient, fromClient, io.NopCloser(strings.NewReader(""))))
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		fromClient.Close()
		cancel()
		<-served
		srv.Close()
	})
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-11-25"
	req.Params.ClientInfo = mcp.Implementation{Name: "pipe-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	return c
}

// toolError calls tool and returns its tool error's text; a protocol
// error or a result that is not an error fails the test.
func toolError(t *testing.T, c *client.Client, tool string, args map[string]any) string {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: a protocol error where a tool error is due: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if !res.IsError {
		t.Fatalf("%s: not an error: %.300s", tool, b.String())
	}
	return b.String()
}

// TestArgumentErrors: over a pipe, as a client meets them, a tool error
// says what to give and never quotes back more than a line of what the
// client sent: a required argument left out is named with what it holds
// (explain once looked up the report "" and rescore the rubric ""); a
// string argument of a megabyte is refused by its name, where the
// error once held it twice; a file target that is not there says where
// a relative path was looked for and offers the inline tools, not
// rubric score's "-- COMMAND"; a rubric file that is not there points
// at the rubrics tool, not at rubric rubrics list; lint_tool given a
// whole tools/list result says so, and its paths are the tool
// argument's, not $.tools[0]; a whole command line given as the
// program is split for the client to send again, where its start failed
// as if the program were missing.
func TestArgumentErrors(t *testing.T) {
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(tools, []byte(`{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	c := pipeClient(t, New(Options{DefaultRubric: "schema-quality", Rubrics: Rubrics{Find: rubrics.FindContext, Source: rubrics.Source, Builtins: rubrics.Names()}}))
	huge := strings.Repeat("x", 1<<20)
	file := map[string]any{"file": tools}
	for _, tc := range []struct {
		name   string
		tool   string
		args   map[string]any
		want   []string
		unwant string
	}{
		{"explain without report_id", "explain", map[string]any{}, []string{"give report_id: The report_id that score, lint_tool or rescore returned"}, `no report`},
		{"explain with an empty report_id", "explain", map[string]any{"report_id": ""}, []string{"give report_id"}, `no report`},
		{"rescore without rubric", "rescore", map[string]any{"report_id": "r1"}, []string{"give rubric: A built-in rubric name"}, `does not load`},
		{"a report_id of a megabyte", "explain", map[string]any{"report_id": huge}, []string{"report_id is 1048576 bytes long, more than the 4096 an argument may be"}, ""},
		{"a rubric of a megabyte", "score", map[string]any{"target": file, "rubric": huge}, []string{"rubric is 1048576 bytes long"}, ""},
		{"an argument named by a megabyte", "score", map[string]any{"target": file, huge: 1.0}, []string{`score has no argument "xxxx`, `…: its arguments are judge, rubric, target`}, ""},
		{"an empty target", "score", map[string]any{"target": map[string]any{}}, []string{"target is empty: give it exactly one of command, url, file or tools"}, "got 0"},
		{"two targets", "score", map[string]any{"target": map[string]any{"file": "a.json", "url": "http://127.0.0.1:1/mcp"}}, []string{"give exactly one target: command, url, file or tools (got 2: url, file)"}, ""},
		{"a target member named by a megabyte", "score", map[string]any{"target": map[string]any{huge: 1.0}}, []string{`target has a member "xxxx`}, ""},
		{"a file of a megabyte", "score", map[string]any{"target": map[string]any{"file": huge}}, []string{"file is 1048576 bytes long"}, ""},
		{"a url of a megabyte", "score", map[string]any{"target": map[string]any{"url": "http://" + huge}}, []string{"url is 1048583 bytes long"}, ""},
		{"a program of a megabyte", "score", map[string]any{"target": map[string]any{"command": []any{huge}}}, []string{"command[0] is 1048576 bytes long"}, ""},
		{"a command line as the program", "score", map[string]any{"target": map[string]any{"command": []any{"npx -y @modelcontextprotocol/server-everything", "stdio"}}}, []string{`command[0] is "npx -y @modelcontextprotocol/server-everything", a whole command line: command is an argument array, run without a shell, so give each argument as its own string: ["npx","-y","@modelcontextprotocol/server-everything","stdio"]`}, "cannot start"},
		{"a relative file not there", "score", map[string]any{"target": map[string]any{"file": "nosuch.json"}}, []string{`file "nosuch.json" does not exist (a relative path is read from rubric mcp's working directory, ` + wd + ")", "target.tools"}, "-- COMMAND"},
		{"an absolute file not there", "score", map[string]any{"target": map[string]any{"file": filepath.Join(dir, "nosuch.json")}}, []string{"does not exist: give the path of a JSON file"}, "working directory"},
		{"a directory for a file", "score", map[string]any{"target": map[string]any{"file": dir}}, []string{"is a directory"}, "-- COMMAND"},
		{"a rubric file not there", "score", map[string]any{"target": file, "rubric": "nosuch.hcl"}, []string{`rubric file "nosuch.hcl" does not exist`, "the rubrics tool lists them", "rubric mcp's working directory, " + wd}, "rubric rubrics list"},
		{"lint_tool given a tools/list result", "lint_tool", map[string]any{"tool": map[string]any{"tools": []any{map[string]any{"name": "a"}}}}, []string{"tool is a tools/list result, not one tool definition", "score"}, "$.tools"},
		{"lint_tool given an empty name", "lint_tool", map[string]any{"tool": map[string]any{"name": ""}}, []string{"tool is not a valid tool definition: tool.name: tool name is empty"}, "$.tools"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := toolError(t, c, tc.tool, tc.args)
			if len(got) > 1000 {
				t.Errorf("a tool error of %d bytes: %.300s…", len(got), got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q\nwant it to contain %q", got, w)
				}
			}
			if tc.unwant != "" && strings.Contains(got, tc.unwant) {
				t.Errorf("%q\nwant it not to contain %q", got, tc.unwant)
			}
		})
	}
}

// TestReportIDAsURI: explain and rescore take a report as score's result
// names it, by report_id or by its resource URI, which the result gives
// beside it; before, the URI was "no report".
func TestReportIDAsURI(t *testing.T) {
	c := pipeClient(t, New(Options{DefaultRubric: "schema-quality", Rubrics: Rubrics{Find: rubrics.FindContext, Source: rubrics.Source, Builtins: rubrics.Names()}}))
	req := mcp.CallToolRequest{}
	req.Params.Name = "score"
	req.Params.Arguments = map[string]any{"target": map[string]any{"tools": map[string]any{"tools": []any{map[string]any{
		"name": "echo", "description": "Echoes the text it is given.", "inputSchema": map[string]any{"type": "object"},
	}}}}}
	res, err := c.CallTool(context.Background(), req)
	if err != nil || res.IsError {
		t.Fatalf("score: %v %+v", err, res)
	}
	uri, _ := res.StructuredContent.(map[string]any)["resource"].(string)
	if uri != "rubric://reports/r1" {
		t.Fatalf("score's resource: %q", uri)
	}
	for _, tool := range []string{"explain", "rescore"} {
		req.Params.Name = tool
		args := map[string]any{"report_id": uri}
		if tool == "rescore" {
			args["rubric"] = "tool-safety"
		}
		req.Params.Arguments = args
		res, err := c.CallTool(context.Background(), req)
		if err != nil || res.IsError {
			t.Fatalf("%s of %s: %v %+v", tool, uri, err, res.Content)
		}
		// The result names the report by its id, as score's does.
		out := res.StructuredContent.(map[string]any)
		if old, ok := out["old"].(map[string]any); ok {
			out = old
		}
		if out["report_id"] != "r1" {
			t.Errorf("%s of %s: the result's report_id is %v, want r1", tool, uri, out["report_id"])
		}
	}
}

// TestLintQuotedSchema: lint_tool refuses an inputSchema (or
// annotations) given as a string holding JSON, a slip of the model
// writing the call, rather than grade the tool F for having no schema.
func TestLintQuotedSchema(t *testing.T) {
	c := pipeClient(t, New(Options{Lint: []string{"schema-quality"}, Rubrics: Rubrics{Find: rubrics.FindContext, Source: rubrics.Source, Builtins: rubrics.Names()}}))
	for _, k := range []string{"inputSchema", "annotations"} {
		got := toolError(t, c, "lint_tool", map[string]any{"tool": map[string]any{"name": "x", "description": "Reads x.", k: `{"type": "object"}`}})
		if want := "tool." + k + " is a string holding a JSON object: give the object itself, not quoted"; !strings.Contains(got, want) {
			t.Errorf("%q\nwant it to contain %q", got, want)
		}
	}
}

// TestWaitingCallSaysSo: with every call slot taken, a call that gave a
// progress token hears that it waits for one, and why, before it is
// served; before, it heard nothing until the calls ahead of it ended
// (and this test, which frees the slot only once the waiting call has
// heard, waited for go test's timeout).
func TestWaitingCallSaysSo(t *testing.T) {
	srv := New(Options{MaxCalls: 1, DefaultRubric: "schema-quality", Rubrics: Rubrics{Find: rubrics.FindContext, Source: rubrics.Source, Builtins: rubrics.Names()}})
	started, finish := make(chan struct{}), make(chan struct{})
	srv.mcp.AddTool(mcp.NewTool("hold"), srv.wrap(paramsOf("hold", `{"type": "object", "properties": {}}`), func(ctx context.Context, c *call) (any, error) {
		close(started)
		<-finish
		return map[string]any{}, nil
	}))
	c := pipeClient(t, srv)
	heard := make(chan string, 16)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" && n.Params.AdditionalFields["progressToken"] == "waiter" {
			msg, _ := n.Params.AdditionalFields["message"].(string)
			heard <- msg
		}
	})
	held := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "hold"
		_, err := c.CallTool(context.Background(), req)
		held <- err
	}()
	<-started
	served := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "rubrics"
		req.Params.Arguments = map[string]any{"rubric": "all"}
		req.Params.Meta = &mcp.Meta{ProgressToken: "waiter"}
		res, err := c.CallTool(context.Background(), req)
		if err == nil && res.IsError {
			err = errors.New("a tool error")
		}
		served <- err
	}()
	if msg := <-heard; msg != "waiting: rubric mcp is at its limit of calls at once (--max-calls 1), and this one starts when one of them ends" {
		t.Errorf("the waiting call heard %q", msg)
	}
	close(finish)
	if err := <-held; err != nil {
		t.Error(err)
	}
	if err := <-served; err != nil {
		t.Errorf("the waiting call, once a slot was free: %v", err)
	}
}

// TestLintTooLarge: a tool definition beyond --max-bytes is refused
// with advice lint_tool can take; it once said to score the server
// itself, which a definition being written does not have.
func TestLintTooLarge(t *testing.T) {
	c := pipeClient(t, New(Options{Lint: []string{"schema-quality"}, Rubrics: Rubrics{Find: rubrics.FindContext, Source: rubrics.Source, Builtins: rubrics.Names()},
		Target: transport.Target{Limits: transport.Limits{MaxBytes: 1 << 10}}}))
	got := toolError(t, c, "lint_tool", map[string]any{"tool": map[string]any{"name": "x", "description": strings.Repeat("Reads x. ", 200)}})
	if want := "the tool definition is 1821 bytes of JSON, more than the 1 KiB a target may be: start rubric mcp with a larger --max-bytes"; got != want {
		t.Errorf("%q\nwant %q", got, want)
	}
}
