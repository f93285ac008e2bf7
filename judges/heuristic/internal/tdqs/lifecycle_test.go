package tdqs

import (
	"testing"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// TestClassBits: every lifecycle class a verb has is one of
// lifecycleClasses, with a bit of its own in lifecycle's sets.
func TestClassBits(t *testing.T) {
	var all uint8
	for _, c := range lifecycleClasses {
		b := classBit(c)
		if b == 0 || all&b != 0 {
			t.Errorf("class %q has bit %b, which is none or another's", c, b)
		}
		all |= b
	}
	for verb, c := range lex.LifecycleOf {
		if classBit(c) == 0 {
			t.Errorf("the class %q of %q has no bit", c, verb)
		}
	}
}
