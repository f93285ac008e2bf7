package rubric

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
)

// letRubric is a rubric whose checks read a rubric-level let and a
// check-level let; inlined is the same rubric with each let written out
// where it is read.
const letRubric = `rubric "t" {
  version = "1"
  let {
    described = "params(tool).filter(p, described(p.schema))"
    share     = "size(described) * 100 / max([size(params(tool)), 1])"
  }
  check "described" {
    points = 10
    let {
      half = "share >= 50"
    }
    pass  = "half && share <= 100"
    issue = "x"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit)) + share"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 1, F = 0 }
}`

const inlinedRubric = `rubric "t" {
  version = "1"
  check "described" {
    points = 10
    pass  = "size(params(tool).filter(p, described(p.schema))) * 100 / max([size(params(tool)), 1]) >= 50 && size(params(tool).filter(p, described(p.schema))) * 100 / max([size(params(tool)), 1]) <= 100"
    issue = "x"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit)) + size(params(tool).filter(p, described(p.schema))) * 100 / max([size(params(tool)), 1])"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 1, F = 0 }
}`

// TestLetComputesWhatInliningDoes: a formula that names a let computes
// what the formula with the let written out computes, on every tool.
func TestLetComputesWhatInliningDoes(t *testing.T) {
	withLet, inlined := loadString(t, letRubric), loadString(t, inlinedRubric)
	prop := func(desc bool) map[string]any {
		if desc {
			return map[string]any{"type": "string", "description": "d"}
		}
		return map[string]any{"type": "string"}
	}
	for _, tt := range []struct {
		name string
		tool map[string]any
		pass bool
	}{
		{"no parameters", map[string]any{"name": "a", "inputSchema": map[string]any{"type": "object"}}, false},
		{"one of two described", map[string]any{"name": "b", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{"x": prop(true), "y": prop(false)}}}, true},
		{"one of three described", map[string]any{"name": "c", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{"x": prop(true), "y": prop(false), "z": prop(false)}}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]any{"tool": lang.ToolValue(tt.tool), "item": nil}
			got, err := withLet.Checks[0].Pass.Eval(vars)
			if err != nil {
				t.Fatal(err)
			}
			want, err := inlined.Checks[0].Pass.Eval(vars)
			if err != nil {
				t.Fatal(err)
			}
			if got.Value() != want.Value() || got.Value() != tt.pass {
				t.Errorf("with let %v, inlined %v, want %v", got, want, tt.pass)
			}
		})
	}
}

// TestUnreadLetMovesNothing: a let no formula reads leaves every formula,
// and so the digest, as they were.
func TestUnreadLetMovesNothing(t *testing.T) {
	without := loadString(t, inlinedRubric)
	with := loadString(t, strings.Replace(inlinedRubric, `version = "1"`, `version = "1"
  let {
    unused = "size(params(tool))"
  }`, 1))
	if with.Digest != without.Digest {
		t.Errorf("an unread let moved the digest: %s, was %s", with.Digest, without.Digest)
	}
	// A let that is read is part of what the formula computes.
	if used := loadString(t, letRubric); used.Digest == without.Digest {
		t.Errorf("a rubric whose formulas read lets has the digest of one that does not")
	}
}
