package check

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/eval"
)

// sharedLet is the text of the let that every formula of the check
// reads: each, pass and label.
const sharedLet = "params(tool).map(p, p.name)"

const sharedRubric = `rubric "t" {
  version = "1"
  check "described" {
    points = 10
    let {
      names = "` + sharedLet + `"
    }
    each  = "params(tool).filter(p, p.name in names)"
    pass  = "size(names) > 0 && described(item.schema)"
    label = "item.name + ' of ' + string(size(names))"
    issue = cel("'undescribed: ' + items.join(', ') + ' (' + string(size(names)) + ' parameters)'")
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 1, F = 0 }
}`

// TestLetComputedOncePerTool: a let read by the formulas of a check
// (each, pass for every item, label for every failing item, and its CEL
// issue message) is computed once for a tool, and the check finds what it finds with the
// let written out.
func TestLetComputedOncePerTool(t *testing.T) {
	r, err := rubric.Load("t.hcl", []byte(sharedRubric))
	if err != nil {
		t.Fatal(err)
	}
	c := r.Checks[0]
	prop := func(desc bool) map[string]any {
		if desc {
			return map[string]any{"type": "string", "description": "d"}
		}
		return map[string]any{"type": "string"}
	}
	for _, tt := range []struct {
		name          string
		props         map[string]any
		passed, total int
		failed        string
		computed      int
	}{
		// each reads the let only inside its filter, which runs on no
		// parameter: nothing reads it, and it is never computed.
		{"no parameters", nil, 0, 0, "", 0},
		{"one of three described", map[string]any{"x": prop(true), "y": prop(false), "z": prop(false)}, 1, 3, "y of 3, z of 3", 1},
		{"all described", map[string]any{"x": prop(true), "y": prop(true)}, 2, 2, "", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			schema := map[string]any{"type": "object"}
			if tt.props != nil {
				schema["properties"] = tt.props
			}
			tool := lang.ToolValue(map[string]any{"name": "a", "inputSchema": schema})
			computed := 0
			sc := &eval.Scope{Vars: lang.Vars{"tool": tool, "item": nil}, Size: eval.Unbounded,
				Observe: func(_ string, p *lang.Program, _ lang.Vars) {
					if p.Source == sharedLet {
						computed++
					}
				}}
			res, _, err := runCheck(c, sc)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Failed) > 0 {
				// The message reads the let too: the value the check's
				// formulas computed.
				msg, err := issueText(c, sc, res.Failed)
				if err != nil {
					t.Fatal(err)
				}
				if want := "undescribed: " + tt.failed + " (3 parameters)"; msg != want {
					t.Errorf("message %q, want %q", msg, want)
				}
			}
			if computed != tt.computed {
				t.Errorf("the let was computed %d times for one tool, want %d", computed, tt.computed)
			}
			if res.Passed != tt.passed || res.Total != tt.total || strings.Join(res.Failed, ", ") != tt.failed {
				t.Errorf("passed %d of %d, failed %q; want %d of %d, failed %q", res.Passed, res.Total, res.Failed, tt.passed, tt.total, tt.failed)
			}
		})
	}
}
