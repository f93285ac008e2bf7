package lang

import (
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

func eval(t *testing.T, src string, vars map[string]any, decl ...Var) any {
	t.Helper()
	e, err := NewEnv(decl...)
	if err != nil {
		t.Fatal(err)
	}
	p, ds := e.Compile(src, nil)
	if ds != nil {
		t.Fatalf("%s: %v", src, ds)
	}
	v, err := p.Eval(vars)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	out, err := Native(v)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return out
}

func TestExactFormulas(t *testing.T) {
	heavytest.Later(t)
	tests := []struct {
		src  string
		want string // exact num, or a Go value printed with %v
	}{
		{"0.1 + 0.2 == 0.3", "true"},
		{"0.1 + 0.2", "3/10"},
		{"1 / 3", "1/3"},
		{"1 / 3 * 3 == 1", "true"},
		{"7 / 2", "7/2"},
		{"7 % 2", "1"},
		{"2 + 3", "5"},
		{"2 * 0.5", "1"},
		{"0.5 * 2", "1"},
		{"-0.25", "-1/4"},
		{"round(3.25, 1)", "33/10"},
		{"round(2.85, 1)", "29/10"},
		{"round(1373 / 15, 1)", "183/2"},
		{"sum([1, 2, 3])", "6"},
		{"sum([])", "0"},
		{"int(sum([1, 2, 3])) == 6 && type(int(sum([1, 2, 3]))) == int", "true"},
		{"int(sum([]))", "0"},
		{"int(sum([0.5, 1.5]))", "2"},
		{"mean([3, 4])", "7/2"},
		{"mean([0.1, 0.2, 0.3]) == 0.2", "true"},
		{"median([5, 1, 3])", "3"},
		{"sum(lists.range(3).map(i, [0.1, 0.2, 0.3][i] * i))", "4/5"},
		{"size([[1], [2, 3]].flatten().distinct())", "3"},
		{"cel.bind(x, 0.1 + 0.2, x * x)", "9/100"},
		{"unique_by([1, 2, 3, 4], ['a', 'b', 'a', 'c'])", "[1 2 4]"},
		{"size(unique_by([], []))", "0"},
		{"index_by([{'n': 'a', 'v': 1}, {'n': 'b', 'v': 2}, {'n': 'a', 'v': 3}], ['a', 'b', 'a'])['a'].v", "1"},
		{"'c' in index_by([1, 2], ['a', 'b'])", "false"},
		{"median([4, 1, 3, 2])", "5/2"},
		{"min([3, 1.5, 2])", "3/2"},
		{"max([3, 1.5, 2])", "3"},
		{"clamp(120, 0, 100)", "100"},
		{"clamp(-1, 0, 100)", "0"},
		{"efficiency(500, 1000, 5000)", "1"},
		{"efficiency(3000, 1000, 5000)", "1/2"},
		{"efficiency(9000, 1000, 5000)", "0"},
		{"efficiency(0.9, 1, 0)", "9/10"},
		{"0.6 * 0.8 + 0.25 * 0.5 + 0.15 * 1", "151/200"},
		{"1 == 1.0", "true"},
		{"1.0 == 1", "true"},
		{"2 > 1.5", "true"},
		{"num('1373/15') > 91", "true"},
		{"string(num('0.5'))", "0.5"},
		{"'a' + 'b'", "ab"},
		{"[1] + [2]", "[1 2]"},
		{"'a' < 'b'", "true"},
		{"nonblank('  x ')", "true"},
		{"nonblank('   ')", "false"},
		{"nonblank(3)", "false"},
		{"nonempty([])", "false"},
		{"nonempty({'a': 1})", "true"},
		{"is_object({'a': 1})", "true"},
		{"is_object([1])", "false"},
	}
	for _, tt := range tests {
		got := eval(t, tt.src, nil)
		var s string
		if n, ok := got.(num.Num); ok {
			s = n.Exact()
		} else {
			s = strings.Trim(strings.ReplaceAll(toString(got), "\n", ""), " ")
		}
		if s != tt.want {
			t.Errorf("%s = %s, want %s", tt.src, s, tt.want)
		}
	}
}

func toString(v any) string {
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = toString(e)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case num.Num:
		return x.Exact()
	}
	return strings.TrimSpace(strings.ReplaceAll(fmtAny(v), "\n", ""))
}

func fmtAny(v any) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "true"
		}
		return "false"
	case string:
		return x
	case int64:
		return num.Int(x).Exact()
	}
	return "?"
}

func TestRuntimeErrors(t *testing.T) {
	e, _ := NewEnv()
	for _, src := range []string{"mean([])", "1 / 0", "median([])", "min([])", "num('abc')", "clamp(1, 5, 0)", "int(1 / 3)", "int(num('1e30'))"} {
		p, ds := e.Compile(src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", src, ds)
		}
		if _, err := p.Eval(nil); err == nil {
			t.Errorf("%s: want an error", src)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	e, _ := NewEnv(Var{"tool", Object})
	tests := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"nosuch(tool)", 1, 7, "undeclared reference to 'nosuch'"},
		{"1 + 'a'", 1, 3, "+ does not apply to int and string: convert one side"},
		{"1.5 < 'a'", 1, 5, "< does not apply to num and string"},
		{"[1] + 1 == []", 1, 5, "+ does not apply to list(int) and int"},
		{"true ? 1 : null", 1, 6, "the branches of ? : are int and null, of different types: give both one type, or wrap each in dyn(), such as c ? dyn(a) : dyn(null)"},
		{"1 ? true : false", 1, 3, "the condition before ? is int, not bool"},
		{"1 in 'abc'", 1, 3, "in looks for a value in a list or a map, not in string"},
		{"num('1') in [1, 2]", 1, 10, "in looks for a value of type num in list(int), whose items are int: write them as the value's type, or compare each, such as xs.exists(v, v == x) (an exact number among ints: write the items with a decimal point, 1.0"},
		{"1 in [1.5]", 1, 3, "in looks for a value of type int in list(num), whose items are num: write them as the value's type, or compare each, such as xs.exists(v, v == x) (an int among exact numbers: look for num(x))"},
		{"'a' in {1: 2}", 1, 5, "in looks for a value of type string in map(int, int), whose keys are int"},
		{"[1, 2, 3][num('1') / 2]", 1, 10, "a list is indexed by an int, not num: write int(i) (an exact number's integer part), such as xs[int(n / 2)]"},
		{"{'a': 1}[2]", 1, 9, "map(string, int) is indexed by its keys, which are string, not int: convert the key, such as m[string(k)]"},
		{"tool.a &&", 1, 10, "Syntax error"},
		{"mean(['a'])", 1, 5, "found no matching overload for 'mean'"},
		{"true &&\n  undefinedVar", 2, 3, "undeclared reference to 'undefinedVar'"},
	}
	for _, tt := range tests {
		_, ds := e.Compile(tt.src, nil)
		if len(ds) == 0 {
			t.Errorf("%q: want an error", tt.src)
			continue
		}
		d := ds[0]
		if d.Line != tt.line || d.Col != tt.col || !strings.Contains(d.Msg, tt.msg) {
			t.Errorf("%q: got %d:%d %s; want %d:%d %s", tt.src, d.Line, d.Col, d.Msg, tt.line, tt.col, tt.msg)
		}
	}
	if _, ds := e.Compile("'text'", Bool); len(ds) == 0 || !strings.Contains(ds[0].Msg, "want bool") {
		t.Errorf("a string where a bool is wanted: %v", ds)
	}
	if _, ds := e.Compile("1 / 2", NumType); len(ds) != 0 {
		t.Errorf("a num where a num is wanted: %v", ds)
	}
}

func TestCostLimitStopsRunawayFormula(t *testing.T) {
	heavytest.Later(t)
	e, _ := NewEnv(Var{"xs", celList()})
	p, ds := e.Compile("xs.all(a, xs.all(b, xs.all(c, xs.all(d, a + b + c + d >= 0))))", nil)
	if ds != nil {
		t.Fatal(ds)
	}
	xs := make([]any, 100)
	for i := range xs {
		xs[i] = int64(i)
	}
	_, err := p.Eval(map[string]any{"xs": xs})
	if err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Fatalf("want a cost limit error, got %v", err)
	}
}

func TestCanonicalIgnoresWhiteSpace(t *testing.T) {
	e, _ := NewEnv(Var{"tool", Object})
	a, _ := e.Compile("has(tool.x)&&tool.x>1", nil)
	b, _ := e.Compile("has(tool.x)   &&\n   tool.x > 1", nil)
	c, _ := e.Compile("has(tool.x) && tool.x > 2", nil)
	if a.Canonical != b.Canonical {
		t.Errorf("white space moved the canonical form: %q vs %q", a.Canonical, b.Canonical)
	}
	if a.Canonical == c.Canonical {
		t.Errorf("a changed constant did not move the canonical form")
	}
}

func celList() *cel.Type { return cel.ListType(cel.DynType) }

func TestFastLimitFollowsTheWorstCase(t *testing.T) {
	e, _ := NewEnv(Var{"tool", Object}, Var{"item", Dyn})
	tests := []struct {
		src      string
		min, max uint64
	}{
		// Constant work whatever the data: never tracked below 2^40.
		{"size(params(tool)) > 0", 1 << 40, 1 << 40},
		// Linear in the data: tracked only for very long definitions.
		{"params(tool).map(item, nonblank(item.name))", 1 << 14, 1 << 18},
		// A span function over a list of strings of the data reads each:
		// quadratic. tool.list is dyn, estimated as the list of max
		// strings of max characters it may be (see textCallEstimate).
		{"find_all_each_in(tool.list, ['a', 'b']).size() > 0", 1 << 8, 1 << 10},
		// find_first_each_in reads as find_all_each_in does, folded
		// too when given folds (its fourth argument is then n).
		{"find_first_each_in(tool.list, ['a', 'b'], 5).count > 0", 1 << 8, 1 << 10},
		{"find_first_each_in(tool.list, ['a', 'b'], ['nfkc'], 5).count > 0", 1 << 6, 1 << 8},
		{"find_all_each_in(tool.list, ['a', 'b'], ['nfkc']).size() > 0", 1 << 6, 1 << 8},
		// tally_each_in reads as find_all_each_in does, and each test of
		// a pattern (at most 16) reads its matches again; folded, a copy
		// may be 18 times as long: still bounded by the data.
		{"tally_each_in(tool.list, ['a', 'b'], [[], []], 5).count > 0", 1 << 4, 1 << 6},
		{"tally_each_in(tool.list, ['a', 'b'], ['nfkc'], [[], []], 5).count > 0", 1 << 2, 1 << 4},
		{"tally_each_in(tool.list.map(s, s + s), ['a'], [[]], 5).count > 0", 0, 0},
		// With labels, each read by the expressions of where (at most
		// 16): bounded as the strings are, a list of the data's strings
		// read string by string, and unbounded when computed.
		{"tally_each_in(tool.list, ['a', 'b'], ['nfkc'], [[], []], 5, tool.names, ['x']).count > 0", 1 << 2, 1 << 4},
		{"tally_each_in(tool.list, ['a', 'b'], ['nfkc'], [[], []], 5, params(tool).map(p, p.name), ['x']).count > 0", 0, 0},
		{"tally_each_in(tool.list, ['a'], [], [[]], 5, tool.names.map(s, s + s), ['x']).count > 0", 0, 0},
		// A text function over a list of the data's strings.
		{"skeletons(tool.list).size() > 0", 1 << 8, 1 << 10},
		// Over a computed list: its strings are not bounded by the data.
		{"find_all_in(tool.list.map(s, s + s), 'a').size() > 0", 0, 0},
		// Cubic: tracked for all but tiny definitions.
		{"params(tool).all(a, params(tool).all(b, params(tool).all(c, size(a) != size(c))))", 1, 1 << 7},
		// Two parameters compared compare their schemas at every depth,
		// whose whole weight the estimate does not bound (params
		// inlines $refs): always tracked.
		{"params(tool).all(a, params(tool).all(b, params(tool).all(c, a != c)))", 0, 0},
	}
	for _, tt := range tests {
		p, ds := e.Compile(tt.src, nil)
		if ds != nil {
			t.Fatal(ds)
		}
		if p.fastUpTo < tt.min || p.fastUpTo > tt.max {
			t.Errorf("%s: untracked up to %d, want between %d and %d", tt.src, p.fastUpTo, tt.min, tt.max)
		}
	}
}

func TestRecordReadsLikeAMap(t *testing.T) {
	rec := RecordOf([]string{"name", "points", "tags"}, []ref.Val{types.String("a"), Num{num.Frac(3, 2)}, Adapter.NativeToValue([]any{"x", "y"})})
	for _, tt := range []struct{ src, want string }{
		{"r.name", "a"},
		{"r.points * 2", "3"},
		{"has(r.tags) && !has(r.nope)", "true"},
		{"'points' in r", "true"},
		{"size(r)", "3"},
		{"r.tags[1]", "y"},
		{"r == {'name': 'a', 'points': 1.5, 'tags': ['x', 'y']}", "true"},
		{"r == {'name': 'b', 'points': 1.5, 'tags': ['x', 'y']}", "false"},
		{"r.map(k, k).size()", "3"},
	} {
		got := eval(t, tt.src, map[string]any{"r": rec}, Var{"r", Dyn})
		if s := toString(got); s != tt.want {
			t.Errorf("%s = %s, want %s", tt.src, s, tt.want)
		}
	}
}
