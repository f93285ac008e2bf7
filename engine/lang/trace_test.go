package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

func traceEnv(t *testing.T) *Env {
	t.Helper()
	e, err := NewEnv(Var{"metrics", Object}, Var{"checks", Objects}, Var{"tools", Objects}, Var{"answers", Object}, Var{"score", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestRefs(t *testing.T) {
	e := traceEnv(t)
	for _, c := range []struct {
		src   string
		refs  string
		alias string
	}{
		{"round(metrics.weighted / 100, 1)", "metrics.weighted", ""},
		{"metrics.overall", "metrics.overall", "metrics.overall"},
		{"score", "score", "score"},
		{"sum(metrics.weights.map(d, metrics.scores[d] * metrics.weights[d]))", "metrics.weights metrics.scores", ""},
		{"answers.tool.scores.purpose_clarity.score + answers.tool.scores['usage_guidelines'].score", "answers.tool.scores.purpose_clarity.score answers.tool.scores.usage_guidelines.score", ""},
		{"sum(checks.map(c, c.points * c.credit))", "checks", ""},
		{"has(answers.tool) ? 1 : 0", "answers", ""},
		// A comprehension's own variable is not a read, even when it
		// shadows a variable of the environment.
		{"tools.map(metrics, metrics.score)", "tools", ""},
		{"cel.bind(m, metrics.a, m.b)", "metrics.a", ""},
		{"metrics.a == metrics.a + 0", "metrics.a", ""},
		{"1 + 2", "", ""},
	} {
		p, d := e.Compile(c.src, nil)
		if d != nil {
			t.Fatalf("%s: %v", c.src, d)
		}
		var got []string
		for _, r := range p.Refs() {
			got = append(got, r.String())
		}
		if g := strings.Join(got, " "); g != c.refs {
			t.Errorf("Refs(%s) = %q, want %q", c.src, g, c.refs)
		}
		a, ok := p.Alias()
		if g := a.String(); !ok && c.alias != "" || ok && g != c.alias {
			t.Errorf("Alias(%s) = %q, %v; want %q", c.src, g, ok, c.alias)
		}
	}
}

func TestReads(t *testing.T) {
	e := traceEnv(t)
	p, _ := e.Compile("metrics.a.b + size(tools)", nil)
	for _, c := range []struct {
		path []string
		want bool
	}{
		{[]string{"metrics"}, true},
		{[]string{"metrics", "a"}, true},
		{[]string{"metrics", "a", "b"}, true},
		{[]string{"metrics", "b"}, false},
		{[]string{"tools"}, true},
		{[]string{"checks"}, false},
	} {
		if got := p.Reads(c.path...); got != c.want {
			t.Errorf("Reads(%v) = %v, want %v", c.path, got, c.want)
		}
	}
}

// plain writes values as the tests read them: numbers exactly.
func plain(v ref.Val) string {
	if n, err := ToNum(v); err == nil {
		return n.String()
	}
	if v == types.NullValue {
		return "null"
	}
	if s, ok := v.Value().(string); ok {
		return "'" + s + "'"
	}
	return fmt.Sprint(v.Value())
}

func TestTraceSteps(t *testing.T) {
	e := traceEnv(t)
	vars := Vars{
		"metrics": map[string]any{"weighted": 285, "weights": map[string]any{"a": 25, "b": 20}, "scores": map[string]any{"a": 4, "b": 2}, "n": 3, "m": 4, "x": 3.4, "y": 3},
		"checks":  []any{map[string]any{"points": 10, "credit": 1}, map[string]any{"points": 20, "credit": 0}, map[string]any{"points": 5, "credit": 0.5}},
		"tools":   []any{map[string]any{"name": "x", "score": 3.4}, map[string]any{"name": "y", "score": 2}},
	}
	for _, c := range []struct {
		src   string
		max   int
		steps []string // Text = Value, with [item] for steps in a comprehension
	}{
		{"round(metrics.weighted / 100, 1)", 10, []string{"285 / 100 = 2.85", "round(2.85, 1) = 2.9"}},
		{"sum(['a', 'b'].map(d, metrics.scores[d] * metrics.weights[d]))", 10,
			[]string{"[d='a'] 4 * 25 = 100", "[d='b'] 2 * 20 = 40", "sum([100, 40]) = 140"}},
		// The branch not taken is left out; precedence decides the
		// parentheses.
		{"metrics.n * 5 >= metrics.m * 4 ? round(0.6 * metrics.x + 0.4 * metrics.y, 1) : null", 10,
			[]string{"3 * 5 = 15", "4 * 4 = 16", "15 >= 16 = false", "false ? … : null = null"}},
		{"(metrics.n - metrics.m) * 2", 10, []string{"3 - 4 = -1", "(-1) * 2 = -2"}},
		// An item that only reads is a step of its own; items past max
		// are counted, not shown.
		{"mean(tools.map(t, t.score))", 1, []string{"[t=map[name:x score:3.4]] t.score = 3.4", "... 1 more", "mean([3.4, 2]) = 2.7"}},
		{"size(checks.filter(c, c.credit < 1))", 10, []string{"[c=map[credit:1 points:10]] 1 < 1 = false", "[c=map[credit:0 points:20]] 0 < 1 = true", "[c=map[credit:0.5 points:5]] 0.5 < 1 = true", "size([map[credit:0 points:20], map[credit:0.5 points:5]]) = 2"}},
		{"cel.bind(v, metrics.n * 2, v + v)", 10, []string{"3 * 2 = 6", "6 + 6 = 12"}},
	} {
		p, d := e.Compile(c.src, nil)
		if d != nil {
			t.Fatalf("%s: %v", c.src, d)
		}
		tr, err := p.Trace(vars)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		want, err := p.Eval(vars)
		if err != nil || want.Equal(tr.Value) != types.True {
			t.Errorf("%s: traced %v, evaluated %v (%v)", c.src, tr.Value, want, err)
		}
		var got []string
		for _, s := range tr.Steps(listPlain, c.max) {
			if s.Skipped > 0 {
				got = append(got, fmt.Sprintf("... %d more", s.Skipped))
				continue
			}
			var b strings.Builder
			for _, x := range s.Bound {
				fmt.Fprintf(&b, "[%s=%s] ", x.Name, plain(x.Value))
			}
			got = append(got, b.String()+s.Text+" = "+plain(s.Value))
		}
		if g, w := strings.Join(got, "\n"), strings.Join(c.steps, "\n"); g != w {
			t.Errorf("steps of %s:\n%s\nwant:\n%s", c.src, g, w)
		}
	}
}

// listPlain writes lists item by item, the rest as plain does.
func listPlain(v ref.Val) string {
	if n, err := Native(v); err == nil {
		if l, ok := n.([]any); ok {
			parts := make([]string, len(l))
			for i, x := range l {
				parts[i] = plain(Adapter.NativeToValue(x))
			}
			return "[" + strings.Join(parts, ", ") + "]"
		}
	}
	return plain(v)
}

// A comprehension over a map's keys says so: its order is not fixed.
func TestTraceKeys(t *testing.T) {
	e := traceEnv(t)
	for src, want := range map[string]bool{"metrics.s.map(k, k + 'x')": true, "metrics.l.map(k, k + 'x')": false} {
		p, _ := e.Compile(src, nil)
		tr, err := p.Trace(Vars{"metrics": map[string]any{"s": map[string]any{"a": 1, "b": 2}, "l": []any{"a", "b"}}})
		if err != nil {
			t.Fatal(err)
		}
		steps := tr.Steps(plain, 10)
		if len(steps) != 2 {
			t.Fatalf("%s: %d steps, want 2", src, len(steps))
		}
		for _, s := range steps {
			if s.Keys != want {
				t.Errorf("%s: Keys = %v, want %v", src, s.Keys, want)
			}
		}
	}
}

func TestTraceError(t *testing.T) {
	e := traceEnv(t)
	p, _ := e.Compile("metrics.a / metrics.b", nil)
	if _, err := p.Trace(Vars{"metrics": map[string]any{"a": 1, "b": 0}}); err == nil {
		t.Fatal("a division by zero traced without an error")
	}
}

// TestTraceMeetsTheCostLimit: a trace (what rubric explain shows) stops
// at the formula's cost limit where scoring does. Its program wrapped
// every step to record it, which hid the steps' kinds from cel-go's
// tracker: no call was charged, so explain ran a formula over a hostile
// definition (a text function over a long description once for each of
// many items) on to its end, however long that took, before scoring
// stopped it. Within the limit, the trace is as before.
func TestTraceMeetsTheCostLimit(t *testing.T) {
	e, err := NewEnv(Var{"d", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("k", 100_000)
	items := make([]any, 200)
	for i := range items {
		items[i] = float64(i)
	}
	act := Vars{"d": map[string]any{"k": long, "n": items, "m": map[string]any{long: 1.0}}}
	for _, tt := range []struct {
		src  string
		over bool
	}{
		{"d.n.map(x, d.k.contains('zz')).size()", true},
		{"d.n.all(x, d.m[d.k] == 1.0)", true},
		{"d.n.filter(x, x > 100.0).map(x, d.k.contains('zz')).size()", true},
		{"d.n.filter(x, x < 3.0).map(x, d.k.contains('zz')).size()", false},
	} {
		p, ds := e.Compile(tt.src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", tt.src, ds)
		}
		tr, err := p.Trace(act)
		switch {
		case tt.over && (err == nil || !strings.Contains(err.Error(), "cost limit exceeded")):
			t.Errorf("%s: traced %v, %v; want the cost limit's error", tt.src, tr.Value, err)
		case !tt.over && err != nil:
			t.Errorf("%s: %v", tt.src, err)
		case !tt.over && (tr.Value != types.Int(3) || tr.Events() == 0):
			t.Errorf("%s: traced %v in %d events, want 3", tt.src, tr.Value, tr.Events())
		}
	}
}
