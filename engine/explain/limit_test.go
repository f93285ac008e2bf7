package explain_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/explain"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
)

// TestExplainLongToolWithinTheRunsLimit: explain traces a tool's
// formulas under the cost limit the run gave them, which grows with the
// tool's length, not under the fixed limit of a formula: a tool as long
// as --max-bytes lets in is scored, so it is explained too. (A trace
// meets its limit since it is tracked as scoring is; under the fixed
// limit, a search of a description of two megabytes for twenty patterns
// was explained as over its limit, though it scored.)
func TestExplainLongToolWithinTheRunsLimit(t *testing.T) {
	r, err := rubric.Load("m.hcl", []byte(`rubric "m" {
  version = "1"
  tool {
    metric "found" {
      value = "size(find_all_each(tool.description, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 'secret']))"
    }
    score = "metrics.found"
  }
  surface { score = "min(tools.map(t, t.score))" }
  grades = { A = 0 }
}`))
	if err != nil {
		t.Fatal(err)
	}
	s := surfacetest.OneTool(t, "read", strings.Repeat("x", 2_000_000)+" secret")
	rep := scoredReport(t, r, s)
	var out bytes.Buffer
	if err := explain.Write(context.Background(), &out, r, rep, explain.Request{Tool: "read"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "cost limit") {
		t.Errorf("explained as over its cost limit, though it scored:\n%s", out.String())
	}
}
