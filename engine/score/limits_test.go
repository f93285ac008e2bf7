package score

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
)

// oneTool is a surface of one tool named name with description desc.
func oneTool(t *testing.T, name, desc string) *surface.Surface {
	t.Helper()
	b, err := json.Marshal(map[string]any{"tools": []any{map[string]any{
		"name": name, "description": desc, "inputSchema": map[string]any{"type": "object"},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("s.json", b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCostLimitGrowsWithTool: a formula that reads a tool's description
// once for each of twenty patterns does work that grows with the
// description; past a few hundred kilobytes a fixed cost limit stopped
// it, so a long enough definition made a rubric say nothing. The limit
// grows with the tool's length: every length the transports read is
// scored.
func TestCostLimitGrowsWithTool(t *testing.T) {
	r, err := rubric.Load("m.hcl", []byte(`rubric "m" {
  version = "1"
  tool {
    signals {
      hits = "find_all_each(tool.description, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 'secret'])"
    }
    metric "found" { value = "size(signals.hits.filter(h, h.pattern == 19))" }
    score = "metrics.found"
  }
  surface { score = "min(tools.map(t, t.score))" }
  grades = { A = 0 }
}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1_000, 600_000, 2_000_000} {
		desc := strings.Repeat("x", n) + " secret"
		rep, err := Run(context.Background(), r, oneTool(t, "read", desc), Options{})
		if err != nil {
			t.Fatalf("description of %d bytes: %v", n, err)
		}
		if got := rep.Tools[0].Score; got != "1.0" {
			t.Errorf("description of %d bytes: score %s, want 1.0", n, got)
		}
	}
}

// TestErrorCutsToolName: a formula that fails names the tool, quoting at
// most eval.NameQuoteMax bytes of its name, not the hundred thousand a
// server may send.
func TestErrorCutsToolName(t *testing.T) {
	r, err := rubric.Load("m.hcl", []byte(`rubric "m" {
  version = "1"
  tool { score = "size(tool.description) / 0" }
  surface { score = "min(tools.map(t, t.score))" }
  grades = { A = 0 }
}`))
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("n", 100_000)
	_, err = Run(context.Background(), r, oneTool(t, name, "d"), Options{})
	if err == nil {
		t.Fatal("a division by zero scored")
	}
	msg := err.Error()
	if want := `tool "` + strings.Repeat("n", 80) + `"…`; !strings.Contains(msg, want) {
		t.Errorf("the message does not quote the name cut at 80 bytes: %.300s", msg)
	}
	if len(msg) > 2000 {
		t.Errorf("the message is %d bytes long: %.300s", len(msg), msg)
	}
}

// TestCostLimitExplainedOnce: a let stopped by its cost limit fails the
// formula that read it, and the message explains the limit once, not
// once for the let and again for the formula.
func TestCostLimitExplainedOnce(t *testing.T) {
	r, err := rubric.Load("m.hcl", []byte(`rubric "m" {
  version = "1"
  tool {
    let {
      quadratic = "lists.range(3000).map(i, lists.range(3000).map(j, i + j)).flatten()"
    }
    score = "size(quadratic) > 0 ? 1 : 0"
  }
  surface { score = "min(tools.map(t, t.score))" }
  grades = { A = 0 }
}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), r, oneTool(t, "read", "d"), Options{})
	if err == nil {
		t.Fatal("a formula past its cost limit scored")
	}
	msg := err.Error()
	if n := strings.Count(msg, "the formula did more work than its cost limit"); n != 1 {
		t.Errorf("the limit is explained %d times, want once: %s", n, msg)
	}
}
