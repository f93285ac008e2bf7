package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/creack/pty"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// The tests here drive the real rubric mcp process (the test binary run
// as rubric, see TestMain) with mcp-go's client, over stdio and over
// streamable HTTP on 127.0.0.1.

// corpusFile is a real server's captured tools/list.
const corpusFile = "../../engine/score/testdata/corpus/filesystem.tools.json"

// mcpEnv isolates the server's cache and config from the user's.
func mcpEnv(t testing.TB) []string {
	dir := t.TempDir()
	return []string{"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "GORACE=atexit_sleep_ms=0"}
}

// stdioClient starts rubric mcp with args over stdio and initializes it.
func stdioClient(t testing.TB, args ...string) *client.Client {
	t.Helper()
	return stdioClientAt(t, mcp.LATEST_PROTOCOL_VERSION, args...)
}

// stdioClientAt is stdioClient speaking the MCP revision version.
func stdioClientAt(t testing.TB, version string, args ...string) *client.Client {
	t.Helper()
	if err := installCompanions(); err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	tr := transport.NewStdioWithOptions("rubric", mcpEnv(t), append([]string{"mcp"}, args...), transport.WithCommandStderrWriter(&stderr))
	c := client.NewClient(tr, noDiscoverBound)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		if t.Failed() {
			t.Logf("rubric mcp's stderr:\n%s", stderr.String())
		}
	})
	initializeAt(t, c, version)
	return c
}

// httpClient starts rubric mcp --http and initializes a client there.
func httpClient(t testing.TB, args ...string) *client.Client {
	t.Helper()
	return httpClientAt(t, mcp.LATEST_PROTOCOL_VERSION, args...)
}

// httpClientAt is httpClient speaking the MCP revision version.
func httpClientAt(t testing.TB, version string, args ...string) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(httpServe(t, args...))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, noDiscoverBound)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initializeAt(t, c, version)
	return c
}

// httpServe starts rubric mcp --http on a free port of 127.0.0.1 and
// returns the URL it serves, read from its first line on stderr.
func httpServe(t testing.TB, args ...string) string {
	t.Helper()
	if err := installCompanions(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("rubric", append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), mcpEnv(t)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	r := bufio.NewReader(stderr)
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("rubric mcp --http said nothing: %v", err)
	}
	go io.Copy(io.Discard, r)
	_, url, ok := strings.Cut(strings.TrimSpace(line), " at ")
	if !ok {
		t.Fatalf("rubric mcp --http's first line names no address: %q", line)
	}
	return url
}

// noDiscoverBound lets a client wait for rubric's answer to server/discover
// as long as it takes: with mcp-go's default bound (5 s) a client on a
// busy machine, rubric built with the race detector, gave up on it and
// spoke the legacy revision, so that the test met the other revision's
// answers.
var noDiscoverBound = client.WithDiscoverTimeout(-1)

// initializeAt opens the session with the MCP revision version: the
// latest (2026-07-28) asks server/discover, an earlier one initialize.
func initializeAt(t testing.TB, c *client.Client, version string) {
	t.Helper()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: "rubric-test", Version: "1"}
	if _, err := c.Initialize(context.Background(), req); err != nil {
		t.Fatal(err)
	}
}

var transports = []struct {
	name  string
	start func(testing.TB, ...string) *client.Client
}{{"stdio", stdioClient}, {"http", httpClient}}

// call calls a tool and decodes its structured result into out (when not
// nil); it returns the result.
func call(t *testing.T, c *client.Client, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if out != nil {
		if res.IsError {
			t.Fatalf("%s: tool error: %s", name, resultText(res))
		}
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v in %s", name, err, b)
		}
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// cliReport scores file with rubric score --format json in this process.
func cliReport(t *testing.T, file, rubricName string) map[string]any {
	t.Helper()
	var out, errb bytes.Buffer
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	if code := execute([]string{"score", "--rubric", rubricName, "--format", "json", file}, &out, &errb); code != 0 {
		t.Fatalf("rubric score exited %d: %s", code, errb.String())
	}
	var rep map[string]any
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

type scored struct {
	ReportID string   `json:"report_id"`
	Resource string   `json:"resource"`
	Score    *float64 `json:"score"`
	Grade    *string  `json:"grade"`
	Tools    []struct {
		Name   string  `json:"name"`
		Score  float64 `json:"score"`
		Grade  string  `json:"grade"`
		Issues []struct {
			Check, Message string
		} `json:"issues"`
	} `json:"tools"`
}

// TestMCPServe: over each transport, tools/list shows the five tools
// with input and output schemas; score of a corpus file gives what
// rubric score gives; explain after score shows its arithmetic; lint_tool
// grades one definition; the report is a resource.
func TestMCPServe(t *testing.T) {
	heavytest.Later(t)
	abs, err := filepath.Abs(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{}
	for _, r := range []string{"schema-quality", "tdqs"} {
		want[r] = cliReport(t, abs, r)
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			c := tr.start(t)
			list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				b, _ := json.Marshal(tool)
				if !bytes.Contains(b, []byte(`"outputSchema"`)) || !bytes.Contains(b, []byte(`"inputSchema"`)) {
					t.Errorf("tool %s lacks an input or output schema: %s", tool.Name, b)
				}
			}
			if got := strings.Join(names, " "); got != "explain lint_tool rescore rubrics score" {
				t.Errorf("tools/list: %s", got)
			}

			for r, rep := range want {
				var got scored
				call(t, c, "score", map[string]any{"target": map[string]any{"file": abs}, "rubric": r}, &got)
				if *got.Score != rep["score"].(float64) || *got.Grade != rep["grade"].(string) {
					t.Errorf("%s: score %v %v, rubric score says %v %v", r, *got.Score, *got.Grade, rep["score"], rep["grade"])
				}
				tools := rep["tools"].([]any)
				if len(got.Tools) != len(tools) {
					t.Fatalf("%s: %d tools, rubric score has %d", r, len(got.Tools), len(tools))
				}
				for i, gt := range got.Tools {
					wt := tools[i].(map[string]any)
					if gt.Name != wt["name"] || gt.Score != wt["score"].(float64) || gt.Grade != wt["grade"] || len(gt.Issues) != len(wt["issues"].([]any)) {
						t.Errorf("%s: tool %d is %s %v %s (%d issues), rubric score has %v %v %v (%d)", r, i, gt.Name, gt.Score, gt.Grade, len(gt.Issues), wt["name"], wt["score"], wt["grade"], len(wt["issues"].([]any)))
					}
				}
				var ex struct {
					Arithmetic string `json:"arithmetic"`
					Agrees     bool   `json:"agrees"`
				}
				call(t, c, "explain", map[string]any{"report_id": got.ReportID, "tool": got.Tools[0].Name}, &ex)
				if !ex.Agrees || !strings.Contains(ex.Arithmetic, "score = ") || !strings.Contains(ex.Arithmetic, got.Tools[0].Name) {
					t.Errorf("%s: explain: agrees %v\n%s", r, ex.Agrees, ex.Arithmetic)
				}
				res, err := c.ReadResource(context.Background(), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: got.Resource}})
				if err != nil {
					t.Fatal(err)
				}
				if body := res.Contents[0].(mcp.TextResourceContents).Text; !strings.Contains(body, `"embedded_surface"`) {
					t.Errorf("%s: the resource is not the report: %.200s", got.Resource, body)
				}
			}

			// rescore, the rubrics list, a rubric's resource and the prompt.
			var first scored
			call(t, c, "score", map[string]any{"target": map[string]any{"file": abs}}, &first)
			contested, err := filepath.Abs("../../examples/rubrics/schema-quality-contested.hcl")
			if err != nil {
				t.Fatal(err)
			}
			var re struct {
				Old, New struct {
					ReportID string   `json:"report_id"`
					Score    *float64 `json:"score"`
					Rubric   struct{ Name, File string }
				}
				Tools []struct {
					Name     string
					OldScore float64 `json:"old_score"`
				}
			}
			call(t, c, "rescore", map[string]any{"report_id": first.ReportID, "rubric": contested}, &re)
			if re.Old.ReportID != first.ReportID || *re.Old.Score != *first.Score || re.New.Rubric.File != contested || len(re.Tools) != len(first.Tools) || re.New.ReportID == "" {
				t.Errorf("rescore: %+v", re)
			}
			var rs struct {
				Rubrics []struct{ Name, Digest, Resource string }
			}
			call(t, c, "rubrics", map[string]any{"rubric": "all"}, &rs)
			if len(rs.Rubrics) < 3 || rs.Rubrics[0].Digest == "" {
				t.Fatalf("rubrics: %+v", rs)
			}
			hcl, err := c.ReadResource(context.Background(), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: rs.Rubrics[0].Resource}})
			if err != nil || !strings.Contains(hcl.Contents[0].(mcp.TextResourceContents).Text, "rubric \"") {
				t.Errorf("%s: %v", rs.Rubrics[0].Resource, err)
			}
			prompt, err := c.GetPrompt(context.Background(), mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: "improve-tool-descriptions", Arguments: map[string]string{"server": "tools.json"}}})
			if err != nil || !strings.Contains(prompt.Messages[0].Content.(mcp.TextContent).Text, "call lint_tool") {
				t.Errorf("prompt: %v %+v", err, prompt)
			}

			var lint struct {
				Results []struct {
					Rubric string  `json:"rubric"`
					Score  float64 `json:"score"`
					Issues []any   `json:"issues"`
				} `json:"results"`
				Skipped    []string                            `json:"skipped"`
				Suggestion struct{ Label, Description string } `json:"suggested_rewrite"`
			}
			call(t, c, "lint_tool", map[string]any{"tool": map[string]any{
				"name": "click", "description": "Clicks on the element.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"uid": map[string]any{"type": "string"}}},
			}}, &lint)
			if len(lint.Results) != 3 || lint.Results[0].Rubric != "schema-quality" || lint.Results[1].Rubric != "tdqs" || lint.Results[2].Rubric != "tool-safety" || len(lint.Skipped) != 0 {
				t.Fatalf("lint_tool results: %+v, skipped %v", lint.Results, lint.Skipped)
			}
			// A plain click tool is no threat: tool-safety finds nothing.
			if lint.Results[2].Score != 100 || len(lint.Results[2].Issues) != 0 {
				t.Errorf("tool-safety flagged a plain definition: %+v", lint.Results[2])
			}
			if len(lint.Results[0].Issues) == 0 || len(lint.Results[1].Issues) == 0 {
				t.Errorf("lint_tool found no issue in a bare definition: %+v", lint.Results)
			}
			if !strings.HasPrefix(lint.Suggestion.Label, "HYPOTHESIS") || !strings.HasPrefix(lint.Suggestion.Description, "Clicks on the element.\n[TO VERIFY: ") {
				t.Errorf("suggested rewrite: %+v", lint.Suggestion)
			}
		})
	}
}

// syncBuffer is a buffer written by one goroutine and read by another.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMCPCancel: a score whose server never answers tools/list is
// cancelled once its progress says the work has started; the call
// returns, and with one call slot a next call is served only because
// the cancelled one stopped its work (the request timeout is ten
// minutes, so nothing else would end it).
func TestMCPCancel(t *testing.T) {
	t.Parallel()
	if err := installFakeMCP(); err != nil {
		t.Fatal(err)
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			c := tr.start(t, "--max-calls", "1", "--request-timeout", "10m")
			started := make(chan struct{})
			var once sync.Once
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method == "notifications/progress" {
					once.Do(func() { close(started) })
				}
			})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req := mcp.CallToolRequest{}
			req.Params.Name = "score"
			req.Params.Arguments = map[string]any{"target": map[string]any{"command": []string{"fakemcp", "listhang"}}}
			req.Params.Meta = &mcp.Meta{ProgressToken: "cancel-me"}
			done := make(chan error, 1)
			go func() {
				res, err := c.CallTool(ctx, req)
				if err == nil {
					t.Errorf("a cancelled score returned a result: %s", resultText(res))
				}
				done <- err
			}()
			select {
			case <-started:
			case err := <-done:
				t.Fatalf("score ended before any progress: %v", err)
			}
			cancel()
			<-done
			var list struct {
				Rubrics []any `json:"rubrics"`
			}
			call(t, c, "rubrics", map[string]any{"rubric": "all"}, &list)
			if len(list.Rubrics) == 0 {
				t.Error("rubrics listed none after the cancellation")
			}
		})
	}
}

// TestMCPHostile: input meant to hurt the server is a tool error with a
// message saying what to do, and the server goes on serving. The server
// reads at most 64 KiB a target (--max-bytes), so that an inline target
// beyond it is 128 KiB, not the 100 MB that the default 64 MiB asks for:
// mcp-go decodes a request several times before rubric sees it, a minute
// of a busy machine's time for 100 MB, and the refusal is the same code
// (engine/mcpserver's TestInline holds it to the limit).
func TestMCPHostile(t *testing.T) {
	t.Parallel()
	if err := installFakeMCP(); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.hcl")
	if err := os.WriteFile(bad, []byte("rubric \"bad\" {\n  version = \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("a", 128<<10)
	// Each timeout case has a server of its own whose other bound is the
	// default, so that a busy machine slow to start fakemcp ends neither
	// on the wrong one (listhang must answer initialize to be asked for
	// its tools).
	c := stdioClient(t, "--request-timeout", "1s", "--max-bytes", "64KiB")
	slowStart := stdioClient(t, "--start-timeout", "1s", "--max-bytes", "64KiB")
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"128 KiB inline", "score", map[string]any{"target": map[string]any{"tools": map[string]any{"tools": []any{map[string]any{"name": "big", "description": huge}}}}}, "more than the 64 KiB a target may be"},
		// A timeout says which flag of rubric mcp gives more time, not
		// just that the time ran out.
		{"hanging server", "score", map[string]any{"target": map[string]any{"command": []string{"fakemcp", "hang"}}}, "no answer to initialize within 1s: the command did not answer as an MCP server over stdio in time; check that it starts one (run it in a terminal: it should wait for input), or start rubric mcp with a larger --start-timeout"},
		{"server that never lists", "score", map[string]any{"target": map[string]any{"command": []string{"fakemcp", "listhang"}}}, "no answer to tools/list within 1s: the server started but did not list its tools in time; start rubric mcp with a larger --request-timeout"},
		{"rubric that does not load", "score", map[string]any{"target": map[string]any{"file": corpusFile}, "rubric": bad}, `does not load`},
		{"two targets", "score", map[string]any{"target": map[string]any{"file": "a.json", "url": "http://127.0.0.1:1/mcp"}}, "give exactly one target"},
		{"no target", "score", map[string]any{}, "give target"},
		{"command not strings", "score", map[string]any{"target": map[string]any{"command": []any{"ls", 3}}}, "command[1] is not a string"},
		{"not a tool", "lint_tool", map[string]any{"tool": map[string]any{"description": "no name"}}, "tool is not a valid tool definition"},
		{"unknown report", "explain", map[string]any{"report_id": "r999"}, `no report "r999"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at := c
			if strings.Contains(tc.want, "--start-timeout") {
				at = slowStart
			}
			res := call(t, at, tc.tool, tc.args, nil)
			if !res.IsError || !strings.Contains(resultText(res), tc.want) {
				t.Errorf("IsError %v, %q; want an error containing %q", res.IsError, resultText(res), tc.want)
			}
		})
	}
	call(t, c, "rubrics", map[string]any{"rubric": "all"}, &struct{}{})
}

// TestMCPGradesItself: rubric mcp's own tools/list, read raw over stdio
// as rubric score reads a server, scores A under Schema Quality, at least
// 4.0 for every tool under TDQS with the heuristic, and has no
// tool-safety finding.
func TestMCPGradesItself(t *testing.T) {
	heavytest.Later(t)
	c := stdioClient(t)
	resp, err := c.GetTransport().SendRequest(context.Background(), transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(int64(99)), Method: string(mcp.MethodToolsList),
	})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "rubric-mcp.tools.json")
	if err := os.WriteFile(file, resp.Result, 0o644); err != nil {
		t.Fatal(err)
	}
	sq := cliReport(t, file, "schema-quality")
	if sq["grade"] != "A" {
		t.Errorf("Schema Quality: grade %v (score %v), want A; its issues: %v", sq["grade"], sq["score"], issuesOf(sq))
	}
	for _, tool := range sq["tools"].([]any) {
		if tool := tool.(map[string]any); tool["grade"] != "A" {
			t.Errorf("Schema Quality: %s has grade %v; its issues: %v", tool["name"], tool["grade"], tool["issues"])
		}
	}
	tdqs := cliReport(t, file, "tdqs")
	for _, tool := range tdqs["tools"].([]any) {
		tool := tool.(map[string]any)
		if tool["score"].(float64) < 4.0 {
			t.Errorf("TDQS: %s scores %v, below 4.0; its issues: %v", tool["name"], tool["score"], tool["issues"])
		}
	}
	if ts := cliReport(t, file, "tool-safety"); len(issuesOf(ts)) > 0 {
		t.Errorf("tool-safety findings: %v", issuesOf(ts))
	}
}

// issuesOf lists a JSON report's issues as tool: message.
func issuesOf(rep map[string]any) []string {
	var out []string
	for _, tool := range rep["tools"].([]any) {
		tool := tool.(map[string]any)
		for _, is := range tool["issues"].([]any) {
			out = append(out, fmt.Sprintf("%s: %s", tool["name"], is.(map[string]any)["message"]))
		}
	}
	return out
}

// TestMCPScoredOverHTTP: rubric score reads rubric mcp over streamable
// HTTP, with its own client, and grades it A.
func TestMCPScoredOverHTTP(t *testing.T) {
	heavytest.Later(t)
	rep := cliReport(t, httpServe(t), "schema-quality")
	if rep["grade"] != "A" || len(rep["tools"].([]any)) != 5 {
		t.Errorf("rubric score over HTTP: grade %v, %d tools", rep["grade"], len(rep["tools"].([]any)))
	}
}

// reportURIs are the kept reports resources/list lists.
func reportURIs(t *testing.T, c *client.Client) []string {
	t.Helper()
	list, err := c.ListResources(context.Background(), mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		if strings.HasPrefix(r.URI, "rubric://reports/") {
			uris = append(uris, r.URI)
		}
	}
	slices.Sort(uris)
	return uris
}

// notFound reads uri, which the server does not have, and wants MCP's
// "resource not found" error naming the URI, with the code of the
// client's revision (want): -32002 (mcp.ErrResourceNotFound) up to
// 2025-11-25, -32602 (mcp.ErrInvalidParams) from 2026-07-28 on. An
// internal error (-32603) would tell a client the server broke.
func notFound(t *testing.T, c *client.Client, uri string, want error) {
	t.Helper()
	_, err := c.ReadResource(context.Background(), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: uri}})
	if !errors.Is(err, want) || !strings.Contains(err.Error(), uri) {
		t.Errorf("reading %s: %v; want the resource-not-found error (%v) naming it", uri, err, want)
	}
}

// TestMCPReportResources: over each transport, a read of a report never
// made, or of a rubric:// URI of nothing, is MCP's resource-not-found
// error; a report that score keeps
// is listed by resources/list, readable at the URI it is listed under,
// and announced by notifications/resources/list_changed; once a newer
// report pushes it out of the store (--max-reports 1) it is no longer
// listed, the change is announced again, and reading it is the
// resource-not-found error.
func TestMCPReportResources(t *testing.T) {
	t.Parallel()
	inline := map[string]any{"tools": map[string]any{"tools": []any{map[string]any{
		"name": "echo", "description": "Echoes the text it is given.",
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string", "description": "The text to echo."}}},
	}}}}
	for _, tr := range []struct {
		name, version string
		start         func(testing.TB, string, ...string) *client.Client
		missing       error // what reading a resource it does not have is
	}{
		{"stdio", mcp.LATEST_PROTOCOL_VERSION, stdioClientAt, mcp.ErrInvalidParams},
		{"http", mcp.LATEST_PROTOCOL_VERSION, httpClientAt, mcp.ErrInvalidParams},
		{"stdio", "2025-11-25", stdioClientAt, mcp.ErrResourceNotFound},
		{"http", "2025-11-25", httpClientAt, mcp.ErrResourceNotFound},
	} {
		t.Run(tr.name+"/"+tr.version, func(t *testing.T) {
			c := tr.start(t, tr.version, "--max-reports", "1")
			changed := make(chan struct{}, 16)
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method == string(mcp.MethodNotificationResourcesListChanged) {
					changed <- struct{}{}
				}
			})
			// Over streamable HTTP, mcp-go delivers a notification that
			// answers no request on a stream it picks, and drops it when
			// it picks the stream of a call that has just ended: only
			// stdio is held to hearing each change.
			heard := func() {
				if tr.name == "stdio" {
					<-changed
				}
			}
			if got := reportURIs(t, c); len(got) != 0 {
				t.Fatalf("before any score, resources/list has reports: %v", got)
			}
			for _, uri := range []string{"rubric://reports/r9", "rubric://reports/", "rubric://rubrics/nope", "rubric://nothing"} {
				notFound(t, c, uri, tr.missing)
			}
			var first scored
			call(t, c, "score", map[string]any{"target": inline}, &first)
			if got := reportURIs(t, c); !slices.Equal(got, []string{first.Resource}) {
				t.Fatalf("after score, resources/list has reports %v, want [%s]", got, first.Resource)
			}
			heard() // kept
			res, err := c.ReadResource(context.Background(), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: first.Resource}})
			if err != nil {
				t.Fatal(err)
			}
			if body := res.Contents[0].(mcp.TextResourceContents).Text; !strings.Contains(body, `"embedded_surface"`) {
				t.Errorf("%s is not the report: %.200s", first.Resource, body)
			}
			var second scored
			call(t, c, "score", map[string]any{"target": inline}, &second)
			if got := reportURIs(t, c); !slices.Equal(got, []string{second.Resource}) {
				t.Fatalf("with --max-reports 1, after a second score resources/list has reports %v, want [%s]", got, second.Resource)
			}
			heard() // the second kept
			heard() // the first dropped
			notFound(t, c, first.Resource, tr.missing)
		})
	}
}

// TestMCPProgress: the progress notifications of a call rise with each
// one, as MCP requires, through the stages and the judge's answers: a
// TDQS score of 14 tools went 1, 2, ... 16 for its questions and then
// back to 2 for "scored", and lint_tool from 4 back to 3.
func TestMCPProgress(t *testing.T) {
	t.Parallel()
	c := stdioClient(t)
	type note struct {
		token    string
		progress float64
		message  string
	}
	notes := make(chan note, 256)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != "notifications/progress" {
			return
		}
		f := n.Params.AdditionalFields
		token, _ := f["progressToken"].(string)
		p, _ := f["progress"].(float64)
		msg, _ := f["message"].(string)
		notes <- note{token, p, msg}
	})
	for _, tc := range []struct {
		tool string
		args map[string]any
		last string // the message of the call's last notification
	}{
		{"score", map[string]any{"target": map[string]any{"file": corpusFile}, "rubric": "tdqs"}, "scored"},
		{"lint_tool", map[string]any{"tool": map[string]any{"name": "click", "description": "Clicks."}}, "linting with tool-safety"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = tc.tool, tc.args
			req.Params.Meta = &mcp.Meta{ProgressToken: tc.tool}
			if res, err := c.CallTool(context.Background(), req); err != nil || res.IsError {
				t.Fatalf("%s: %v %+v", tc.tool, err, res)
			}
			// Notifications may come after the result: read them up to
			// the call's last.
			var seen []float64
			for n := range notes {
				if n.token != tc.tool {
					t.Fatalf("a notification of another call: %+v", n)
				}
				if len(seen) > 0 && n.progress <= seen[len(seen)-1] {
					t.Errorf("progress %v (%q) after %v", n.progress, n.message, seen)
				}
				seen = append(seen, n.progress)
				if n.message == tc.last {
					break
				}
			}
			if len(seen) < 3 {
				t.Errorf("%s sent only %v", tc.tool, seen)
			}
		})
	}
}

// TestMCPOnTerminal: rubric mcp started by hand, its stdin a terminal,
// says on stderr what it is waiting for and how it is meant to be
// started, where it waited in silence; started by a client (stdin a
// pipe, every other test here) it says nothing.
func TestMCPOnTerminal(t *testing.T) {
	t.Parallel()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := installCompanions(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("rubric", "mcp")
	cmd.Env = append(os.Environ(), mcpEnv(t)...)
	cmd.Stdin = tty
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, "stdin is a terminal: an MCP client starts this command itself (claude mcp add rubric -- rubric mcp") {
		t.Errorf("rubric mcp on a terminal said %q", line)
	}
}
