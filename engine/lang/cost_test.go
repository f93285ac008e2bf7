package lang

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/cel-go/cel"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestBuiltinLaddersHold: every formula of the built-in rubrics (each
// rubric under rubrics/: their checks, lets, metrics and scores, as
// rubrics/compiled.bin holds them) is
// untracked up to the same size as when the table was generated. The
// table records each formula's ladder as the estimator of its build
// gave it, so a change of the estimator that moves a built-in formula
// onto the tracked path (slower on large tools), or off it, is named
// here, formula by formula, before the table is made again.
func TestBuiltinLaddersHold(t *testing.T) {
	table := builtinTable(t)
	env, err := baseEnv()
	if err != nil {
		t.Fatal(err)
	}
	entries := slices.SortedFunc(func(yield func(compiledEntry) bool) {
		for _, e := range table.entries {
			if !yield(e) {
				return
			}
		}
	}, func(a, b compiledEntry) int { return strings.Compare(a.src, b.src) })
	if len(entries) == 0 {
		t.Fatal("the table holds no formulas")
	}
	untracked := 0
	for _, e := range entries {
		checked := e.ast(e.src)
		if checked == nil {
			t.Errorf("%s: the table's tree does not decode", e.src)
			continue
		}
		if got := fastLimit(env, checked, e.fastLimit, parseSizesKey(t, e.fastSizes)); got != e.fastUpTo {
			t.Errorf("%s: untracked up to %d, the table says %d", e.src, got, e.fastUpTo)
		}
		if e.fastUpTo > 0 {
			untracked++
		}
	}
	t.Logf("%d formulas, %d of them untracked on some data", len(entries), untracked)
}

// parseSizesKey reads what sizesKey wrote.
func parseSizesKey(t *testing.T, key string) map[string]uint64 {
	t.Helper()
	var out map[string]uint64
	for kv := range strings.SplitSeq(key, ";") {
		if kv == "" {
			continue
		}
		name, n, ok := strings.Cut(kv, "=")
		v, err := strconv.ParseUint(n, 10, 64)
		if !ok || err != nil {
			t.Fatalf("fixed sizes %q: %q is not name=size", key, kv)
		}
		if out == nil {
			out = map[string]uint64{}
		}
		out[name] = v
	}
	return out
}

// TestComprehensionOfMadeValuesStaysTracked: the variable of a
// comprehension over values the formula made is no part of the data,
// yet it was estimated as one (found by the review of h57rev), so each
// of these ran untracked past CostLimit: a dyn list of 64 strings of 64
// characters doubled six times before find_all_each_in reads it, and,
// for typed values, strings a map made 64 times as long; both were
// estimated within the limit, as if of the data, and are charged past
// it. The patterns match nothing, so the charge is the reading alone
// and no match is held (matching ones took 1.2 GB to reach the limit).
func TestComprehensionOfMadeValuesStaysTracked(t *testing.T) {
	const n = 64
	ss, res := make([]any, n), make([]any, n)
	for i := range n {
		ss[i] = strings.Repeat("x", n)
		res[i] = "y"
	}
	for _, c := range []struct {
		name  string
		decls []Var
		src   string
		vars  Vars
	}{
		{"a dyn list doubled", []Var{{"d", cel.DynType}},
			"[d.ss].map(a, a + a).map(a, a + a).map(a, a + a).map(a, a + a).map(a, a + a).map(a, a + a).exists(g, find_all_each_in(g, d.res).size() > 0)",
			Vars{"d": map[string]any{"ss": ss, "res": res}}},
		{"strings made longer", []Var{{"names", cel.ListType(cel.StringType)}, {"res", cel.ListType(cel.StringType)}},
			"names.map(s, s + s).map(s, s + s).map(s, s + s).map(s, s + s).map(s, s + s).map(s, s + s).map(g, find_all_each(g, res).size())[0]",
			Vars{"names": ss, "res": res}},
	} {
		e, err := NewEnv(c.decls...)
		if err != nil {
			t.Fatal(err)
		}
		wantStoppedAtLimit(t, e, c.src, c.vars, n, c.name)
	}
}

// wantStoppedAtLimit compiles src in e and checks that, evaluated on
// act (no value of which is longer than n) on the path EvalSized takes,
// it is stopped by the cost limit; label names the case in a failure.
// It returns the program.
func wantStoppedAtLimit(t *testing.T, e *Env, src string, act Vars, n uint64, label string) *Program {
	t.Helper()
	p, ds := e.Compile(src, nil)
	if ds != nil {
		t.Fatalf("%s: %v", label, ds)
	}
	if _, err := p.EvalSized(act, n); err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Errorf("%s: %s on data %d long: got error %v, want the cost limit (untracked: %v)", label, src, n, err, p.Untracked(n))
	}
	return p
}

// rangeVars are the variables of the tests of comprehensions' ranges:
// lists of strings and of patterns, a dyn value holding lists, and the
// tool.
var rangeVars = []Var{
	{"names", cel.ListType(cel.StringType)}, {"res", cel.ListType(cel.StringType)},
	{"d", cel.DynType}, {"tool", Tool},
}

// rangeData is data in which every string and list is n long: n names
// of n characters, n patterns that match every character, d holding
// them too, and a tool no longer than n in canonical JSON.
// unmatchedRange is rangeVars' environment and rangeData(n) with res
// n patterns that match none of its strings ("y" against strings of
// x), so that what find_all_each is charged is its reading alone.
func unmatchedRange(t *testing.T, n int) (*Env, Vars) {
	t.Helper()
	e, err := NewEnv(rangeVars...)
	if err != nil {
		t.Fatal(err)
	}
	act := rangeData(n)
	res := make([]any, n)
	for i := range res {
		res[i] = "y"
	}
	act["res"] = res
	return e, act
}

func rangeData(n int) Vars {
	names, res := make([]any, n), make([]any, n)
	for i := range n {
		names[i], res[i] = strings.Repeat("x", n), "x"
	}
	tool := map[string]any{"name": "t", "description": strings.Repeat("x", n/2)}
	return Vars{"names": names, "res": res, "d": map[string]any{"ss": names, "res": res}, "tool": ToolValue(tool)}
}

// TestBoundedRangesKeepTheirBound: a comprehension's variable keeps the
// data's bound where every element of its range is a value of the data
// (see shapeOf), and what the tracker charges such a formula, on data
// at the bound, stays within its finite estimate: each row reads its
// variable with a function whose cost grows with its length.
func TestBoundedRangesKeepTheirBound(t *testing.T) {
	heavytest.Later(t)
	e, err := NewEnv(rangeVars...)
	if err != nil {
		t.Fatal(err)
	}
	const n = 32
	act := rangeData(n)
	for _, src := range []string{
		// A path into the data, through fields and indexes.
		"names.map(s, find_all_each(s, res).size())",
		"d.ss.map(s, find_all_each(s, d.res).size())",
		"[d].map(x, x.ss).map(ss, find_all_each_in(ss, res).size())",
		// A list written out of values of the data.
		"[names, d.ss, names].map(ss, find_all_each_in(ss, res).size())",
		"[names[0], d.ss[1]].map(s, find_all_each(s, res).size())",
		// A concatenation: longer than the data, its elements are not.
		"(names + names + d.ss).map(s, find_all_each(s, res).size())",
		// A filter, a map to values of the data, and the two-argument
		// forms over them.
		"names.filter(s, size(s) > 0).map(s, find_all_each(s, res).size())",
		"[d, d].map(x, x.ss).map(ss, find_all_each_in(ss, res).size())",
		"names.filter(s, true).filter(s, true).exists(s, find_all_each(s, res).size() < 0)",
		"names.map(s, size(s) > 0, s).all(s, find_all_each(s, res).size() > 0)",
		"names.exists_one(s, find_all_each(s, res).size() < 0)",
		// Either branch, dyn.
		"(size(names) > 1 ? names : d.ss).map(s, find_all_each(s, res).size())",
		"dyn(names).map(s, find_all_each(s, res).size())",
		// Some of the elements, in some order.
		"names.slice(0, 16).map(s, find_all_each(s, res).size())",
		"names.distinct().map(s, find_all_each(s, res).size())",
		"names.sortBy(s, size(s)).map(s, find_all_each(s, res).size())",
		"unique_by(names, names).map(s, find_all_each(s, res).size())",
		"index_by(names, names).map(k, find_all_each(k, res).size())",
		"group_by(names, names)[names[0]].map(s, find_all_each(s, res).size())",
		"string_values(tool).map(s, find_all_each(s, res).size())",
		// A cel.bind of a bounded range, and a macro in a macro.
		"cel.bind(ns, names.filter(s, true), ns.map(s, find_all_each(s, res).size()))",
		"names.map(s, names.map(u, find_all_each(s + u, res).size()))",
	} {
		wantChargeWithin(t, e, src, act, n, src, true)
	}
}

// TestComputedRangesStayTracked: a comprehension's variable over values
// the formula computed (strings or lists it concatenated, what a map
// made, a map over such a map, a list holding them) has no bound in the
// data's, nor has a cel.bind of a path through it, nor a macro's
// variable that shadows a variable of the data. Each formula matches
// strings sixteen times as long as the data's, 64 of 64 characters,
// against a pattern of 1,000 characters: charged about 1,650,000, past
// the cost limit, it is tracked on that data and stopped at the limit.
// Read as values of the data, each was estimated at about 112,000 and
// ran untracked.
func TestComputedRangesStayTracked(t *testing.T) {
	e, err := NewEnv(rangeVars...)
	if err != nil {
		t.Fatal(err)
	}
	const n = 64
	act := rangeData(n)
	long := "'" + strings.Repeat("y", 1000) + "'"
	expand := strings.NewReplacer(
		"S16", strings.TrimSuffix(strings.Repeat("s + ", 16), " + "),
		"L16", strings.TrimSuffix(strings.Repeat("l + ", 16), " + "),
		"RE", long)
	for _, row := range []string{
		// Strings the formula made sixteen times as long.
		"names.map(s, S16).map(g, g.matches(RE))[0]",
		"names.map(s, s + s).map(s, s + s).map(s, s + s).map(s, s + s).map(g, g.matches(RE))[0]",
		"names.map(s, S16).filter(g, !g.matches(RE)).size()",
		"names.map(s, S16).exists(g, g.matches(RE))",
		"names.map(s, S16).map(g, size(g) > 0, g.matches(RE))[0]",
		// Lists the formula made sixteen times as long, as typed lists
		// and as dyn values (read by the text functions in
		// TestComprehensionOfMadeValuesStaysTracked).
		"[names].map(l, L16).map(g, g.exists(s, s.matches(RE)))[0]",
		"[d.ss].map(l, L16).map(g, g.exists(s, s.matches(RE)))[0]",
		// What a map made: a map of strings it made, a list of them.
		"names.map(s, {'t': S16}).map(m, m.t.matches(RE))[0]",
		"names.map(s, [S16]).map(l, l[0].matches(RE))[0]",
		// A map over a map: the inner variable ranges over what the
		// outer one holds, which the formula made.
		"[names].map(l, l.map(s, S16)).map(l, l.map(g, g.matches(RE)))[0][0]",
		"[names.map(s, S16)].map(l, l.map(l, l.matches(RE)))[0][0]",
		// A cel.bind of the variable, or of a path through it.
		"names.map(s, S16).map(g, cel.bind(b, g, b.matches(RE)))[0]",
		"names.map(s, {'t': S16}).map(m, cel.bind(b, m.t, b.matches(RE)))[0]",
		// A macro's variable named as a variable of the data.
		"names.map(s, S16).map(names, names.matches(RE))[0]",
		"[names.map(s, S16)].map(d, d.map(tool, tool.matches(RE)))[0][0]",
	} {
		if p := wantStoppedAtLimit(t, e, expand.Replace(row), act, n, row); p.Untracked(n) {
			t.Errorf("%s: untracked on data %d long, want tracked", row, n)
		}
	}
}

// TestTextsOfTheToolWithinTheirBound: what texts yields of the tool
// holds a JSON pointer (path) that may be longer than the tool's
// canonical JSON, the engine's bound for its formulas (each '/' and '~'
// of a key is written as two characters), but not twice as long: a
// member's segment, 1 + 2k characters for a key of k, takes at least
// k + 5 bytes of JSON ("k":{}), an element's, 1 + its index's digits,
// at least as many. And it yields at most one text for every two bytes
// of that JSON, each string's quotes. So a macro over texts(tool) goes
// through at most half the bound's texts (see textCallEstimate), its
// variable bounded at twice the data's (see shapes.of), and what the
// tracker charges a formula over them stays within its estimate.
func TestTextsOfTheToolWithinTheirBound(t *testing.T) {
	e, err := NewEnv(Var{"tool", Tool})
	if err != nil {
		t.Fatal(err)
	}
	slashes := strings.Repeat("/", 60)
	nested := map[string]any{"description": "x"}
	for range 12 {
		nested = map[string]any{"~": nested}
	}
	for _, tt := range []struct {
		name string
		tool map[string]any
		// longer is whether a path is longer than the tool's JSON.
		longer bool
	}{
		{"keys of slashes", map[string]any{"name": "t", "inputSchema": map[string]any{"properties": map[string]any{
			slashes: map[string]any{"description": "a", "title": "b", "type": "c"}}}}, true},
		{"keys of tildes, nested", map[string]any{"name": "t", "inputSchema": nested}, false},
		{"lists", map[string]any{"name": "t", "enum": []any{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}}, false},
		{"empty strings", map[string]any{"": "", "enum": []any{"", "", "", "", "", "", "", "", "", "", "", "", "", "", "", ""}}, false},
		{"plain", map[string]any{"name": "read", "description": "Reads a file.", "inputSchema": map[string]any{
			"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}, false},
	} {
		n := jsonSize(t, tt.tool)
		longest := 0
		for _, x := range Texts(tt.tool) {
			longest = max(longest, utf8.RuneCountInString(x.Path))
		}
		if uint64(longest) > 2*n || (uint64(longest) > n) != tt.longer {
			t.Errorf("%s: a path of %d characters in a tool of %d bytes, want at most twice as long (longer: %v)", tt.name, longest, n, tt.longer)
		}
		if texts := uint64(len(Texts(tt.tool))); texts > n/2 {
			t.Errorf("%s: %d texts in a tool of %d bytes, want at most one for every two", tt.name, texts, n)
		}
		act := map[string]any{"tool": ToolValue(tt.tool)}
		for _, src := range []string{
			"texts(tool, true).map(t, t.path.matches('" + strings.Repeat("y", 40) + "'))",
			"texts(tool, true).filter(t, t.key).map(t, t.path.contains(t.path))",
			"texts(tool).map(t, find_all(t.path, '~.').size())",
			"texts(tool).map(t, t.path + t.path).map(p, find_all(p, '.').size())",
			"texts(tool, true).map(t, [t.text, t.path, t.key]).size()",
			"texts(tool, false).exists(t, t.key)",
		} {
			wantChargeWithin(t, e, src, act, n, tt.name+": "+src, false)
		}
	}
}

// TestParamsOfTheToolKeepTheirBound: what params yields of the tool
// holds its schemas with their $refs inlined, and a schema that sits
// beside a $ref merged with its target: a map with the keys of both,
// yet no longer than the tool's canonical JSON, the engine's bound for
// its formulas. A macro's variable over params(tool) keeps the data's
// bound, and what the tracker charges a formula over it on such a tool
// stays within its finite estimate.
func TestParamsOfTheToolKeepTheirBound(t *testing.T) {
	e, err := NewEnv(rangeVars...)
	if err != nil {
		t.Fatal(err)
	}
	target := map[string]any{"type": "string", "description": strings.Repeat("d", 40)}
	for i := range 12 {
		target[fmt.Sprintf("x-%d", i)] = "v"
	}
	beside := map[string]any{"$ref": "#/$defs/A", "title": strings.Repeat("t", 40)}
	for i := range 12 {
		beside[fmt.Sprintf("y-%d", i)] = "w"
	}
	tool := map[string]any{"name": "t", "inputSchema": map[string]any{
		"type": "object", "$defs": map[string]any{"A": target}, "required": []any{"p"},
		"properties": map[string]any{"p": beside, "q": map[string]any{"$ref": "#", "description": "root"}},
	}}
	n := jsonSize(t, tool)
	act := Vars{"tool": ToolValue(tool), "res": []any{"[a-z]", "-"}, "names": []any{}, "d": nil}
	for _, src := range []string{
		"params(tool).map(p, find_all_each(p.name, res).size())",
		"params(tool).map(p, find_all_each(p.schema.description, res).size())",
		"params(tool).filter(p, p.required).map(p, size(p.schema))",
		"params(tool).map(p, p.schema).map(s, s.exists(k, find_all_each(k, res).size() > 99))",
		"params(tool).map(p, p.schema).map(s, s.map(k, k + k).exists(k, k.contains(k)))",
	} {
		wantChargeWithin(t, e, src, act, n, src, true)
	}
}

// TestMadeStringsThroughCallsStayTracked: a call whose function
// declares no size for its result (lower; format, which writes its
// argument 64 times here) and a path into a call's
// result (split's elements, find_all's text) over a string the formula
// made 64 times as long as the data's were estimated as strings of the
// data, so each of these ran untracked past CostLimit: at 512, the
// largest size each was untracked up to, matching 512 patterns that
// match nothing against 32,768 characters is charged about 1,700,000.
// Each is now tracked and stopped at the limit.
func TestMadeStringsThroughCallsStayTracked(t *testing.T) {
	const n = 512
	e, act := unmatchedRange(t, n)
	s8 := "(" + strings.Repeat("names[0] + ", 7) + "names[0])"
	s64 := "(" + strings.Repeat(s8+" + ", 7) + s8 + ")"
	for _, c := range []struct{ name, src string }{
		{"lower", "find_all_each(lower(" + s64 + "), res).size()"},
		{"an element of split", "find_all_each(" + s64 + ".split(',')[0], res).size()"},
		{"a match's text", "find_all_each(find_all(" + s64 + ", 'x+')[0].text, res).size()"},
		{"lower in a macro", "[" + s64 + "].map(s, lower(s)).map(s, find_all_each(s, res).size())"},
		{"format", "find_all_each('" + strings.Repeat("%s", 64) + "'.format([" + strings.Repeat("names[0], ", 63) + "names[0]]), res).size()"},
	} {
		wantStoppedAtLimit(t, e, c.src, act, n, c.name)
	}
}

// TestLengthKeepingCallsKeepTheirBound: the functions that return no
// more than the string they read (see keepsLength), and paths into
// what find_all and texts return, keep the data's bound (texts' paths
// twice it) when that string is the data's, and what the tracker
// charges a formula reading their result with a function whose cost
// grows with its length stays within its finite estimate.
func TestLengthKeepingCallsKeepTheirBound(t *testing.T) {
	heavytest.Later(t)
	e, err := NewEnv(rangeVars...)
	if err != nil {
		t.Fatal(err)
	}
	const n = 64
	act := rangeData(n)
	for _, src := range []string{
		"find_all_each(lower(names[0]), res).size()",
		"find_all_each(names[0].lowerAscii(), res).size()",
		"find_all_each(names[0].upperAscii(), res).size()",
		"find_all_each(names[0].trim(), res).size()",
		"find_all_each(names[0].substring(1), res).size()",
		"find_all_each(names[0].charAt(0), res).size()",
		"find_all_each(names[0].reverse(), res).size()",
		"find_all_each(names[0].split('y')[0], res).size()",
		"find_all_each(find_all(names[0], 'x+')[0].text, res).size()",
		"find_all_each(texts(tool)[0].path, res).size()",
		"names.map(s, lower(s)).map(s, find_all_each(s, res).size())",
		"names.map(s, s.split('y')[0]).map(s, find_all_each(s, res).size())",
	} {
		wantChargeWithin(t, e, src, act, n, src, true)
	}
}
