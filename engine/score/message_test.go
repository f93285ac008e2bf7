package score

import (
	"context"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
)

// TestCELIssueMessage: an issue written cel("...") is computed from the
// tool and the failing items' labels, where a template only lists them;
// a check without each sees no items.
func TestCELIssueMessage(t *testing.T) {
	surf, err := surface.Parse("s.json", []byte(`{"tools":[
  {"name":"search","inputSchema":{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"},"d":{"type":"string","description":"x"}}}},
  {"name":"nodesc","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := rubric.Load("m.hcl", []byte(`rubric "m" {
  version = "1"
  check "described" {
    points = 1
    each   = "params(tool)"
    pass   = "described(item.schema)"
    issue  = cel("tool.name + ': ' + string(size(items)) + (size(items) == 1 ? ' parameter has' : ' parameters have') + ' no description (' + items.join(', ') + ')'")
  }
  check "titled" {
    points = 1
    pass   = "has(tool.title)"
    issue  = cel(<<-CEL
      'add a title to ' + tool.name + (size(items) == 0 ? '' : '?')
    CEL
    )
  }
  tool { score = "sum(checks.map(c, c.points * c.credit))" }
  surface { score = "mean(tools.map(t, t.score))" }
  grades = { A = 0 }
}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), r, surf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"search": {"search: 2 parameters have no description (n, q)", "add a title to search"},
		"nodesc": {"nodesc: 1 parameter has no description (q)", "add a title to nodesc"},
	}
	for _, tool := range rep.Tools {
		var got []string
		for _, is := range tool.Issues {
			got = append(got, is.Message)
		}
		if len(got) != len(want[tool.Name]) {
			t.Fatalf("%s: got %q, want %q", tool.Name, got, want[tool.Name])
		}
		for i := range got {
			if got[i] != want[tool.Name][i] {
				t.Errorf("%s: got %q, want %q", tool.Name, got[i], want[tool.Name][i])
			}
		}
	}
}
