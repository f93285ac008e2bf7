package lang

import (
	"fmt"
	"testing"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestSplitEstimatedWithItsLastPiece: a split of a string all
// separators (the empty string among them) has one piece more than its
// characters, which cel-go's strings extension estimates it at; a macro
// over it, estimated at no iteration, ran untracked past its limit.
// Estimated with that piece, it is tracked, and what the tracker charges
// stays within the static estimate and the one on the data.
func TestSplitEstimatedWithItsLastPiece(t *testing.T) {
	heavytest.Later(t)
	e, err := NewEnv(wideVars...)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]any, 600)
	for i := range names {
		names[i] = fmt.Sprintf("n%d", i)
	}
	act := Vars{"tool": ToolValue(map[string]any{"name": "t"}), "signals": map[string]any{"names": names, "empty": "", "commas": ",,"}}
	const size = 4096
	limit := LimitFor(CostLimit, size)
	scan := `signals.names.all(a, signals.names.all(b, b != a + 'x'))`
	for _, src := range []string{
		`''.split(',').all(x, ` + scan + `)`,
		`signals.empty.split(',').all(x, ` + scan + `)`,
		`',,'.split(',').map(x, x + 'y').size()`,
		`signals.commas.split(',', 5).map(x, x + 'y').size()`,
	} {
		p := compileAt(t, e, src, limit)
		_, charged, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if p.Untracked(size) && charged > limit {
			t.Errorf("%s: untracked by its static estimate, charged %d past its limit %d", src, charged, limit)
		}
		if est := p.costOn(act, size); charged > est {
			t.Errorf("%s: charged %d, above its estimate on the data %d", src, charged, est)
		}
	}
}
