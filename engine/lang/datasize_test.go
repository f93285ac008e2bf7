package lang

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// wideVars are the variables of the per-evaluation estimate's tests: the
// tool and an object of values (a tool's signals).
var wideVars = []Var{{"tool", Tool}, {"signals", Object}}

// wideEnv is wideVars' environment and wideData(t, n).
func wideEnv(t *testing.T, n int) (*Env, Vars, uint64) {
	t.Helper()
	e, err := NewEnv(wideVars...)
	if err != nil {
		t.Fatal(err)
	}
	act, size := wideData(t, n)
	return e, act, size
}

// wideData is a tool of n parameters, each {"type": "string",
// "description": "value i"}, and signals made of it as a rubric makes
// them (the parameters' schemas, their names, the properties by name),
// plus long, a list of n short strings and one of n characters; with the
// bound the engine gives such data: the tool's canonical JSON, longer
// than any of its strings, lists and maps, doubled for the long string.
func wideData(t *testing.T, n int) (Vars, uint64) {
	t.Helper()
	props := map[string]any{}
	schemas, names, long := make([]any, n), make([]any, n), make([]any, n)
	for i := range n {
		name := fmt.Sprintf("p%d", i)
		s := map[string]any{"type": "string", "description": fmt.Sprintf("value %d", i)}
		props[name], schemas[i], names[i], long[i] = s, s, name, "x"
	}
	long[n-1] = strings.Repeat("x", n)
	tool := map[string]any{"name": "wide", "description": "A tool with many parameters.",
		"inputSchema": map[string]any{"type": "object", "properties": props}}
	return Vars{
		"tool":    ToolValue(tool),
		"signals": map[string]any{"schemas": schemas, "names": names, "props": props, "long": long},
	}, 2 * jsonSize(t, tool)
}

// evalTracked evaluates p on act under cel-go's cost tracker, with no
// limit, and returns its value and what the tracker charged.
func evalTracked(t *testing.T, p *Program, act any) (ref.Val, uint64, error) {
	t.Helper()
	prg, err := trackedProgram(p.env, p.checked)
	if err != nil {
		t.Fatal(err)
	}
	out, det, err := prg.Eval(act)
	if err != nil {
		return out, 0, err
	}
	return out, *det.ActualCost(), nil
}

// TestWideDataEstimatedOnItsPaths: a formula that goes through every
// parameter of a tool of 5,000 parameters is estimated, statically, as
// 5,000 items each as long as the tool (the square of the tool), far
// over its limit, and was tracked, at the square of its items. Estimated
// with each path bounded by what the data holds there, it fits its
// limit: it is evaluated untracked, and what the tracker charges it
// stays within that estimate, so the tracker could not have stopped it.
func TestWideDataEstimatedOnItsPaths(t *testing.T) {
	heavytest.Later(t)
	e, act, n := wideEnv(t, 5000)
	limit := LimitFor(CostLimit, n/2)
	for _, src := range []string{
		// Whether any parameter's schema has an object among its
		// default or its enum values.
		`signals.schemas.exists(s, is_object(s) && (
		  ('default' in s && (is_object(s.default) || (is_list(s.default) && s.default.exists(e, is_object(e)))))
		  || ('enum' in s && is_list(s.enum) && s.enum.exists(e, is_object(e)))))`,
		// Each parameter's name located in the tool: a JSON pointer
		// to it, escaped, and the name.
		`signals.names.map(n, {'path': '/inputSchema/properties/' + n.replace('~', '~0').replace('/', '~1'), 'text': n, 'key': true})`,
		// A map's keys, its values through them, an index.
		`signals.props.map(k, k + ':' + signals.props[k].type).size() == size(signals.names)`,
		`signals.schemas.filter(s, s.description.matches('^value [0-9]+$')).size()`,
		// Nested macros over short members; a dyn map's keys, its
		// values through them.
		`signals.schemas.all(s, s.all(k, k.size() < 20))`,
		`signals.schemas.all(s, s.all(k, s[k].size() < 20))`,
		`signals.schemas.map(s, s.map(k, s[k] + k)).size()`,
	} {
		p := compileAt(t, e, src, limit)
		if p.Untracked(n) {
			t.Errorf("%.60s: untracked by its static estimate on data %d long; the test wants one it tracks", src, n)
			continue
		}
		fits, over := p.fitsOn(act, n, minDataSize)
		if !over || !fits {
			t.Errorf("%.60s: on its data, fits %v, over data %v; want both", src, fits, over)
		}
		est := p.costOn(act, n)
		want, charge, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatalf("%.60s: %v", src, err)
		}
		if charge > est {
			t.Errorf("%.60s: charged %d, above its estimate on the data %d", src, charge, est)
		}
		before := TrackedOverData()
		got, err := p.EvalSized(act, n)
		if err != nil {
			t.Fatalf("%.60s: %v", src, err)
		}
		if TrackedOverData() != before {
			t.Errorf("%.60s: evaluated tracked, want untracked", src)
		}
		if got.Equal(want) != types.True {
			t.Errorf("%.60s: %v untracked, %v tracked", src, got, want)
		}
	}
}

// TestWideDataStaysTracked: the per-evaluation estimate bounds what it
// cannot look into as the static one does, and bounds each member of a
// list by its longest: a formula whose work on this data may exceed its
// limit (a scan inside a scan of 2,000 names; a value the formula
// made; a path into the tool, whose walks are bounded by its length) is
// still tracked, and one that exceeds it is stopped.
func TestWideDataStaysTracked(t *testing.T) {
	heavytest.Later(t)
	e, act, n := wideEnv(t, 2000)
	limit := LimitFor(CostLimit, n/2)
	for _, tt := range []struct {
		src string
		// stopped is whether the tracker stops it at the limit.
		stopped bool
	}{
		{`signals.names.map(a, signals.names.exists(b, b == a + 'x')).exists(x, x)`, true},
		{`signals.names.map(s, s + s + s + s).map(s, s + s + s + s).map(s, find_all(s, 'y+').size()).exists(x, x > 0)`, false},
		{`tool.inputSchema.properties.map(k, find_all(tool.inputSchema.properties[k].description, 'y+').size()).exists(x, x > 0)`, false},
	} {
		p := compileAt(t, e, tt.src, limit)
		if fits, over := p.fitsOn(act, n, minDataSize); fits || !over {
			t.Errorf("%.60s: on its data, fits %v, over data %v; want tracked (estimate %d, limit %d)", tt.src, fits, over, p.costOn(act, n), p.limit)
		}
		before := TrackedOverData()
		_, err := p.EvalSized(act, n)
		if TrackedOverData() != before+1 {
			t.Errorf("%.60s: evaluated untracked, want tracked", tt.src)
		}
		if stopped := err != nil && strings.Contains(err.Error(), "cost limit"); stopped != tt.stopped {
			t.Errorf("%.60s: error %v, want stopped at the limit: %v", tt.src, err, tt.stopped)
		}
	}
}

// compileAt compiles src in e with the cost limit the engine gives a
// formula of a tool limit long.
func compileAt(t *testing.T, e *Env, src string, limit uint64) *Program {
	t.Helper()
	p, ds := e.Compile(src, nil)
	if ds != nil {
		t.Fatalf("%s: %v", src, ds)
	}
	p, err := p.WithCostLimit(limit)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPathSize: the longest value at a path of cel-go's estimator, in Go
// values and in CEL values alike, and what it cannot look into.
func TestPathSize(t *testing.T) {
	data := map[string]any{
		"s":         "héllo", // 6 bytes, 5 characters: bytes bound characters
		"list":      []any{"a", "abc", map[string]any{"k": "xy"}, []any{1, 2, 3, 4}},
		"map":       map[string]any{"one": "1", "three": []any{1, 2, 3}},
		"typed":     map[string][]string{"a": {"x", "yyyy"}},
		"num":       1.5,
		"msg":       struct{ A string }{"a"},
		"opt":       types.OptionalOf(types.NewStringList(Adapter, []string{"a", "b", "c"})),
		"strs":      []string{"a", "bb"},
		"exact":     num.Int(12345),
		"nums":      []any{num.Int(1), map[string]any{"n": num.Int(2)}},
		"typedNums": []num.Num{num.Int(1), num.Int(2)},
	}
	tests := []struct {
		path []string
		want uint64
		ok   bool
	}{
		{nil, 6, true},
		{[]string{"s"}, 6, true},
		{[]string{"list"}, 4, true},
		{[]string{"list", "@items"}, 4, true},
		{[]string{"list", "@items", "k"}, 2, true},
		{[]string{"list", "@items", "@items"}, 2, true}, // a map's items are its values
		{[]string{"list", "@keys"}, 4, true},            // a dyn list's @keys are its elements
		{[]string{"list", "@indices"}, 1, true},
		{[]string{"map", "@keys"}, 5, true},
		{[]string{"map", "@values"}, 3, true},
		{[]string{"map", "three", "@items"}, 1, true},
		{[]string{"map", "absent"}, 0, true},
		{[]string{"typed", "a", "@items"}, 4, true},
		{[]string{"typed", "@keys"}, 1, true},
		{[]string{"num"}, 1, true},
		{[]string{"num", "f"}, 0, true},
		{[]string{"msg"}, 0, false},
		{[]string{"msg", "A"}, 0, false},
		{[]string{"map", "@other"}, 0, false},
		{[]string{"opt"}, 3, true}, // the tracker measures what an optional holds
		{[]string{"strs", "@items"}, 2, true},
		{[]string{"strs", "f"}, 0, true}, // a Go list of any type has no fields
		// The tracker measures a number, the language's too, as 1.
		{[]string{"exact"}, 1, true},
		{[]string{"exact", "f"}, 0, true},
		{[]string{"exact", "@items"}, 0, true},
		{[]string{"nums", "@items"}, 1, true},
		{[]string{"nums", "@keys"}, 1, true},
		{[]string{"nums", "@items", "n"}, 1, true},
		{[]string{"typedNums", "@items"}, 1, true},
	}
	for _, tt := range tests {
		path := tt.path
		if len(path) > 0 {
			path = path[1:]
		}
		for _, form := range []struct {
			name string
			v    any
		}{{"go", data}, {"cel", Adapter.NativeToValue(data)}} {
			var v any
			if len(tt.path) > 0 {
				v = lookupField(t, form.v, tt.path[0])
			} else {
				v = "héllo"
			}
			if tt.path != nil && tt.path[0] == "msg" && form.name == "cel" {
				continue // the adapter cannot take a Go struct
			}
			got, ok := pathSize(v, path)
			if ok != tt.ok || (ok && got != tt.want) {
				t.Errorf("%s %v: %d, %v; want %d, %v", form.name, tt.path, got, ok, tt.want, tt.ok)
			}
		}
	}
}

// lookupField is the member name of a Go map, or of a CEL one.
func lookupField(t *testing.T, v any, name string) any {
	t.Helper()
	if m, ok := v.(map[string]any); ok {
		return m[name]
	}
	m, ok := v.(traits.Mapper)
	if !ok {
		t.Fatalf("%T is no map", v)
	}
	x, _ := m.Find(types.String(name))
	return x
}

// FuzzPathSize: pathSize bounds the length of every value cel-go's
// estimator would name by the path, in a JSON document of any shape:
// each value found by following the path by hand is no longer than it.
func FuzzPathSize(f *testing.F) {
	f.Add(`{"a": [{"b": "xyz"}, {"b": ["p", "q"]}], "c": {"d": 1}}`, "a.@items.b")
	f.Add(`{"a": {"k1": "v", "k2": "long value"}}`, "a.@values")
	f.Add(`{"a": {"key": 1}}`, "a.@keys")
	f.Add(`[[1, 2], [3]]`, "@items.@items")
	f.Fuzz(func(t *testing.T, doc, dotted string) {
		var v any
		if json.Unmarshal([]byte(doc), &v) != nil {
			return
		}
		var path []string
		if dotted != "" {
			path = strings.Split(dotted, ".")
		}
		got, ok := pathSize(v, path)
		if !ok {
			for _, s := range path {
				if strings.HasPrefix(s, "@") && s != "@items" && s != "@values" && s != "@keys" && s != "@indices" {
					return
				}
			}
			t.Fatalf("%s at %q: cannot look into JSON", doc, dotted)
		}
		var walk func(v any, path []string)
		walk = func(v any, path []string) {
			if len(path) == 0 {
				n := uint64(1)
				switch x := v.(type) {
				case string:
					n = uint64(len(x))
				case []any:
					n = uint64(len(x))
				case map[string]any:
					n = uint64(len(x))
				}
				if n > got {
					t.Fatalf("%s at %q: a value of size %d, above %d", doc, dotted, n, got)
				}
				return
			}
			switch x := v.(type) {
			case []any:
				switch path[0] {
				case "@items", "@values":
					for _, el := range x {
						walk(el, path[1:])
					}
				case "@keys", "@indices":
					for i := range x {
						walk(float64(i), path[1:])
					}
				}
			case map[string]any:
				switch path[0] {
				case "@items", "@values":
					for _, el := range x {
						walk(el, path[1:])
					}
				case "@keys":
					for k := range x {
						walk(k, path[1:])
					}
				case "@indices":
				default:
					if el, ok := x[path[0]]; ok {
						walk(el, path[1:])
					}
				}
			}
		}
		walk(v, path)
	})
}

// TestShortDataKeepsStaticPath: on data shorter than minDataSize the
// per-evaluation estimate is not tried (the tracker's square is small
// there, and an estimate costs more than it saves on a surface of many
// ordinary tools): a formula its static estimate tracks is tracked.
func TestShortDataKeepsStaticPath(t *testing.T) {
	e, act, n := wideEnv(t, 200)
	if n >= minDataSize {
		t.Fatalf("data %d long, want it shorter than %d", n, minDataSize)
	}
	p := compileAt(t, e, `signals.schemas.exists(s, is_object(s) && 'default' in s && is_list(s.default) && s.default.exists(e, is_object(e)))`, LimitFor(CostLimit, n/2))
	if p.Untracked(n) {
		t.Fatalf("untracked by its static estimate on data %d long; the test wants one it tracks", n)
	}
	if fits, over := p.fitsOn(act, n, minDataSize); fits || !over {
		t.Errorf("on data %d long: fits %v, over data %v; want tracked, over data", n, fits, over)
	}
}

// TestDataEstimateBoundsItsCharge: on a list of 3,000 values of nested
// maps and lists, every formula over it is charged by the tracker no
// more than the per-evaluation estimate: field chains on dyn values
// (which cel-go's estimate takes to cost nothing), nested macros over
// lists and maps, string and text functions, lists and maps made in a
// macro, optional fields. Those whose estimate fits their limit run
// untracked, so this is what keeps the limit holding.
func TestDataEstimateBoundsItsCharge(t *testing.T) {
	heavytest.Later(t)
	e, act, n := wideEnv(t, 3000)
	deep := make([]any, 3000)
	for i := range deep {
		deep[i] = map[string]any{
			"a": map[string]any{"b": map[string]any{"c": map[string]any{"d": fmt.Sprintf("v%d", i)}}},
			"l": []any{"x", "yy", map[string]any{"k": "z"}}, "e": []any{"p", "q"},
		}
	}
	act["signals"].(map[string]any)["deep"] = deep
	limit := LimitFor(CostLimit, n/2)
	for _, src := range []string{
		`signals.deep.map(x, x.a.b.c.d).size()`,
		`signals.deep.all(x, x.a.b.c.d.size() < 10 && x.a.b.c.d.startsWith('v'))`,
		`signals.deep.map(x, x.l.map(y, y)).size()`,
		`signals.deep.all(x, x.l.all(y, is_string(y) || y.k == 'z'))`,
		`signals.deep.all(x, 'p' in x.e && 'q' in x.e)`,
		`signals.deep.map(x, x.e + x.e + x.l).size()`,
		`signals.deep.map(x, x.a.b.c.d + x.a.b.c.d + 'abc').size()`,
		`signals.deep.map(x, x.a.b.c.d.matches('^v[0-9]+$')).size()`,
		`signals.deep.map(x, find_all(x.a.b.c.d, '[0-9]').size()).size()`,
		`signals.deep.map(x, x.a.map(k, x.a[k].map(j, x.a[k][j]))).size()`,
		`signals.deep.filter(x, x.a.b.c.d.contains('9')).map(x, x.e[0] + x.e[1]).size()`,
		`signals.deep.map(x, [x.a, x.l, x.e]).map(y, y[1]).size()`,
		`signals.deep.map(x, {'a': x.a.b.c.d, 'b': x.e}).size()`,
		`signals.deep.exists(x, x.l.exists(y, y == 'none'))`,
		`signals.deep.map(x, string(x.e.size()) + x.e.join(',')).size()`,
		`signals.deep.map(x, x.a.b.c.d.split('')).size()`,
		`signals.deep.map(x, x.a.b.c.d.replace('v', 'www')).size()`,
		`signals.deep.map(x, x.a.b.c.d.upperAscii().lowerAscii()).size()`,
		`signals.names.map(n, n + n).size()`,
		`signals.names.sortBy(n, n).size()`,
		`signals.deep.exists_one(x, x.a.b.c.d == 'v7')`,
		`signals.deep.map(x, x.?a.?b.orValue({})).size()`,
	} {
		p := compileAt(t, e, src, limit)
		est := p.costOn(act, n)
		_, charge, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if charge > est {
			t.Errorf("%s: charged %d, above its estimate on the data %d", src, charge, est)
		}
	}
}

// TestWideDataShared: a formula is shared by the goroutines that score
// tools at once; the first evaluations past its static bound, from many
// of them together, work out its per-evaluation estimate and build its
// untracked program once (run it with -race).
func TestWideDataShared(t *testing.T) {
	e, act, n := wideEnv(t, 2000)
	p := compileAt(t, e, `signals.schemas.exists(s, 'default' in s && s.default.exists(e, is_object(e)))`, LimitFor(CostLimit, n/2))
	done := make(chan error)
	for range 4 {
		go func() {
			_, err := p.EvalSized(act, n)
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestDataEstimateCountsWhatCelMisses: steps cel-go's estimate charges
// less than its tracker, on data where they decide: a chain of fields
// of dyn values in a macro over a list as long as the data's bound
// (cel-go's estimate charges a field of a dyn value nothing, its
// tracker one; the margin that covered it was dropped for a list
// longer than the bound over the margin), and a macro over the split of
// an empty string of the data (cel-go sizes split's result as its
// target, 0, where the empty string splits into one piece). Each was estimated far below
// its charge and, estimated within its limit, ran untracked past it.
func TestDataEstimateCountsWhatCelMisses(t *testing.T) {
	heavytest.Later(t)
	e, err := NewEnv(wideVars...)
	if err != nil {
		t.Fatal(err)
	}
	size := uint64(minDataSize)
	zeros := make([]any, size)
	for i := range zeros {
		zeros[i] = 0
	}
	names := make([]any, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("n%d", i)
	}
	deep := any(1)
	for range 80 {
		deep = map[string]any{"a": deep}
	}
	act := Vars{"tool": ToolValue(map[string]any{"name": "t"}), "signals": map[string]any{
		"zeros": zeros, "names": names, "deep": deep, "empty": "", "tiny": []any{"x"},
	}}
	limit := LimitFor(CostLimit, size)
	for _, src := range []string{
		`signals.tiny.all(t, t.contains('x')) && signals.zeros.all(z, signals.deep` + strings.Repeat(".a", 80) + ` == 1)`,
		`signals.empty.split(',').all(x, signals.names.all(a, signals.names.all(b, b != a + 'x')))`,
	} {
		p := compileAt(t, e, src, limit)
		if p.Untracked(size) {
			t.Fatalf("%.60s: untracked by its static estimate; the test wants one it tracks", src)
		}
		_, charge, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatalf("%.60s: %v", src, err)
		}
		charged, est := charge, p.costOn(act, size)
		if charged > est {
			t.Errorf("%.60s: charged %d, above its estimate on the data %d", src, charge, est)
		}
		if fits, _ := p.fitsOn(act, size, minDataSize); fits && charged > limit {
			t.Errorf("%.60s: untracked, charged %d past its limit %d", src, charged, limit)
		}
	}
}

// sharingAct is an activation whose variable shared is shared between
// evaluations (see SharedActivation), counting how often the estimate
// resolves it.
type sharingAct struct {
	Vars
	resolved *int
}

func (a sharingAct) ResolveName(name string) (any, bool) {
	if name == "shared" {
		*a.resolved++
	}
	return a.Vars.ResolveName(name)
}

func (a sharingAct) SharedValue(name string) (any, bool) {
	if name != "shared" {
		return nil, false
	}
	v, ok := a.Vars[name]
	return v, ok
}

// TestSharedValueWalkedOnce: a formula of each of many tools that goes
// through a value they all share (a surface's signal of N members,
// indexed by the tool's name) is estimated on its data with that value
// walked once, not once a tool (N times N); a new value in its place is
// walked again, and its own bound decides.
func TestSharedValueWalkedOnce(t *testing.T) {
	e, err := NewEnv(Var{"signals", Object}, Var{"shared", Object})
	if err != nil {
		t.Fatal(err)
	}
	const tools = 50
	byName := func(long int) map[string]any {
		m := map[string]any{}
		for i := range 2000 {
			m[fmt.Sprintf("t%d", i)] = []any{"a", "b", strings.Repeat("c", long)}
		}
		return map[string]any{"byName": m}
	}
	size := uint64(minDataSize)
	p := compileAt(t, e, `shared.byName[signals.name].exists(x, x.contains('q'))`, LimitFor(CostLimit, size))
	if p.Untracked(size) {
		t.Fatal("untracked by its static estimate; the test wants one it tracks")
	}
	shared := byName(1)
	resolved, first := 0, 0
	for i := range tools {
		act := sharingAct{Vars{"signals": map[string]any{"name": fmt.Sprintf("t%d", i)}, "shared": shared}, &resolved}
		if fits, _ := p.fitsOn(act, size, minDataSize); !fits {
			t.Fatalf("tool %d: not within its limit on its data", i)
		}
		if i == 0 {
			first = resolved
		}
	}
	if first == 0 || resolved != first {
		t.Errorf("the shared value resolved %d times for %d tools, %d for the first; want it walked once", resolved, tools, first)
	}
	// A value in its place with members 30,000 long is walked again,
	// and estimated on its own length.
	old := p.costOn(sharingAct{Vars{"signals": map[string]any{"name": "t1"}, "shared": shared}, &resolved}, size)
	before := resolved
	est := p.costOn(sharingAct{Vars{"signals": map[string]any{"name": "t1"}, "shared": byName(30000)}, &resolved}, size)
	if resolved == before || est <= old {
		t.Errorf("a new shared value: resolved %d times, estimated %d against %d for the old one; want it walked again, estimated higher", resolved-before, est, old)
	}
}

// TestNumbersEstimatedOnTheData: the per-evaluation estimate bounds a
// number of the data (an exact one, as the engine's values hold them)
// as the tracker measures it, 1, where it gave up and kept the static
// bound for the whole path: a list of 5,000 values, numbers among
// strings (an enum, a signal whose rows hold either), whose strings a
// macro reads was estimated as 5,000 strings as long as the data, the
// square of the list, and tracked. With numbers sized 1 it fits its
// limit, runs untracked, and what the tracker charges stays within the
// estimate. The signals are read as the engine's activation gives them,
// a Go map of Go values (see goMaps).
func TestNumbersEstimatedOnTheData(t *testing.T) {
	heavytest.Later(t)
	e, err := NewEnv(wideVars...)
	if err != nil {
		t.Fatal(err)
	}
	const n = 5000
	mixed, rows := make([]any, n), make([]any, n)
	for i := range n {
		mixed[i] = num.Int(int64(i))
		rows[i] = map[string]any{"min": num.Int(int64(i))}
		if i%2 == 0 {
			mixed[i] = fmt.Sprintf("value %d", i)
			rows[i] = map[string]any{"min": "none"}
		}
	}
	act := goMaps{"tool": ToolValue(map[string]any{"name": "t"}), "signals": map[string]any{"mixed": mixed, "rows": rows}}
	const size = 1 << 17
	limit := LimitFor(CostLimit, size/2)
	for _, src := range []string{
		`signals.mixed.filter(v, type(v) == string && v.contains('9')).size()`,
		`signals.rows.exists(r, type(r.min) == string && r.min.contains('x'))`,
	} {
		p := compileAt(t, e, src, limit)
		if p.Untracked(size) {
			t.Errorf("%s: untracked by its static estimate; the test wants one it tracks", src)
			continue
		}
		if fits, over := p.fitsOn(act, size, minDataSize); !over || !fits {
			t.Errorf("%s: on its data, fits %v, over data %v; want both", src, fits, over)
		}
		_, charged, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if est := p.costOn(act, size); charged > est {
			t.Errorf("%s: charged %d, above its estimate on the data %d", src, charged, est)
		}
	}
}

// goMaps is an activation that gives a Go map as it is, its members
// unadapted (num.Num, not Num), as the engine's does (eval.vars), and
// any other value as Vars does.
type goMaps Vars

func (a goMaps) ResolveName(name string) (any, bool) {
	if m, ok := a[name].(map[string]any); ok {
		return m, true
	}
	return Vars(a).ResolveName(name)
}

func (a goMaps) Parent() interpreter.Activation { return nil }
