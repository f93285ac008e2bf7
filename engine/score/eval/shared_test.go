package eval

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
)

// TestSurfaceVarsShared: in a tool's scope the surface's variables are
// shared with every other tool's (see vars.SharedValue), so that the
// estimate walks a surface's value once for all of them; a tool's own
// variables, a let, and any variable of a scope of no tool are not.
func TestSurfaceVarsShared(t *testing.T) {
	sig := map[string]any{"names": []any{"a", "b"}}
	vs := lang.Vars{"surface_signals": sig, "signals": map[string]any{}, "surface": map[string]any{}}
	for _, tt := range []struct {
		tool, name string
		want       bool
	}{
		{"t", "surface_signals", true},
		{"t", "surface", true},
		{"t", "surface_answers", false}, // not in the scope
		{"t", "signals", false},
		{"", "surface_signals", false},
	} {
		s := &Scope{Vars: vs, Tool: tt.tool}
		var act lang.SharedActivation = vars{s}
		v, ok := act.SharedValue(tt.name)
		if ok != tt.want {
			t.Errorf("tool %q, %s: shared %v, want %v", tt.tool, tt.name, ok, tt.want)
		}
		if ok && tt.name == "surface_signals" && v.(map[string]any)["names"] == nil {
			t.Errorf("tool %q, %s: %v, not the scope's value", tt.tool, tt.name, v)
		}
	}
	s := &Scope{Vars: vs, Tool: "t"}
	la := &letActivation{s: s, lets: []*lang.LetProgram{{Name: "surface"}}}
	if _, ok := la.SharedValue("surface"); ok {
		t.Error("a let named as a surface variable is shared")
	}
	if _, ok := la.SharedValue("surface_signals"); !ok {
		t.Error("surface_signals beside a let is not shared")
	}
}
