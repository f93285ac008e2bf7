package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/rubricmcp/rubric/engine/rubric"
)

// TestLintKeepsOtherRubrics: a rubric that cannot score the tool (here a
// formula that divides by zero) fails in its own result, saying why and
// quoting the tool's name cut short; the other rubrics' results stand,
// and the call is marked an error, never a quiet pass.
func TestLintKeepsOtherRubrics(t *testing.T) {
	const good = `rubric "good" {
  version = "1"
  tool { score = "size(tool.description)" }
  surface { score = "min(tools.map(t, t.score))" }
  grades = { A = 0 }
}`
	const bad = `rubric "bad" {
  version = "1"
  tool { score = "size(tool.description) / 0" }
  surface { score = "min(tools.map(t, t.score))" }
  grades = { A = 0 }
}`
	src := map[string]string{"good": good, "bad": bad}
	s := New(Options{Lint: []string{"good", "bad"}, Rubrics: Rubrics{Find: func(_ context.Context, ref string) (*rubric.Rubric, error) {
		text, ok := src[ref]
		if !ok {
			return nil, fmt.Errorf("no rubric %s", ref)
		}
		return rubric.Load(ref+".hcl", []byte(text))
	}}})
	defer s.Close()
	name := strings.Repeat("n", 10_000)
	req := mcp.CallToolRequest{}
	req.Params.Name = "lint_tool"
	req.Params.Arguments = map[string]any{"tool": map[string]any{"name": name, "description": "Reads.", "inputSchema": map[string]any{"type": "object"}}}
	var lint server.ToolHandlerFunc
	for _, t := range tools {
		if t.name == "lint_tool" {
			lint = s.wrap(paramsOf(t.name, t.input), t.work(s))
		}
	}
	res, err := lint(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Error("a rubric failed, and the call is not an error")
	}
	var out lintOut
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("no structured result: %v: %s", err, b)
	}
	if len(out.Results) != 2 || !out.Failed {
		t.Fatalf("results %+v, failed %v; want both rubrics", out.Results, out.Failed)
	}
	if g := out.Results[0]; g.Rubric != "good" || g.Score == nil || *g.Score != "6.0" || g.Error != "" {
		t.Errorf("the good rubric's result: %+v", g)
	}
	bd := out.Results[1]
	// No score, not a score of 0: a failed rubric must not read as graded.
	if bd.Rubric != "bad" || bd.Score != nil || !strings.Contains(bd.Error, "division by zero") {
		t.Errorf("the bad rubric's result: %+v", bd)
	}
	if len(bd.Error) > 1000 || !strings.Contains(bd.Error, strings.Repeat("n", 80)+`"…`) {
		t.Errorf("the error does not cut the name at 80 bytes: %.300s", bd.Error)
	}
}
