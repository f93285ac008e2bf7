package main

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strconv"
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

var toolNames = []string{"export", "find_bookmarks", "get_data", "remove", "save", "search", "update_bookmark"}

// TestDefectsOverStdio checks, on the bytes of tools/list, that each
// defect tools.go claims is really published.
func TestDefectsOverStdio(t *testing.T) {
	t.Parallel()
	s := wiretest.Start(t)
	var init struct {
		ServerInfo struct{ Name, Version string } `json:"serverInfo"`
	}
	if err := json.Unmarshal(s.Handshake(), &init); err != nil {
		t.Fatal(err)
	}
	if init.ServerInfo.Name != "sloppy" || init.ServerInfo.Version != "1.0.0" {
		t.Errorf("serverInfo %+v, want sloppy 1.0.0", init.ServerInfo)
	}
	list, _ := s.ListTools()
	tools := byName(t, list)
	if got := slices.Sorted(maps.Keys(tools)); !slices.Equal(got, toolNames) {
		t.Fatalf("tools %v, want %v", got, toolNames)
	}

	// Defects every tool shares.
	for name, tool := range tools {
		if _, ok := tool["title"]; ok {
			t.Errorf("%s has a title", name)
		}
		if _, ok := tool["outputSchema"]; ok {
			t.Errorf("%s has an outputSchema", name)
		}
		if ann, _ := tool["annotations"].(map[string]any); len(ann) != 0 {
			t.Errorf("%s has annotations %v", name, ann)
		}
		desc := tool["description"].(string)
		if n := len(strings.Fields(desc)); n > 7 {
			t.Errorf("%s: a description of %d words is not vague enough: %q", name, n, desc)
		}
		if strings.Contains(strings.ToLower(desc), "return") {
			t.Errorf("%s: the description says what it returns: %q", name, desc)
		}
		for pname, p := range params(tool) {
			if _, ok := p["description"]; ok {
				t.Errorf("%s.%s has a description", name, pname)
			}
		}
	}

	// Names that restate behaviour: the description is the name again.
	for _, name := range []string{"get_data", "find_bookmarks", "update_bookmark"} {
		if desc := tools[name]["description"].(string); !restates(name, desc) {
			t.Errorf("%s: %q adds words to the name", name, desc)
		}
	}

	// Untyped parameters.
	for _, p := range []string{"get_data.id", "find_bookmarks.text", "find_bookmarks.limit", "remove.id"} {
		tool, pname, _ := strings.Cut(p, ".")
		if _, ok := params(tools[tool])[pname]["type"]; ok {
			t.Errorf("%s has a type", p)
		}
	}

	// No required list, except on update_bookmark.
	for name, tool := range tools {
		_, has := tool["inputSchema"].(map[string]any)["required"]
		if has != (name == "update_bookmark") {
			t.Errorf("%s: required present %v", name, has)
		}
	}

	// An array without items and objects without properties.
	if _, ok := params(tools["search"])["tags"]["items"]; ok {
		t.Error("search.tags has items")
	}
	for _, p := range []string{"search.filters", "update_bookmark.fields", "export.options"} {
		tool, pname, _ := strings.Cut(p, ".")
		schema := params(tools[tool])[pname]
		if schema["type"] != "object" || schema["properties"] != nil {
			t.Errorf("%s: want an object without properties, got %v", p, schema)
		}
	}

	// A string parameter named data that holds a JSON document.
	if data := params(tools["save"])["data"]; data["type"] != "string" {
		t.Errorf("save.data: %v", data)
	}

	// A destructive tool with no hint and no warning.
	desc := strings.ToLower(tools["remove"]["description"].(string))
	for _, w := range []string{"delete", "permanent", "destructive", "irreversible", "undo", "cannot"} {
		if strings.Contains(desc, w) {
			t.Errorf("remove warns with %q: %q", w, desc)
		}
	}

	// A confusable pair: both find bookmarks, neither names the other.
	a, b := tools["search"]["description"].(string), tools["find_bookmarks"]["description"].(string)
	if !strings.Contains(a, "bookmarks") || !strings.Contains(b, "bookmarks") || strings.Contains(a, "find_bookmarks") || strings.Contains(b, "search") {
		t.Errorf("search %q and find_bookmarks %q are told apart", a, b)
	}

	s.CloseStdin()
	if code := s.Wait(); code != 0 {
		t.Errorf("exit status %d after stdin closed, want 0", code)
	}
}

// TestToolsWork shows the tools do what the vague words hide.
func TestToolsWork(t *testing.T) {
	t.Parallel()
	s := wiretest.Start(t)
	s.Handshake()

	_, text, isErr := s.CallTool("save", map[string]any{"data": `{"url":"https://go.dev/blog/","title":"The Go Blog","tags":["go"]}`})
	if isErr || text != "ok bm-6" {
		t.Fatalf("save: isError %v, %q", isErr, text)
	}
	if _, text, isErr = s.CallTool("get_data", map[string]any{"id": 6}); isErr || !strings.Contains(text, "https://go.dev/blog/") {
		t.Errorf("get_data 6: isError %v, %q", isErr, text)
	}

	// The confusable pair returns the same bookmarks.
	_, viaSearch, _ := s.CallTool("search", map[string]any{"q": "json", "filters": map[string]any{"limit": 50}})
	_, viaFind, _ := s.CallTool("find_bookmarks", map[string]any{"text": "json", "limit": "50"})
	if ids(t, viaSearch) != ids(t, viaFind) || ids(t, viaSearch) == "" {
		t.Errorf("search gave %s, find_bookmarks %s", ids(t, viaSearch), ids(t, viaFind))
	}

	// save with an id overwrites every field, blanking the note.
	if _, text, isErr = s.CallTool("save", map[string]any{"data": `{"id":"bm-2","url":"https://modelcontextprotocol.io/specification","title":"MCP"}`}); isErr {
		t.Fatalf("save over bm-2: %q", text)
	}
	if _, text, _ = s.CallTool("get_data", map[string]any{"id": "bm-2"}); !strings.Contains(text, `"note":""`) {
		t.Errorf("save over bm-2 kept the note: %s", text)
	}

	if _, text, isErr = s.CallTool("update_bookmark", map[string]any{"id": "bm-3", "fields": map[string]any{"title": "JSON Schema"}}); isErr || text != "ok" {
		t.Errorf("update_bookmark: isError %v, %q", isErr, text)
	}

	// remove deletes for good.
	if _, text, isErr = s.CallTool("remove", map[string]any{"id": "bm-1"}); isErr || text != "ok" {
		t.Errorf("remove: isError %v, %q", isErr, text)
	}
	if _, _, isErr = s.CallTool("get_data", map[string]any{"id": "bm-1"}); !isErr {
		t.Error("bm-1 is still there after remove")
	}

	if _, text, isErr = s.CallTool("export", map[string]any{"format": "markdown"}); isErr || !strings.Contains(text, "- [The Go Blog](https://go.dev/blog/)") {
		t.Errorf("export markdown: isError %v, %q", isErr, text)
	}
}

// TestHTTPPagination serves on a free port with two tools a page.
func TestHTTPPagination(t *testing.T) {
	t.Parallel()
	s := wiretest.Start(t, "--http", "127.0.0.1:0", "--page-size", "2")
	s.Handshake()
	list := s.PagedTools(2, 4)
	if got := slices.Sorted(maps.Keys(byName(t, list))); !slices.Equal(got, toolNames) || len(list) != len(toolNames) {
		t.Errorf("tools across pages %v, want %v", got, toolNames)
	}
	if _, text, isErr := s.CallTool("get_data", map[string]any{"id": "bm-4"}); isErr || !strings.Contains(text, "net/http") {
		t.Errorf("get_data over HTTP: isError %v, %q", isErr, text)
	}
	s.StopWith(syscall.SIGTERM)
}

// TestSchemaQualityIsPoor scores the raw tools/list with the built-in
// Schema Quality rubric.
func TestSchemaQualityIsPoor(t *testing.T) {
	t.Parallel()
	s := wiretest.Start(t)
	s.Handshake()
	list, _ := s.ListTools()
	rep := wiretest.Score(t, "schema-quality", list)
	t.Logf("schema-quality: %s (exactly %s), grade %s", *rep.Score, *rep.Exact, *rep.Grade)
	overall, err := strconv.ParseFloat(rep.Score.String(), 64)
	if err != nil {
		t.Fatal(err)
	}
	if overall >= 60 {
		t.Errorf("overall %v, want below 60", overall)
	}
	for _, tool := range rep.Tools {
		t.Logf("  %-16s %5s  %d issues", tool.Name, tool.Score, len(tool.Issues))
		if tool.Exact == "100" {
			t.Errorf("%s passes every check", tool.Name)
		}
	}
}

// restates reports whether desc says nothing but the words of name,
// give or take an article, a plural or a third-person s.
func restates(name, desc string) bool {
	words := strings.Split(name, "_")
	for _, w := range strings.Fields(strings.ToLower(desc)) {
		w = strings.TrimRight(w, ".")
		if w == "a" || w == "an" || w == "the" {
			continue
		}
		if !slices.Contains(words, w) && !slices.Contains(words, strings.TrimSuffix(w, "s")) && !slices.Contains(words, w+"s") {
			return false
		}
	}
	return true
}

func byName(t *testing.T, list []json.RawMessage) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, raw := range list {
		var tool map[string]any
		if err := json.Unmarshal(raw, &tool); err != nil {
			t.Fatal(err)
		}
		out[tool["name"].(string)] = tool
	}
	return out
}

func params(tool map[string]any) map[string]map[string]any {
	props, _ := tool["inputSchema"].(map[string]any)["properties"].(map[string]any)
	out := map[string]map[string]any{}
	for k, v := range props {
		out[k], _ = v.(map[string]any)
	}
	return out
}

// ids lists the ids in a JSON array of bookmarks, comma-separated.
func ids(t *testing.T, text string) string {
	t.Helper()
	var bs []struct{ ID string }
	if err := json.Unmarshal([]byte(text), &bs); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	var out []string
	for _, b := range bs {
		out = append(out, b.ID)
	}
	return strings.Join(out, ",")
}
