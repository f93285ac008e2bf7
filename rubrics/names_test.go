package rubrics

import (
	"slices"
	"testing"
)

func TestNames(t *testing.T) {
	if got, want := Names(), []string{"gradable", "schema-quality", "tdqs", "tool-safety", "toolset"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	// Every rubric lint_tool applies is built in.
	for _, name := range Lint {
		if _, err := Find(name); err != nil {
			t.Errorf("Find(%q): %v", name, err)
		}
	}
}
