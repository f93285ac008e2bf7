package lang

import (
	"context"
	"fmt"
	"strings"
	"testing"

	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
)

// surfaceWords is a surface of n tools named get_item_<i>, one of them
// with a description of 5,000 characters (the longest value of the data,
// so its bound), and a table of fillers and synonyms beside it, as a
// rubric's surface signals hold them; with the cost limit of a formula
// over such a surface.
func surfaceWords(t *testing.T, n int) (*Env, Vars, uint64, uint64) {
	t.Helper()
	e, err := NewEnv(Var{"surface", Object}, Var{"table", Object})
	if err != nil {
		t.Fatal(err)
	}
	tools := make([]any, n)
	for i := range tools {
		tools[i] = map[string]any{"name": fmt.Sprintf("get_items_%d", i), "description": "Gets items."}
	}
	tools[0].(map[string]any)["description"] = strings.Repeat("d", 5_000)
	surface := map[string]any{"tools": tools}
	table := map[string]any{
		"fillers":  []any{"the", "a", "of", "tool"},
		"synonyms": map[string]any{"read": "get", "fetch": "get", "item": "entry"},
	}
	limit := LimitFor(CostLimit+CostPerItem*uint64(n), jsonSize(t, surface))
	return e, Vars{"surface": surface, "table": table}, 5_000, limit
}

// wordsOf is a formula over every tool's words: the words of its name,
// lowered, then what each formula of TestDerivedValuesBoundedByTheirSource
// does with them (rest).
const wordsOf = "surface.tools.map(t, find_all(t.name, r'[A-Za-z]+').map(m, lower(m.text))"

// TestDerivedValuesBoundedByTheirSource: a formula over every tool of a
// surface that goes through the words of each tool's name was estimated,
// on its data, as tools x (words as long as the longest value of the
// surface, here a description of 5,000 characters), far past its limit,
// and tracked, at the square of the tools (Toolset's entries took 2.7 s
// of 4.2 at 10,000 tools). A word is no longer than the name it was
// taken from: estimated so, each formula fits, is evaluated untracked,
// and what the tracker charges it stays within that estimate.
func TestDerivedValuesBoundedByTheirSource(t *testing.T) {
	e, act, size, limit := surfaceWords(t, 1_000)
	for _, rest := range []string{
		")",
		".map(w, w.endsWith('s') ? w.substring(0, size(w) - 1) + 'y' : w))",
		".filter(w, !(w in table.fillers)))",
		".map(w, w in table.synonyms ? table.synonyms[w] : w).filter(w, !(w in table.fillers)))",
		".map(w, w in table.synonyms ? table.synonyms[w] : w).distinct().sort().join(' '))",
		".map(w, w + '!').filter(w, w != 'get!').join(' '))",
		".map(w, [w, w]).map(p, p[0] + p[1]))",
	} {
		src := wordsOf + rest
		p := compileAt(t, e, src, limit)
		if p.Untracked(size) {
			t.Errorf("%s: untracked by its static estimate; the test wants one it tracks", rest)
			continue
		}
		if fits, over := p.fitsOn(act, size, 0); !fits || !over {
			t.Errorf("%s: on its data, fits %v, over data %v; want both", rest, fits, over)
			continue
		}
		want, charge, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatalf("%s: %v", rest, err)
		}
		if est := p.costOn(act, size); charge > est {
			t.Errorf("%s: charged %d, above its estimate on the data %d", rest, charge, est)
		}
		got, err := p.EvalOnceContext(context.Background(), act, size)
		if err != nil {
			t.Fatalf("%s: %v", rest, err)
		}
		if got.Equal(want) != types.True {
			t.Errorf("%s: %v untracked, %v tracked", rest, got, want)
		}
	}
}

// TestDerivedValuesKeepTheirSourcesLength: a word is bounded by the
// name it came from, however long: a name of 4,500 characters made of
// 1,500 words puts that many words in one tool's list, and a formula
// that compares each word of a tool with every other is estimated so and
// stops at its limit (a tenth of a formula's, for the tracked run to stop
// soon), as it must; a word joined to itself is twice as long, and the
// estimate says so.
func TestDerivedValuesKeepTheirSourcesLength(t *testing.T) {
	e, act, _, _ := surfaceWords(t, 2_000)
	tools := act["surface"].(map[string]any)["tools"].([]any)
	tools[1].(map[string]any)["name"] = strings.Repeat("ab ", 1_500)
	const size = 5_000 // the description of 5,000 characters
	pairs := compileAt(t, e, wordsOf+").map(ws, ws.map(x, ws.filter(y, x == y)))", CostLimit/10)
	if fits, _ := pairs.fitsOn(act, size, 0); fits {
		t.Error("every pair of 1,500 words fits the limit")
	}
	if _, err := pairs.EvalOnceContext(context.Background(), act, size); err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Errorf("every pair of 1,500 words: error %v, want the cost limit", err)
	}
	doubled := compileAt(t, e, wordsOf+").map(ws, ws.map(w, w + w))", CostLimit)
	_, charge, err := evalTracked(t, doubled, act)
	if err != nil {
		t.Fatal(err)
	}
	if est := doubled.costOn(act, size); charge > est {
		t.Errorf("words doubled: charged %d, above the estimate on the data %d", charge, est)
	}
	if _, err := doubled.EvalOnceContext(context.Background(), act, size); err != nil {
		t.Errorf("words doubled: %v", err)
	}
}

// TestOnceEstimatedOnShortData: a surface whose longest value is 5,000
// long is short data (under minDataSize), on which a tool's formula is
// not estimated again, to spare each of many tools the estimate; a
// surface's formula, evaluated once (EvalOnceContext), is, and runs
// untracked where EvalSizedContext tracks it. Both give one value.
func TestOnceEstimatedOnShortData(t *testing.T) {
	e, act, size, limit := surfaceWords(t, 2_000)
	if size >= minDataSize {
		t.Fatalf("data %d long, want it shorter than %d", size, minDataSize)
	}
	p := compileAt(t, e, wordsOf+".distinct().sort().join(' '))", limit)
	before := TrackedOverData()
	tracked, err := p.EvalSizedContext(context.Background(), act, size)
	if err != nil {
		t.Fatal(err)
	}
	if TrackedOverData() != before+1 {
		t.Errorf("EvalSizedContext: %d evaluations tracked, want 1", TrackedOverData()-before)
	}
	before = TrackedOverData()
	once, err := p.EvalOnceContext(context.Background(), act, size)
	if err != nil {
		t.Fatal(err)
	}
	if TrackedOverData() != before {
		t.Errorf("EvalOnceContext: %d evaluations tracked, want none", TrackedOverData()-before)
	}
	if once.Equal(tracked) != types.True {
		t.Errorf("%v once, %v tracked", once, tracked)
	}
}

// TestInDataStringsBoundedByThem: x in l, where l is a list of the data
// that holds only strings, reads at most each of l's strings once,
// whatever x is; estimated so, a value the formula typed dyn (a value
// of a map of the data) is looked for in such a list untracked. When l
// holds anything but strings, it keeps the estimate it had: none for a
// dyn x, which stays tracked.
func TestInDataStringsBoundedByThem(t *testing.T) {
	e, err := NewEnv(Var{"m", Object}, Var{"ys", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	for i := range 3_000 {
		m[fmt.Sprintf("k%d", i)] = fmt.Sprintf("value %d", i)
	}
	const src = "m.map(k, m[k]).filter(v, v in ys)"
	for _, tt := range []struct {
		ys   []any
		fits bool
	}{
		{[]any{"value 1", "value 22", "other"}, true},
		{[]any{"value 1", []any{"value 22"}, "other"}, false},
	} {
		act := Vars{"m": m, "ys": tt.ys}
		p := compileAt(t, e, src, CostLimit)
		size := uint64(3_000)
		if p.Untracked(size) {
			t.Fatal("untracked by its static estimate; the test wants one it tracks")
		}
		fits, _ := p.fitsOn(act, size, 0)
		if fits != tt.fits {
			t.Errorf("ys %v: fits %v, want %v", tt.ys, fits, tt.fits)
		}
		_, charge, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatal(err)
		}
		if est := p.costOn(act, size); fits && charge > est {
			t.Errorf("ys %v: charged %d, above its estimate %d", tt.ys, charge, est)
		}
	}
}

// TestDerivedKeysOfMatches: a match of find_all is a map whose keys
// (start, end, text) may be longer than the string matched: a key of a
// match of a string of two characters is bounded by five, the longest.
func TestDerivedKeysOfMatches(t *testing.T) {
	e, err := NewEnv(Var{"s", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	p := compileAt(t, e, "find_all(s, 'a').map(m, m.map(k, k))", CostLimit)
	var ids []int64
	celast.PostOrderVisit(p.checked.NativeRep().Expr(), celast.NewExprVisitor(func(x celast.Expr) {
		if x.Kind() == celast.IdentKind && x.AsIdent() == "k" {
			ids = append(ids, x.ID())
		}
	}))
	got := derivedBounds(p.checked, nil, func(path []string) (uint64, bool) {
		return 2, len(path) == 1 && path[0] == "s"
	})
	if len(ids) == 0 {
		t.Fatal("no identifier k")
	}
	for _, id := range ids {
		if n, ok := got.self[id]; !ok || n < uint64(len("start")) {
			t.Errorf("a key of a match bounded by %d (%v), want at least %d", n, ok, len("start"))
		}
	}
}

// longestValue is the bound the engine gives data (eval.ValueSize): the
// longest string in bytes, list or map of v.
func longestValue(v any) uint64 {
	switch x := v.(type) {
	case string:
		return uint64(len(x))
	case []any:
		n := uint64(len(x))
		for _, e := range x {
			n = max(n, longestValue(e))
		}
		return n
	case map[string]any:
		n := uint64(len(x))
		for k, e := range x {
			n = max(n, uint64(len(k)), longestValue(e))
		}
		return n
	}
	return 1
}

// TestDataEstimateHoldsOnHostileKeysAndText: what a review of the
// per-evaluation estimate found it missing, each charged by the tracker
// more than it was estimated: a key that reads as a step of a path
// (d['@keys']) or holds the separator of their cache keys (d['a\x00b'],
// read as d.a.b), a lower case longer in bytes than the text (U+023A
// takes two bytes, its lower case three), and x in a map.
func TestDataEstimateHoldsOnHostileKeysAndText(t *testing.T) {
	e, err := NewEnv(Var{"d", Object})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 10_000)
	capitals := strings.Repeat("\u023a", 10_000)
	hundred := make([]any, 100)
	for i := range hundred {
		hundred[i] = fmt.Sprint(i)
	}
	for _, tt := range []struct {
		src  string
		data map[string]any
	}{
		{"d.l.map(x, [d['@keys'], d['@keys']].join(','))", map[string]any{"@keys": long, "l": hundred}},
		{"d.l.map(x, [d['@indices']].distinct())", map[string]any{"@indices": long, "l": hundred}},
		{"d.l.map(x, [d.a.b, d['a\\x00b']].join(','))", map[string]any{"a": map[string]any{"b": "x"}, "a\x00b": long, "l": hundred}},
		{"d.names.map(s, lower(s)).distinct()", map[string]any{"names": []any{capitals + "a", capitals + "b"}}},
		{"d.names.exists(s, lower(s) in d.m)", map[string]any{"names": []any{capitals + "a", capitals + "b"}, "m": map[string]any{"k": "v"}}},
		{"d.l.map(x, x in d.w)", map[string]any{"l": []any{long, long + "y"}, "w": map[string]any{"k": "v"}}},
	} {
		act := Vars{"d": tt.data}
		p := compileAt(t, e, tt.src, CostLimit)
		_, charge, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if est := p.costOn(act, longestValue(tt.data)); charge > est {
			t.Errorf("%s: charged %d, above its estimate on the data %d", tt.src, charge, est)
		}
	}
}
