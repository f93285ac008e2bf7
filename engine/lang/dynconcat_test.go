package lang

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestDynConcatenationsSizedAsTheirSum: a concatenation whose operands
// the checker types as dyn (a field of a dyn map, an element of a dyn
// list, a macro's variable over dyn data, a cel.bind of a dyn value,
// either branch of a conditional of dyn values, string() of a dyn) is
// as long as its operands together, and so is one of dyn lists. A
// review suspected cel-go sizes such a sum as the data (the estimator's
// bound for a value it knows nothing of), so that a sum of 64 copies of
// a string of the data would run untracked past the cost limit. It does
// not: the checker gives a call with dyn operands every overload they
// may match, and cel-go's estimator (checker/cost.go in v0.31: costCall
// takes the union of each overload's result size, functionCost sizes
// add_string, add_bytes and add_list as the sum of their operands) sizes
// it as the sum; the language's own + keeps those overload ids (ops.go)
// for that. Each row is pinned both ways: on data at its bound (at
// most 64) it is untracked and charged within its finite estimate; at
// 512 (64 copies of 512 characters read against 512 patterns that match
// nothing, about 1,700,000) it is tracked and stopped at the limit.
// find_all_each_in of dyn lists is left out: it is tracked on all data,
// as its estimate bounds only strings, lists of strings and the tool
// (see walkBounded).
func TestDynConcatenationsSizedAsTheirSum(t *testing.T) {
	heavytest.Later(t)
	// times64 is x written 64 times, joined by +, in six doublings.
	times64 := func(x string) string {
		s := "(" + x + " + " + x + ")"
		for range 5 {
			s = "(" + s + " + " + s + ")"
		}
		return s
	}
	for _, c := range []struct{ name, src string }{
		{"an element of a dyn list", "find_all_each(" + times64("d.ss[0]") + ", d.res).size()"},
		{"a field of a dyn map", "find_all_each(" + times64("d.m.s") + ", d.res).size()"},
		{"a dyn element against typed patterns", "find_all_each(" + times64("d.ss[0]") + ", res).size()"},
		{"a macro's variable over dyn data", "d.ss.map(x, find_all_each(" + times64("x") + ", d.res).size())"},
		{"a macro over the sums of a macro's variable", "d.ss.map(x, " + times64("x") + ").map(g, find_all_each(g, d.res).size())"},
		{"a cel.bind of a dyn value", "cel.bind(x, d.ss[0], find_all_each(" + times64("x") + ", d.res).size())"},
		{"a cel.bind of a dyn sum", "cel.bind(x, " + times64("d.ss[0]") + ", find_all_each(x, d.res).size())"},
		{"cel.binds doubling a dyn value", "cel.bind(a, d.ss[0] + d.ss[0], cel.bind(b, a + a, cel.bind(c, b + b, cel.bind(f, c + c, cel.bind(g, f + f, find_all_each(g + g, d.res).size())))))"},
		{"a conditional of dyn values", "find_all_each(" + times64("(d.ss.size() > 0 ? d.ss[0] : d.ss[1])") + ", d.res).size()"},
		{"string() of a dyn", "find_all_each(" + times64("string(d.ss[0])") + ", d.res).size()"},
		{"dyn() of a string", "find_all_each(" + times64("dyn(names[0])") + ", res).size()"},
		{"dyn lists read by a macro", times64("d.ss") + ".map(s, find_all_each(s, d.res).size())"},
		{"dyn lists joined", "find_all_each(" + times64("d.ss") + ".join(''), d.res).size()"},
	} {
		e, act := dynConcatData(t, 512)
		p := wantStoppedAtLimit(t, e, c.src, act, 512, c.name)
		if p.fastUpTo == 0 {
			t.Errorf("%s: %s is tracked on all data, want a finite bound", c.name, c.src)
			continue
		}
		m := min(p.fastUpTo, 64)
		e, act = dynConcatData(t, int(m))
		if !p.Untracked(m) {
			t.Errorf("%s: tracked at %d, its bound %d", c.name, m, p.fastUpTo)
		}
		wantChargeWithin(t, e, c.src, act, m, c.name, true)
	}
}

// dynConcatData is unmatchedRange(t, n) whose dyn d holds, beside its
// strings, a map of one of them (m.s) and the patterns that match
// nothing.
func dynConcatData(t *testing.T, n int) (*Env, Vars) {
	t.Helper()
	e, act := unmatchedRange(t, n)
	d := act["d"].(map[string]any)
	d["m"] = map[string]any{"s": strings.Repeat("x", n)}
	d["res"] = act["res"]
	return e, act
}
