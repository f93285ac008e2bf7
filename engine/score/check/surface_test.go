package check_test

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/check"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestSurfaceToolsHoldWhatFormulasRead: surface.tools holds each tool
// cut down to the members the rubric's formulas read, or whole when a
// formula reads a tool whole, when an observer traces the formulas, or
// when the rubric asks questions; and nothing when no formula reads the
// surface. Once the surface's signals are computed (want is what it
// holds then), it keeps only what the other formulas read of the tools
// (here, none of their members), unless an observer traces them: the
// signals saw the tools as before (signal).
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
	none := []any{map[string]any{}, map[string]any{}}
	for _, tc := range []struct {
		name, signal, extra string
		observe             bool
		want                []any
		value               any // the signal's value, when not nil
	}{
		{"names", "surface.tools.map(t, t.name)", "", false, []any{map[string]any{"name": "a"}, map[string]any{"name": "b"}}, nil},
		{"has and in", "surface.tools.map(t, has(t.title) || 'description' in t)", "", false,
			[]any{map[string]any{"description": "reads"}, map[string]any{"title": "B"}}, nil},
		{"size", "size(surface.tools)", "", false, none, nil},
		{"server", "surface.server", "", false, none, nil},
		{"a tool whole", "surface.tools.filter(t, t.name == 'a')", "", false, none, []any{whole[0]}},
		{"observed", "surface.tools.map(t, t.name)", "", true, whole, nil},
		{"questions", "surface.tools.map(t, t.name)", question, false, none, []any{"a", "b"}},
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
			if got := sv.Signals["s"]; tc.value != nil && !reflect.DeepEqual(got, tc.value) {
				t.Errorf("the signal = %v, want %v", got, tc.value)
			}
		})
	}
}

// TestSurfaceToolsShareTheCanonicalBytes: the definitions a rubric that
// asks questions decodes for its surface's signals and hands to each
// tool (TDQS) are decoded in place: a string without escapes is the
// bytes of the tool's canonical form, not a copy of them, and reads as
// Definition's. Handed to its tool, a definition is no longer held by
// the surface: surface.tools keeps what TDQS's later formulas read of
// the tools (their number), and the tool's is asked for once.
func TestSurfaceToolsShareTheCanonicalBytes(t *testing.T) {
	const doc = `{"tools":[{"name":"read_note","description":"Reads one note by its id.","inputSchema":{"type":"object"}}]}`
	s, err := surface.ParseLean("t.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	sv, err := check.NewSurface(r, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := sv.Val["tools"]; !reflect.DeepEqual(got, []any{map[string]any{}}) {
		t.Errorf("after the signals, surface.tools = %v, want one tool and none of its members", got)
	}
	if got := sv.Signals["toolNames"]; !reflect.DeepEqual(got, []any{"read_note"}) {
		t.Errorf("the signal toolNames = %v", got)
	}
	def := sv.Tool(s, 0).Def
	if want := s.Tools[0].Definition(); !reflect.DeepEqual(def, want) {
		t.Fatalf("the tool's definition = %v, want %v", def, want)
	}
	if again := sv.Tool(s, 0).Def; again != nil {
		t.Errorf("the surface still holds the definition it handed to its tool")
	}
	desc := def["description"].(string)
	c := s.Tools[0].Canonical
	start := uintptr(unsafe.Pointer(unsafe.SliceData(c)))
	if p := uintptr(unsafe.Pointer(unsafe.StringData(desc))); p < start || p >= start+uintptr(len(c)) {
		t.Error("the description is a copy, not the canonical form's bytes")
	}
}
