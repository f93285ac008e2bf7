package lang

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
)

// indexData is an object holding a map m of one entry, whose key is a
// string of n characters, and k, the same key as another string (so
// that a lookup hashes and compares all of it), under d.
func indexData(n int) map[string]any {
	key := strings.Repeat("k", n)
	other := strings.Clone(key)
	return map[string]any{"d": map[string]any{"m": map[string]any{key: 1.0}, "k": other}}
}

// trackedCost evaluates p on act under the tracker as the engine's
// tracked program does, with no limit: its value and the charge.
func trackedCost(p *Program, act any) (ref.Val, uint64, error) {
	prg, err := trackedProgram(p.env, p.checked)
	if err != nil {
		return nil, 0, err
	}
	out, det, err := prg.Eval(act)
	if err != nil {
		return out, 0, err
	}
	return out, *det.ActualCost(), nil
}

// BenchmarkMapIndexByKeyLength measures a lookup of a map by a key read
// from the data, untracked, with a key of one character and one of
// 100,000, and reports the time per unit the tracker charges it: the
// work of a lookup grows with its key (it is hashed and compared whole).
func BenchmarkMapIndexByKeyLength(b *testing.B) {
	e, err := NewEnv(Var{"d", Dyn})
	if err != nil {
		b.Fatal(err)
	}
	p, ds := e.Compile("d.m[d.k]", nil)
	if ds != nil {
		b.Fatal(ds)
	}
	fast, err := p.env.Program(p.checked, cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 100_000} {
		act := Vars(indexData(n))
		_, charged, err := trackedCost(p, act)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("key=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := fast.Eval(act); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(charged), "ns/unit")
			b.ReportMetric(float64(charged), "units")
		})
	}
}

// keyData is a tool whose description is a string of n characters, and
// whose parameters are named by it, 'a' and 'b'; d, an object holding a
// map m under that string (and under 'a'), the same string under k, a
// list of three copies of it, a list of numbers and an index into it;
// names is a list of two copies of the string. With the bound the
// engine gives such data: the tool's canonical JSON.
func keyData(t *testing.T, n int) (map[string]any, uint64) {
	t.Helper()
	long := strings.Repeat("k", n)
	props := map[string]any{strings.Clone(long): map[string]any{"type": "string"}, "a": map[string]any{}, "b": map[string]any{}}
	tool := map[string]any{"name": "t", "description": strings.Clone(long),
		"inputSchema": map[string]any{"type": "object", "properties": props}}
	return map[string]any{
		"tool": ToolValue(tool),
		"d": map[string]any{
			"m": map[string]any{long: 1.0, "a": 2.0}, "k": strings.Clone(long),
			"ks": []any{strings.Clone(long), strings.Clone(long), strings.Clone(long)},
			"l":  []any{1.0, 2.0}, "i": 1.0,
		},
		"names": []any{strings.Clone(long), strings.Clone(long)},
	}, jsonSize(t, tool)
}

// TestIndexChargedByItsKey: looking a map up by a string it does not
// have written out (m[k], m[?k]) is charged a tenth of a unit a
// character of the key, as in is, and its estimate (static, and on the
// data) bounds that charge. A lookup by a key of 10,000 characters was
// charged one unit, the same as by a key of one: the tracker charges an
// index as a qualifier, whatever it reads. A lookup by a key that is a
// part of an item of a macro over the tool, or string() of an int, is
// estimated as linear in the data, as it was: a tenth of the tool's
// length for each item would estimate a macro over the tool's
// parameters at the square of the tool.
func TestIndexChargedByItsKey(t *testing.T) {
	e, err := NewEnv(Var{"tool", Tool}, Var{"d", Dyn}, Var{"names", cel.ListType(cel.StringType)})
	if err != nil {
		t.Fatal(err)
	}
	const n = 10_000
	act, size := keyData(t, n)
	for _, tt := range []struct {
		src string
		// least is the least charge: a tenth of a unit a character of
		// each key looked up.
		least uint64
		// estimated is whether the static estimate must be bounded:
		// the key is the tool's, or a string of a list of strings, or
		// written out.
		estimated bool
		// linear is whether the static estimate must grow no faster
		// than the data.
		linear bool
	}{
		{"d.m[d.k]", n / 10, false, false},
		{"d.m[?d.k].orValue(0.0)", n / 10, false, false},
		{"d.ks.map(k, d.m[k])", 3 * n / 10, false, false},
		{"d.m[tool.description]", n / 10, false, false},
		{"{'a': 1}[?tool.description].orValue(0)", n / 10, true, true},
		{"names.map(s, {'a': 1}[?s].orValue(0))", 2 * n / 10, true, false},
		{"names.map(s, d.m[s])", 2 * n / 10, false, false},
		{"d.m[?d.ks[0]].hasValue()", n / 10, false, false},
		// Keys of items of a macro over the tool: each a part of the
		// tool, all of them no longer than it.
		{"tool.inputSchema.properties.map(k, tool.inputSchema.properties[k])", n / 10, true, true},
		{"tool.inputSchema.properties.filter(k, {'a': 1}[?k].hasValue())", n / 10, true, true},
		{"tool.inputSchema.properties.all(k, d.m[?k].orValue(1.0) > 0.0)", n / 10, false, false},
		// string() of an int: at most 20 characters.
		{"tool.inputSchema.properties.map(k, {'1': 1}[?string(size(k))].orValue(0))", 0, true, true},
		// A key written out, or a number into a list: one unit.
		{"d.m['a']", 0, true, true},
		{"d.m[?'a'].orValue(0.0)", 0, true, true},
		{"d.l[1]", 0, true, true},
		{"d.l[int(d.i)]", 0, true, true},
		{"has(d.m.a)", 0, true, true},
	} {
		_, charged, est := trackedCharge(t, e, tt.src, act, size)
		if charged < tt.least {
			t.Errorf("%s: charged %d, want at least %d (a tenth of a unit a character of its keys)", tt.src, charged, tt.least)
		}
		if tt.estimated && est == math.MaxUint64 {
			t.Errorf("%s: no bound, want one: its data is bounded", tt.src)
		}
		if charged > est {
			t.Errorf("%s: charged %d, above its static estimate %d", tt.src, charged, est)
		}
		p, ds := e.Compile(tt.src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", tt.src, ds)
		}
		if onData := p.costOn(goMaps(act), size); charged > onData {
			t.Errorf("%s: charged %d, above its estimate on the data %d", tt.src, charged, onData)
		}
		if !tt.linear {
			continue
		}
		estimate := func(n uint64) uint64 {
			est, err := p.env.EstimateCost(chargeSelections(p.checked), newSizeBound(p.checked, n, nil))
			if err != nil {
				t.Fatal(err)
			}
			return est.Max
		}
		if small, large := estimate(1<<16), estimate(1<<20); large > 20*small {
			t.Errorf("%s: estimated %d on data 2^16 long, %d on data 2^20 long: want no more than 16 times as much and a margin", tt.src, small, large)
		}
	}
}

// TestLongKeyLookupsStopAtTheLimit: a hostile formula that looks a map
// up by a key of 100,000 characters once for each of 200 parameters of
// a tool (twenty million characters hashed) stops at the cost limit,
// where it ran to its end: each lookup was charged one unit, and the
// estimate on the data let it run untracked.
func TestLongKeyLookupsStopAtTheLimit(t *testing.T) {
	e, err := NewEnv(Var{"tool", Tool}, Var{"d", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("k", 100_000)
	props := map[string]any{}
	items := make([]any, 200)
	for i := range items {
		props[fmt.Sprintf("p%d", i)] = map[string]any{"type": "string"}
		items[i] = float64(i)
	}
	tool := map[string]any{"name": "t", "description": long,
		"inputSchema": map[string]any{"type": "object", "properties": props}}
	act := goMaps{"tool": ToolValue(tool), "d": map[string]any{"m": map[string]any{long: 1.0}, "k": strings.Clone(long), "n": items}}
	size := jsonSize(t, tool)
	for _, src := range []string{
		"params(tool).map(p, d.m[tool.description]).size()",
		"params(tool).map(p, d.m[?tool.description]).size()",
		"d.n.all(x, d.m[d.k] == 1.0)",
		"d.n.filter(x, d.m[?d.k].hasValue()).size()",
	} {
		p := stopsAtTheLimit(t, e, src, act, size)
		// explain traces a formula under the same charges.
		if tr, err := p.Trace(act); err == nil || !strings.Contains(err.Error(), "cost limit exceeded") {
			t.Errorf("%s: traced %v, %v; want the cost limit's error", src, tr.Value, err)
		}
	}
}
