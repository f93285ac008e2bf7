package check_test

import (
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/check"
	"github.com/rubricmcp/rubric/engine/surface"
)

// TestSurfaceToolsHoldWhatFormulasRead: surface.tools holds each tool
// cut down to the members the rubric's formulas read, or whole when a
// formula reads a tool whole, when an observer traces the formulas, or
// when the rubric asks questions; and nothing when no formula reads the
// surface.
func TestSurfaceToolsHoldWhatFormulasRead(t *testing.T) {
	const doc = `{"tools":[{"name":"a","description":"reads","inputSchema":{"type":"object"}},{"name":"b","title":"B"}]}`
	whole := []any{
		map[string]any{"name": "a", "description": "reads", "inputSchema": map[string]any{"type": "object"}},
		map[string]any{"name": "b", "title": "B"},
	}
	question := `
  question "q" {
    kind   = "test.q"
    per    = "surface"
    input  = "{}"
    system = "s"
    user   = "u"
    answer_schema = "{\"type\": \"object\"}"
  }`
	for _, tc := range []struct {
		name, signal, extra string
		observe             bool
		want                []any
	}{
		{"names", "surface.tools.map(t, t.name)", "", false, []any{map[string]any{"name": "a"}, map[string]any{"name": "b"}}},
		{"has and in", "surface.tools.map(t, has(t.title) || 'description' in t)", "", false,
			[]any{map[string]any{"description": "reads"}, map[string]any{"title": "B"}}},
		{"size", "size(surface.tools)", "", false, []any{map[string]any{}, map[string]any{}}},
		{"server", "surface.server", "", false, []any{map[string]any{}, map[string]any{}}},
		{"a tool whole", "surface.tools.filter(t, t.name == 'a')", "", false, whole},
		{"observed", "surface.tools.map(t, t.name)", "", true, whole},
		{"questions", "surface.tools.map(t, t.name)", question, false, whole},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `
rubric "r" {
  version = "1"
  grades  = { A = 1, F = 0 }` + tc.extra + `
  tool { score = "1" }
  surface {
    signals { s = "` + tc.signal + `" }
    score = "1"
  }
}`
			r, err := rubric.Load("r.hcl", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			s, err := surface.ParseLean("in.json", []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			var observe func(string, *lang.Program, lang.Vars)
			if tc.observe {
				observe = func(string, *lang.Program, lang.Vars) {}
			}
			sv, err := check.NewSurface(r, s, observe)
			if err != nil {
				t.Fatal(err)
			}
			if got := sv.Val["tools"]; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("surface.tools = %v, want %v", got, tc.want)
			}
		})
	}
}
