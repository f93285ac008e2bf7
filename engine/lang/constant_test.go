package lang

import (
	"fmt"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
)

// A formula that reads nothing but the variables fixed when it was
// compiled (a rubric's weights) has one value for every tool: it is
// computed once and then handed out without evaluating it again, while
// a formula that reads any other variable is evaluated every time.
func TestConstantFormulasAreComputedOnce(t *testing.T) {
	e, err := NewEnv(Var{"weights", Object}, Var{"tool", Object})
	if err != nil {
		t.Fatal(err)
	}
	globals := map[string]any{"weights": map[string]any{"a": num.Int(25), "b": num.Int(20)}}
	tools := []Vars{
		{"tool": map[string]any{"name": "get"}},
		{"tool": map[string]any{"name": "search_notes"}},
	}
	tests := []struct {
		name     string
		src      string
		constant bool
		want     []string // the value for each tool, printed
	}{
		{"a map of the fixed weights", "{'a': weights.a, 'both': weights.a + weights.b}", true,
			[]string{"map[a:25 both:45]", "map[a:25 both:45]"}},
		{"a literal", "{'score': 1, 'justification': 'not asked'}", true,
			[]string{"map[justification:not asked score:1]", "map[justification:not asked score:1]"}},
		{"a list comprehension over the weights", "['a', 'b'].map(d, weights[d] * 2)", true,
			[]string{"[50 40]", "[50 40]"}},
		{"the weights and the tool", "weights.a + size(tool.name)", false,
			[]string{"28", "37"}},
		{"the tool alone", "tool.name", false,
			[]string{"get", "search_notes"}},
		{"a macro variable named like the tool, and the tool", "['x'].map(tool, tool + '!') + [tool.name]", false,
			[]string{"[x! get]", "[x! search_notes]"}},
		{"a macro variable named like the tool alone", "['x'].map(tool, tool + '!')", true,
			[]string{"[x!]", "[x!]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ds := e.CompileWith(tt.src, nil, globals)
			if ds != nil {
				t.Fatal(ds)
			}
			for i, vars := range tools {
				v, err := p.EvalSized(vars, 64)
				if err != nil {
					t.Fatal(err)
				}
				out, err := Native(v)
				if err != nil {
					t.Fatal(err)
				}
				if got := sprint(out); got != tt.want[i] {
					t.Errorf("tool %d: got %s, want %s", i, got, tt.want[i])
				}
			}
			// A copy for another cost limit shares the value.
			q, err := p.WithCostLimit(CostLimit * 4)
			if err != nil {
				t.Fatal(err)
			}
			vars := tools[0]
			if !allocsCounted() {
				return
			}
			allocs := testing.AllocsPerRun(50, func() {
				if _, err := q.EvalSized(vars, 64); err != nil {
					t.Fatal(err)
				}
			})
			if tt.constant && allocs != 0 {
				t.Errorf("a constant formula was evaluated again: %v allocations an evaluation", allocs)
			}
			if !tt.constant && allocs == 0 {
				t.Errorf("a formula that reads the tool was not evaluated")
			}
		})
	}
}

// sprint prints a native value the way the table above writes it.
func sprint(v any) string { return fmt.Sprint(v) }
