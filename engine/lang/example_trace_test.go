package lang_test

import (
	"fmt"
	"strings"

	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/engine/lang"
)

// A formula knows what it reads, and a traced evaluation shows every
// computation with the values it saw: the weighted sum of a tool's
// dimensions, term by term.
func ExampleProgram_Trace() {
	env, _ := lang.NewEnv(lang.Var{Name: "metrics", Type: lang.Object})
	p, _ := env.Compile("round(sum(['clarity', 'brevity'].map(d, metrics.scores[d] * metrics.weights[d])) / 100, 1)", nil)
	for _, r := range p.Refs() {
		fmt.Println("reads", r)
	}
	tr, _ := p.Trace(lang.Vars{"metrics": map[string]any{
		"weights": map[string]any{"clarity": 60, "brevity": 40},
		"scores":  map[string]any{"clarity": 4, "brevity": 3},
	}})
	show := func(v ref.Val) string {
		if n, err := lang.ToNum(v); err == nil {
			return n.String()
		}
		out, _ := lang.Native(v)
		return strings.ReplaceAll(fmt.Sprint(out), " ", ", ")
	}
	for _, s := range tr.Steps(show, 10) {
		for _, b := range s.Bound {
			fmt.Printf("  %s = %v: ", b.Name, b.Value)
		}
		fmt.Println(s.Text, "=", show(s.Value))
	}
	// Output:
	// reads metrics.scores
	// reads metrics.weights
	//   d = clarity: 4 * 60 = 240
	//   d = brevity: 3 * 40 = 120
	// sum([240, 120]) = 360
	// 360 / 100 = 3.6
	// round(3.6, 1) = 3.6
}
