package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/rubricmcp/rubric/examples/servers/internal/wiretest"
)

// Every test starts the server as its own process (this test binary, run
// again) and reads the raw JSON it writes.
func TestMain(m *testing.M) {
	wiretest.ServeIfChild(run)
	os.Exit(m.Run())
}

var toolNames = []string{
	"create_bookmark", "delete_bookmark", "export_bookmarks", "get_bookmark",
	"search_bookmarks", "tag_bookmarks", "update_bookmark",
}

// TestDefinitionsOverStdio checks, on the bytes of tools/list, everything
// tidy promises about each tool.
func TestDefinitionsOverStdio(t *testing.T) {
	t.Parallel()
	s := wiretest.Start(t)
	var init struct {
		ServerInfo struct{ Name, Version string } `json:"serverInfo"`
	}
	if err := json.Unmarshal(s.Handshake(), &init); err != nil {
		t.Fatal(err)
	}
	if init.ServerInfo.Name != "tidy" || init.ServerInfo.Version != "1.0.0" {
		t.Errorf("serverInfo %+v, want tidy 1.0.0", init.ServerInfo)
	}
	tools, pages := s.ListTools()
	if len(pages) != 1 {
		t.Errorf("without --page-size tools/list took %d pages, want 1", len(pages))
	}
	if got := names(t, tools); !slices.Equal(got, toolNames) {
		t.Fatalf("tools %v, want %v", got, toolNames)
	}
	for _, raw := range tools {
		checkTool(t, raw)
	}
	s.CloseStdin()
	if code := s.Wait(); code != 0 {
		t.Errorf("exit status %d after stdin closed, want 0", code)
	}
}

// checkTool asserts one tool definition is complete.
func checkTool(t *testing.T, raw json.RawMessage) {
	t.Helper()
	var tool map[string]any
	if err := json.Unmarshal(raw, &tool); err != nil {
		t.Fatal(err)
	}
	name, _ := tool["name"].(string)
	errorf := func(format string, args ...any) {
		t.Helper()
		t.Errorf(name+": "+format, args...)
	}
	if title, _ := tool["title"].(string); strings.TrimSpace(title) == "" {
		errorf("no title")
	}

	desc, _ := tool["description"].(string)
	verb := strings.Split(name, "_")[0]
	if !strings.HasPrefix(strings.ToLower(desc), verb+" ") {
		errorf("description does not start with the verb %q: %q", verb, desc)
	}
	if !strings.Contains(desc, "Returns ") {
		errorf("description does not say what the tool returns")
	}
	if !slices.ContainsFunc(toolNames, func(n string) bool { return n != name && strings.Contains(desc, n) }) {
		errorf("description names no sibling tool to use instead")
	}
	if !strings.Contains(desc, "authentication") {
		errorf("description says nothing about authentication")
	}

	// Each hint is stated, and the description says the same thing.
	ann, _ := tool["annotations"].(map[string]any)
	hint := func(key string) bool {
		v, ok := ann[key].(bool)
		if !ok {
			errorf("annotations.%s is missing or not a boolean", key)
		}
		return v
	}
	agree := func(key string, words ...string) {
		t.Helper()
		says := slices.ContainsFunc(words, func(w string) bool { return strings.Contains(desc, w) })
		if v := hint(key); v != says {
			errorf("annotations.%s is %v but the description %s %q", key, v, map[bool]string{true: "says", false: "does not say"}[says], words)
		}
	}
	agree("readOnlyHint", "Read-only")
	agree("destructiveHint", "Destructive")
	agree("idempotentHint", "Idempotent", "idempotent")
	if hint("openWorldHint") {
		errorf("openWorldHint is true, but the tool only touches the in-memory store")
	}

	in, _ := tool["inputSchema"].(map[string]any)
	if in["type"] != "object" {
		errorf("inputSchema.type %v, want object", in["type"])
	}
	if in["additionalProperties"] != false {
		errorf("inputSchema.additionalProperties %v, want false", in["additionalProperties"])
	}
	props, _ := in["properties"].(map[string]any)
	if len(props) == 0 {
		errorf("inputSchema has no properties")
	}
	required, _ := in["required"].([]any)
	if len(required) == 0 {
		errorf("inputSchema has no required list")
	}
	for _, r := range required {
		if _, ok := props[r.(string)]; !ok {
			errorf("required %q is not a property", r)
		}
	}
	for pname, p := range props {
		p, _ := p.(map[string]any)
		if typ, _ := p["type"].(string); typ == "" {
			errorf("parameter %s has no type", pname)
		} else if typ == "array" {
			if items, _ := p["items"].(map[string]any); items["type"] == nil {
				errorf("array parameter %s has no typed items", pname)
			}
		}
		if d, _ := p["description"].(string); strings.TrimSpace(d) == "" {
			errorf("parameter %s has no description", pname)
		}
	}

	out, _ := tool["outputSchema"].(map[string]any)
	if out["type"] != "object" {
		errorf("outputSchema.type %v, want object", out["type"])
	}
	if ps, _ := out["properties"].(map[string]any); len(ps) == 0 {
		errorf("outputSchema has no properties")
	}
}

// TestKeywordsReachTheWire: mcp-go's typed schema would drop these, the
// raw schemas keep them.
func TestKeywordsReachTheWire(t *testing.T) {
	t.Parallel()
	s := wiretest.Start(t)
	s.Handshake()
	tools, _ := s.ListTools()
	all := string(mustJSON(t, tools))
	for _, kw := range []string{`"enum":`, `"format":"uri"`, `"format":"date-time"`, `"minimum":`, `"maximum":`,
		`"maxLength":`, `"default":`, `"examples":`, `"pattern":`, `"minItems":`, `"uniqueItems":true`, `"minProperties":2`} {
		if !strings.Contains(all, kw) {
			t.Errorf("%s is missing from tools/list", kw)
		}
	}
}

// TestToolsWork calls every tool and checks the results and the errors.
func TestToolsWork(t *testing.T) {
	t.Parallel()
	s := wiretest.Start(t)
	s.Handshake()

	res, _, isErr := s.CallTool("search_bookmarks", map[string]any{"query": "", "tags": []string{"Reference"}, "limit": 2})
	if isErr || res["total"] != 3.0 || len(res["bookmarks"].([]any)) != 2 {
		t.Errorf("search_bookmarks reference, limit 2: %v", res)
	}

	res, _, isErr = s.CallTool("create_bookmark", map[string]any{"url": "https://go.dev/blog/", "title": "The Go Blog", "tags": []string{"go", "blog"}})
	created, _ := res["bookmark"].(map[string]any)
	if isErr || created["id"] != "bm-6" {
		t.Fatalf("create_bookmark: %v", res)
	}
	if _, text, isErr := s.CallTool("create_bookmark", map[string]any{"url": "https://go.dev/blog/", "title": "Again"}); !isErr || !strings.Contains(text, "bm-6") || !strings.Contains(text, "update_bookmark") {
		t.Errorf("creating the same URL twice: isError %v, %q", isErr, text)
	}

	if res, _, isErr = s.CallTool("get_bookmark", map[string]any{"id": "bm-6"}); isErr || res["bookmark"].(map[string]any)["title"] != "The Go Blog" {
		t.Errorf("get_bookmark: %v", res)
	}
	if _, text, isErr := s.CallTool("get_bookmark", map[string]any{"id": "bm-6", "verbose": true}); !isErr {
		t.Errorf("an argument outside the schema was accepted: %q", text)
	}
	if _, text, isErr := s.CallTool("get_bookmark", map[string]any{"id": "bm-404"}); !isErr || !strings.Contains(text, "search_bookmarks") {
		t.Errorf("unknown id: isError %v, %q", isErr, text)
	}

	if res, _, isErr = s.CallTool("update_bookmark", map[string]any{"id": "bm-6", "note": "Release posts."}); isErr || res["bookmark"].(map[string]any)["note"] != "Release posts." {
		t.Errorf("update_bookmark: %v", res)
	}
	if _, text, isErr := s.CallTool("update_bookmark", map[string]any{"id": "bm-6"}); !isErr {
		t.Errorf("update_bookmark with nothing to change was accepted: %q", text)
	}

	res, _, isErr = s.CallTool("tag_bookmarks", map[string]any{"ids": []string{"bm-1", "bm-6"}, "tags": []string{"Later"}})
	if tagged, _ := res["bookmarks"].([]any); isErr || len(tagged) != 2 || !slices.Contains(tagged[1].(map[string]any)["tags"].([]any), any("later")) {
		t.Errorf("tag_bookmarks: %v", res)
	}

	res, _, isErr = s.CallTool("export_bookmarks", map[string]any{"format": "csv", "tag": "later"})
	if content, _ := res["content"].(string); isErr || res["count"] != 2.0 || !strings.HasPrefix(content, "id,url,title,tags,note,created\n") {
		t.Errorf("export_bookmarks csv: %v", res)
	}

	if res, _, isErr = s.CallTool("delete_bookmark", map[string]any{"id": "bm-6"}); isErr || res["deleted"] != true {
		t.Errorf("delete_bookmark: %v", res)
	}
	if res, _, isErr = s.CallTool("delete_bookmark", map[string]any{"id": "bm-6"}); isErr || res["deleted"] != false {
		t.Errorf("deleting again should succeed and delete nothing: %v", res)
	}
}

// TestHTTPPagination serves on a free port with two tools a page: the
// cursor must lead through every tool once, and SIGTERM ends the server
// cleanly.
func TestHTTPPagination(t *testing.T) {
	t.Parallel()
	s := wiretest.Start(t, "--http", "127.0.0.1:0", "--page-size", "2")
	if !strings.HasSuffix(s.URL(), "/mcp") {
		t.Errorf("announced %q, want a URL ending in /mcp", s.URL())
	}
	s.Handshake()
	tools := s.PagedTools(2, 4)
	if got := names(t, tools); !slices.Equal(got, toolNames) {
		t.Errorf("tools across pages %v, want %v", got, toolNames)
	}
	res, _, isErr := s.CallTool("search_bookmarks", map[string]any{"query": "rfc"})
	if isErr || res["total"] != 1.0 {
		t.Errorf("search_bookmarks over HTTP: %v", res)
	}
	s.StopWith(syscall.SIGTERM)
}

// TestSignalEndsStdio: SIGINT while stdin is still open exits 0.
func TestSignalEndsStdio(t *testing.T) {
	t.Parallel()
	s := wiretest.Start(t)
	s.Handshake()
	s.StopWith(syscall.SIGINT)
}

// TestSchemaQualityIs100 scores the raw tools/list with the built-in
// Schema Quality rubric.
func TestSchemaQualityIs100(t *testing.T) {
	t.Parallel()
	s := wiretest.Start(t)
	s.Handshake()
	tools, _ := s.ListTools()
	rep := wiretest.Score(t, "schema-quality", tools)
	t.Logf("schema-quality: %s (exactly %s), grade %s", *rep.Score, *rep.Exact, *rep.Grade)
	if *rep.Exact != "100" {
		t.Errorf("overall %s, want 100", *rep.Exact)
	}
	for _, tool := range rep.Tools {
		if tool.Exact != "100" {
			t.Errorf("%s scores %s: %+v", tool.Name, tool.Exact, tool.Issues)
		}
	}
}

func TestBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--page-size", "-1"}, {"--nope"}, {"extra"}} {
		s := wiretest.Start(t, args...)
		if code := s.Wait(); code != 2 {
			t.Errorf("%v: exit status %d, want 2", args, code)
		}
	}
}

func names(t *testing.T, tools []json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, raw := range tools {
		var tool struct{ Name string }
		if err := json.Unmarshal(raw, &tool); err != nil {
			t.Fatal(err)
		}
		out = append(out, tool.Name)
	}
	slices.Sort(out)
	return out
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
