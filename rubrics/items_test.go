package rubrics_test

import (
	"slices"
	"testing"
)

// TestToolMembersRead: which members of surface.tools' items each
// built-in rubric's formulas read (a run then builds each tool of
// surface.tools with only those), or that one reads a tool whole.
func TestToolMembersRead(t *testing.T) {
	for _, tc := range []struct {
		rubric  string
		members []string // nil: a formula reads a tool whole
	}{
		{"schema-quality", []string{}},
		{"tool-safety", []string{"name"}},
		{"tdqs", []string{"description", "inputSchema", "name"}},
		{"toolset", []string{"name", "rubric/server"}},
		{"gradable", nil},
	} {
		got, ok := builtin(t, tc.rubric).ItemMembers("surface", "tools")
		if ok != (tc.members != nil) || !slices.Equal(got, tc.members) {
			t.Errorf("%s reads %v of each tool (ok %v), want %v", tc.rubric, got, ok, tc.members)
		}
	}
}
