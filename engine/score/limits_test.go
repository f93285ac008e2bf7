package score

import (
	"context"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// toolRubric loads a rubric whose tool block holds tool, its surface
// scored by the lowest tool score, with one grade: the frame of the
// tests here that try a tool's formulas.
func toolRubric(t *testing.T, tool string) *rubric.Rubric {
	t.Helper()
	return loadRubric(t, `rubric "t" {
  version = "1"
  tool {
`+tool+`
  }
  surface { score = "min(tools.map(t, t.score))" }
  grades = { A = 0 }
}`)
}

// loadRubric loads the rubric src, failing the test if it does not load.
func loadRubric(t *testing.T, src string) *rubric.Rubric {
	t.Helper()
	r, err := rubric.Load("t.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCostLimitGrowsWithTool: a formula that reads a tool's description
// once for each of twenty patterns does work that grows with the
// description; past a few hundred kilobytes a fixed cost limit stopped
// it, so a long enough definition made a rubric say nothing. The limit
// grows with the tool's length: every length the transports read is
// scored.
func TestCostLimitGrowsWithTool(t *testing.T) {
	r := toolRubric(t, `    signals {
      hits = "find_all_each(tool.description, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 'secret'])"
    }
    metric "found" { value = "size(signals.hits.filter(h, h.pattern == 19))" }
    score = "metrics.found"`)
	for _, n := range []int{1_000, 600_000, 2_000_000} {
		desc := strings.Repeat("x", n) + " secret"
		rep, err := Run(context.Background(), r, surfacetest.OneTool(t, "read", desc), Options{})
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
	r := toolRubric(t, `    score = "size(tool.description) / 0"`)
	name := strings.Repeat("n", 100_000)
	_, err := Run(context.Background(), r, surfacetest.OneTool(t, name, "d"), Options{})
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
	heavytest.Later(t)
	r := toolRubric(t, `    let {
      quadratic = "lists.range(3000).map(i, lists.range(3000).map(j, i + j)).flatten()"
    }
    score = "size(quadratic) > 0 ? 1 : 0"`)
	_, err := Run(context.Background(), r, surfacetest.OneTool(t, "read", "d"), Options{})
	if err == nil {
		t.Fatal("a formula past its cost limit scored")
	}
	msg := err.Error()
	if n := strings.Count(msg, "the formula did more work than its cost limit"); n != 1 {
		t.Errorf("the limit is explained %d times, want once: %s", n, msg)
	}
}
