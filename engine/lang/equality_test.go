package lang

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/interpreter"

	"github.com/rubricmcp/rubric/engine/num"
)

// equalityData is a tool whose name and description are two strings of
// n characters, and a dyn value holding them, lists and maps of them,
// lists of lists of long strings, and exact numbers longer than a
// double; and its bound as the engine gives it: the tool's canonical
// JSON, longer than any string, list or map of the data.
func equalityData(t *testing.T, n int) (map[string]any, uint64) {
	long, long2 := strings.Repeat("x", n), strings.Repeat("x", n)
	nested := make([]any, 10)
	for i := range nested {
		inner := make([]any, 10)
		for j := range inner {
			inner[j] = strings.Repeat("y", n/10)
		}
		nested[i] = inner
	}
	strs := make([]any, 10)
	for i := range strs {
		strs[i] = strings.Repeat("z", n)
	}
	big := num.MustParse(strings.Repeat("9", 600))
	tool := map[string]any{"name": long, "description": long2,
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string", "enum": nested}}}}
	return map[string]any{
		"tool": ToolValue(tool),
		"d": map[string]any{
			"name": long, "description": long2, "l": []any{long, long2}, "n": nested,
			"m": map[string]any{"a": nested, "b": []any{long}}, "m2": map[string]any{"a": nested, "b": []any{long2}},
			"s": long, "ss": strs, "big": big, "big2": big, "x": 1.5,
			"k": map[string]any{long: "b"},
		},
		"names": strs,
	}, jsonSize(t, tool)
}

// TestEqualityEstimateBoundsItsCharge: ==, != and in are charged by what
// they read (a tenth of a unit a character of the shorter string, every
// member of two lists or maps of one size at every depth, the digits of
// exact numbers), and their static estimate is at least that charge.
// The estimate charged == and != one unit where the tracker charged two
// strings of 1,000 characters 100 (charged 104, estimated 5), and the
// tracker charged two lists of lists as their top-level length.
func TestEqualityEstimateBoundsItsCharge(t *testing.T) {
	e, err := NewEnv(Var{"tool", Tool}, Var{"d", Dyn}, Var{"names", cel.ListType(cel.StringType)})
	if err != nil {
		t.Fatal(err)
	}
	act, n := equalityData(t, 1000)
	for _, src := range []string{
		// Strings, as found.
		"tool.name == tool.description",
		"tool.name != tool.description",
		"d.name == d.description",
		"d.s == 'x'",
		// Lists and maps of the data, at every depth.
		"d.l == d.l",
		"d.n == d.n",
		"d.n != d.n",
		"d.m == d.m2",
		"d.n[0] == d.n[1]",
		"tool.inputSchema == tool.inputSchema",
		"tool.inputSchema.properties.a.enum == d.n",
		"names == names",
		"names == ['a', 'b']",
		"d.n.all(x, x == d.n[0])",
		// A map of one long key against a map written out: comparing
		// them hashes the long key, whichever side it is on.
		"d.k == {'a': 'b'}",
		"{'a': 'b'} == d.k",
		"d.k in [{'a': 'b'}]",
		// Exact numbers, by their digits.
		"d.big == d.big2",
		"d.big != 1",
		"d.x == 1.5",
		"[d.big] == [d.big2]",
		// Optionals, which compare what they hold.
		"tool.?name == tool.?description",
		"tool.?inputSchema == tool.?inputSchema",
		"tool.?inputSchema != optional.none()",
		"d.?n == d.?n",
		"optional.of(d.s) == d.?name",
		// in, over lists of the data and maps.
		"d.n[0] in d.n",
		"d.s in d.ss",
		"d.s in names",
		"'x' in d.m",
		"d.s in d.m",
		"d.n.exists(x, x in d.n)",
		"d.ss.all(s, s in names)",
	} {
		wantChargeWithin(t, e, src, act, n, src, equalityEstimated[src])
	}
}

// equalityEstimated are the formulas of TestEqualityEstimateBoundsItsCharge
// that must have an estimate, which their charge is then held to: those
// over the tool, a list of the data's strings, a constant or a number.
// The others compare values the checker types dyn whose depth the
// estimate does not bound, are tracked, and only their charge is
// computed: a row among them that came to have an estimate would be
// held to it.
var equalityEstimated = map[string]bool{
	"tool.name == tool.description":        true,
	"tool.name != tool.description":        true,
	"d.s == 'x'":                           true,
	"tool.inputSchema == tool.inputSchema": true,
	"names == names":                       true,
	"names == ['a', 'b']":                  true,
	"d.big != 1":                           true,
	"d.x == 1.5":                           true,
	"'x' in d.m":                           true,
}

// TestEqualityChargedByWhatItReads: comparing two lists or maps of one
// size is charged for every member it compares, at every depth, and in
// for each element it compares: a list of 100 lists of 100 strings of
// 100 characters compared with itself reads a million characters, and
// was charged as a list of 100 (14 units); in over a dyn list was
// charged one unit whatever the list held; two optionals holding such
// lists were charged as lists of 100.
func TestEqualityChargedByWhatItReads(t *testing.T) {
	e, err := NewEnv(Var{"d", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	nested := make([]any, 100)
	for i := range nested {
		inner := make([]any, 100)
		for j := range inner {
			inner[j] = strings.Repeat("y", 100)
		}
		nested[i] = inner
	}
	act := map[string]any{"d": map[string]any{"n": nested, "m": map[string]any{"a": nested}, "m2": map[string]any{"a": nested}}}
	for _, tt := range []struct {
		src string
		// least is the least charge: a tenth of a unit a character
		// compared.
		least uint64
	}{
		{"d.n == d.n", 100 * 100 * 100 / 10},
		{"d.n != d.n", 100 * 100 * 100 / 10},
		{"d.m == d.m2", 100 * 100 * 100 / 10},
		{"d.n[0] in d.n", 100 * 100 * 100 / 10},
		{"d.n[0][0] in d.n[1]", 100 * 100 / 10},
		// Two optionals that hold a value compare what they hold: they
		// were charged a tenth of the top-level length of the shorter
		// (10 units, whatever the lists held).
		{"optional.of(d.n) == optional.of(d.n)", 100 * 100 * 100 / 10},
		{"d.?n != d.?n", 100 * 100 * 100 / 10},
		{"d.?m == d.?m2", 100 * 100 * 100 / 10},
	} {
		p, ds := e.Compile(tt.src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", tt.src, ds)
		}
		_, charged, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if charged < tt.least {
			t.Errorf("%s: charged %d, want at least %d (a tenth of a unit a character it compares)", tt.src, charged, tt.least)
		}
	}
}

// TestNestedEqualityStopsAtTheLimit: a hostile formula that compares
// every pair of a list of lists of the data, each of 100 strings of 100
// characters (ten billion characters compared in all), stops at the
// cost limit, where it ran to its end: estimated at a unit a
// comparison, it ran untracked on data whose every string, list and map
// is 100 long; compared inside optionals, it was tracked but charged
// as lists of 100.
func TestNestedEqualityStopsAtTheLimit(t *testing.T) {
	e, err := NewEnv(Var{"d", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	row := make([]any, 100)
	for j := range row {
		row[j] = strings.Repeat("y", 100)
	}
	nested := make([]any, 100)
	for i := range nested {
		nested[i] = row
	}
	act := map[string]any{"d": map[string]any{"n": nested}}
	for _, src := range []string{
		"d.n.all(x, d.n.all(y, x == y))",
		"d.n.exists(x, d.n.exists(y, x != y))",
		"d.n.all(x, x in d.n)",
		"d.n.all(x, d.n.all(y, optional.of(x) == optional.of(y)))",
	} {
		stopsAtTheLimit(t, e, src, goMaps(act), 100)
	}
}

// jsonSize is the length of v's JSON: the bound the engine gives a
// tool's data (its definition as JSON), for tests that evaluate
// formulas under it.
func jsonSize(t *testing.T, v any) uint64 {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return uint64(len(b))
}

// stopsAtTheLimit compiles src in e and fails the test unless it stops at
// its cost limit on act, no value of which is longer than size; it
// returns the program.
func stopsAtTheLimit(t *testing.T, e *Env, src string, act interpreter.Activation, size uint64) *Program {
	t.Helper()
	p, ds := e.Compile(src, nil)
	if ds != nil {
		t.Fatalf("%s: %v", src, ds)
	}
	out, err := p.EvalSized(act, size)
	if err == nil || !strings.Contains(err.Error(), "cost limit exceeded") {
		t.Errorf("%s: got %v, %v; want the cost limit's error", src, out, err)
	}
	return p
}
