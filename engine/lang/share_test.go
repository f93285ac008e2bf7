package lang_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/score/eval"
)

// TestLetComputedOncePerScope: a let is computed once in a scope however
// many of its formulas read it, again only when a variable it reads is
// set, and never when no formula reads it.
func TestLetComputedOncePerScope(t *testing.T) {
	lets := []lang.Let{
		{Name: "shared", Src: "counted(tool.name)"},
		{Name: "louder", Src: "shared + '!'"},
	}
	type step struct {
		formula string // evaluated in the current scope
		set     string // or: set this variable (to a new value), or
		scope   bool   // start a new scope (the next tool)
	}
	for _, tt := range []struct {
		name     string
		steps    []step
		computed int
	}{
		{"three formulas of one scope", []step{{formula: "size(shared) > 0"}, {formula: "shared + '?'"}, {formula: "shared == tool.name"}}, 1},
		{"read twice in one formula", []step{{formula: "shared + shared"}}, 1},
		{"through another let", []step{{formula: "louder"}, {formula: "shared"}, {formula: "size(louder)"}}, 1},
		{"one scope for each of two tools", []step{{formula: "shared"}, {formula: "shared"}, {scope: true}, {formula: "shared"}, {formula: "louder"}}, 2},
		{"a variable it does not read changes", []step{{formula: "shared"}, {set: "n"}, {formula: "shared"}}, 1},
		{"a variable it reads changes", []step{{formula: "shared"}, {set: "tool"}, {formula: "shared"}, {formula: "louder"}}, 2},
		{"no formula reads it", []step{{formula: "tool.name"}, {formula: "n + 1"}}, 0},
		{"read only on a branch not taken", []step{{formula: "n > 5 ? shared : 'none'"}}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			computed := 0
			env, err := lang.NewCountingEnv(&computed, lang.Var{Name: "tool", Type: lang.Object}, lang.Var{Name: "n", Type: cel.IntType})
			if err != nil {
				t.Fatal(err)
			}
			newScope := func() *eval.Scope {
				return &eval.Scope{Vars: lang.Vars{"tool": map[string]any{"name": "a"}, "n": int64(1)}, Size: eval.Unbounded}
			}
			sc := newScope()
			for _, s := range tt.steps {
				switch {
				case s.scope:
					sc = newScope()
				case s.set == "tool":
					sc.Set("tool", map[string]any{"name": "b"})
				case s.set == "n":
					sc.Set("n", int64(2))
				default:
					p, ds := env.CompileLets(s.formula, nil, nil, lets)
					if ds != nil {
						t.Fatal(ds)
					}
					if _, err := sc.Eval(p); err != nil {
						t.Fatalf("%s: %v", s.formula, err)
					}
				}
			}
			if computed != tt.computed {
				t.Errorf("the let was computed %d times, want %d", computed, tt.computed)
			}
		})
	}
}

// TestLetFailsTheFormula: a let that fails, runs over the scope's cost
// limit or is interrupted fails the formula that reads it, naming the
// let.
func TestLetFailsTheFormula(t *testing.T) {
	env, err := lang.NewEnv(lang.Var{Name: "tool", Type: lang.Object})
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	long := make([]any, 200)
	for i := range long {
		long[i] = "x"
	}
	for _, tt := range []struct {
		name, let string
		scope     eval.Scope
		want      string
	}{
		{"an error", "tool.missing + 1", eval.Scope{}, "let it: no such key: missing"},
		{"over the cost limit", "tool.items.map(a, tool.items.map(b, a + b))", eval.Scope{Limit: 1000}, "let it: operation cancelled: actual cost limit exceeded"},
		{"interrupted", "tool.items.map(a, a)", eval.Scope{Ctx: done}, "context canceled"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, ds := env.CompileLets("size(it) > 0", nil, nil, []lang.Let{{Name: "it", Src: tt.let}})
			if ds != nil {
				t.Fatal(ds)
			}
			sc := tt.scope
			sc.Vars, sc.Size = lang.Vars{"tool": map[string]any{"items": long}}, eval.Unbounded
			_, err := sc.Eval(p)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// TestLetLongerThanTheBound: a formula that reads a let not computed yet
// runs untracked when its estimate over the data fits its limit, and a
// let it then computes that is longer than the data does not run
// untracked: the formula is evaluated again with the let's length, so
// the cost limit holds; when it reads no such let, or a short one, it
// gives its value.
func TestLetLongerThanTheBound(t *testing.T) {
	env, err := lang.NewEnv(lang.Var{Name: "tool", Type: lang.Object})
	if err != nil {
		t.Fatal(err)
	}
	// pairs is n items long over n items of data, and the formula goes
	// through it twice over: n^4 units.
	lets := []lang.Let{{Name: "pairs", Src: "tool.items.map(a, tool.items).flatten()"}}
	p, ds := env.CompileLets("size(tool.items) < 3 ? size(pairs) : size(pairs.map(a, pairs.map(b, a)))", nil, nil, lets)
	if ds != nil {
		t.Fatal(ds)
	}
	items := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = "x"
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		n     int
		want  int64
		fails bool
	}{
		{"a short let", 2, 4, false},
		{"a let longer than the data", 20, 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sc := eval.Scope{Vars: lang.Vars{"tool": map[string]any{"items": items(tt.n)}}, Size: uint64(tt.n), Limit: 100_000}
			v, err := sc.Eval(p)
			switch {
			case tt.fails && (err == nil || !strings.Contains(err.Error(), "cost limit")):
				t.Fatalf("got %v, %v; want the cost limit's error (20^4 units)", v, err)
			case !tt.fails && err != nil:
				t.Fatal(err)
			case !tt.fails && v.Value() != tt.want:
				t.Errorf("got %v, want %d", v, tt.want)
			}
		})
	}
}
