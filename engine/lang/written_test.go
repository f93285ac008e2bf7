package lang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/engine/num"
)

// TestNativeWrittenWritesAsNative: NativeWritten's value has the
// canonical JSON of Native's, byte for byte, and holds each number the
// formula computed as the text it is written as (json.Number, or the
// string of a fraction with no decimal), never as int64 or num.Num: ints,
// nums with and without a finite decimal, doubles, in maps and lists
// built by the formula and beside JSON data.
func TestNativeWrittenWritesAsNative(t *testing.T) {
	e, err := NewEnv(Var{"tool", Object})
	if err != nil {
		t.Fatal(err)
	}
	tool := map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object", "maximum": 3.5}}
	for _, tc := range []struct {
		src  string
		want string // the canonical JSON of both
	}{
		{"7", `7`},
		{"-12", `-12`},
		{"1.0 / 3.0", `"1/3"`},
		{"num(1) / num(3)", `"1/3"`},
		{"num(1) / num(4)", `0.25`},
		{"{'n': 2, 'f': num(5) / num(2), 'l': [1, num(2) / num(3)], 'd': 1.5}", `{"d":1.5,"f":2.5,"l":[1,"2/3"],"n":2}`},
		{"{'tool': {'name': tool.name, 'inputSchema': tool.inputSchema}, 'count': size(tool.name)}", `{"count":1,"tool":{"inputSchema":{"maximum":3.5,"type":"object"},"name":"t"}}`},
	} {
		p, diags := e.Compile(tc.src, nil)
		if len(diags) > 0 {
			t.Fatalf("%s: %v", tc.src, diags)
		}
		v, err := p.Eval(map[string]any{"tool": tool})
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		n, err := Native(v)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NativeWritten(v)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := MarshalCanonical(n)
		if err != nil {
			t.Fatal(err)
		}
		wb, err := MarshalCanonical(w)
		if err != nil {
			t.Fatal(err)
		}
		if string(nb) != tc.want || !bytes.Equal(wb, nb) {
			t.Errorf("%s: Native writes %s, NativeWritten %s; want %s", tc.src, nb, wb, tc.want)
		}
		if k := computedNumber(w); k != "" {
			t.Errorf("%s: NativeWritten holds a %s", tc.src, k)
		}
	}
}

// computedNumber names the first int64 or num.Num in v, a value of
// NativeWritten, outside JSON data; "" when there is none.
func computedNumber(v any) string {
	switch x := v.(type) {
	case int64:
		return "int64"
	case num.Num:
		return "num.Num"
	case []any:
		for _, e := range x {
			if k := computedNumber(e); k != "" {
				return k
			}
		}
	case map[string]any:
		for _, e := range x {
			if k := computedNumber(e); k != "" {
				return k
			}
		}
	}
	return ""
}

// TestMarshalCanonicalJSONNumber: a json.Number is written as
// encoding/json writes it (valid ones as they are, "" as 0), and one it
// refuses is refused.
func TestMarshalCanonicalJSONNumber(t *testing.T) {
	for _, s := range []string{"0", "-1", "12.5", "1e5", "2.5E-3", "", "01", "1.", "NaN", "1/3"} {
		v := map[string]any{"n": json.Number(s), "l": []any{json.Number(s)}}
		got, err := MarshalCanonical(v)
		want, wantErr := encodedCanonical(v)
		if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
			t.Errorf("json.Number(%q): got %s (%v), want %s (%v)", s, got, err, want, wantErr)
		}
	}
}

// randomCEL draws a formula's value: maps and lists a formula built
// (string keys, and now and then another key), JSON data as formulas
// see it, numbers of every kind, strings with every escape, null, and
// now and then an error. At most one fault (an error, a key that is no
// string) is drawn while *faults is above 0: with two, which one Native
// meets first depends on a map's order.
func randomCEL(r *rand.Rand, depth int, faults *int) ref.Val {
	k := r.IntN(12)
	if depth == 0 {
		k %= 9
	}
	switch k {
	case 0:
		return types.NullValue
	case 1:
		return types.Bool(r.IntN(2) == 0)
	case 2:
		return types.String(randomText(r))
	case 3:
		return types.Int(r.Int64N(1<<40) - 1<<39)
	case 4:
		return Num{num.Frac(r.Int64N(2001)-1000, r.Int64N(999)+1)}
	case 5:
		return types.Double(float64(r.IntN(1000)) / 8)
	case 6:
		return types.Uint(r.Uint64N(1000))
	case 7:
		if r.IntN(20) == 0 && *faults > 0 {
			*faults--
			return types.NewErr("no such key: x")
		}
		return Adapter.NativeToValue(randomValue(r, 2))
	case 8:
		return Adapter.NativeToValue(map[string]any{randomText(r): randomValue(r, 2)})
	case 9:
		var l []ref.Val
		for range r.IntN(5) {
			l = append(l, randomCEL(r, depth-1, faults))
		}
		return types.NewRefValList(Adapter, l)
	default:
		m := map[ref.Val]ref.Val{}
		for range r.IntN(5) {
			var key ref.Val = types.String(randomText(r))
			if r.IntN(30) == 0 && *faults > 0 {
				*faults--
				key = types.Int(r.IntN(3))
			}
			m[key] = randomCEL(r, depth-1, faults)
		}
		return types.NewRefValMap(Adapter, m)
	}
}

// TestCanonicalJSONAsNativeMarshalled: CanonicalJSON, and canonical_json's
// text, are what MarshalCanonical writes of Native's value, byte for
// byte, and fail with Native's or MarshalCanonical's error when either
// fails, for random values a formula builds.
func TestCanonicalJSONAsNativeMarshalled(t *testing.T) {
	r := rand.New(rand.NewPCG(46, 5))
	for i := range 5000 {
		faults := 1
		v := randomCEL(r, 4, &faults)
		var want []byte
		n, wantErr := Native(v)
		if wantErr == nil {
			want, wantErr = MarshalCanonical(n)
		}
		got, err := CanonicalJSON(v)
		text, terr := canonicalText(v)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !bytes.Equal(got, want) {
			t.Fatalf("value %d %v:\n got %s (%v)\nwant %s (%v)", i, v, got, err, want, wantErr)
		}
		if fmt.Sprint(terr) != fmt.Sprint(wantErr) || text != string(want) {
			t.Fatalf("value %d %v: canonicalText %s (%v), want %s (%v)", i, v, text, terr, want, wantErr)
		}
	}
}

// TestCanonicalJSONCopiesNoBuiltMap: a map a formula built is written
// from itself: CanonicalJSON of one holding JSON data allocates less than
// Native and MarshalCanonical together, which copy it into a Go map.
func TestCanonicalJSONCopiesNoBuiltMap(t *testing.T) {
	m := map[ref.Val]ref.Val{}
	for _, k := range []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations"} {
		m[types.String(k)] = Adapter.NativeToValue(map[string]any{"type": "object", "k": k})
	}
	v := types.NewRefValMap(Adapter, m)
	if !allocsCounted() {
		t.Skip("allocations are counted without -race (allocsCounted)")
	}
	direct := testing.AllocsPerRun(50, func() { _, _ = CanonicalJSON(v) })
	viaNative := testing.AllocsPerRun(50, func() {
		n, _ := Native(v)
		_, _ = MarshalCanonical(n)
	})
	if direct >= viaNative {
		t.Errorf("CanonicalJSON allocates %v times, as Native and MarshalCanonical do (%v)", direct, viaNative)
	}
}

// TestCanonicalJSONBoxesNoLeaf: the strings, ints, booleans and nulls
// of a value a formula built (a report field, a definition signal) are
// written as they are: CanonicalJSON of a map and a list of them
// allocates its text alone, where each string and large int was first
// boxed into an interface.
func TestCanonicalJSONBoxesNoLeaf(t *testing.T) {
	leaves := []ref.Val{types.String("a justification"), types.Int(123456), types.True, types.NullValue, types.String("summary")}
	m := map[ref.Val]ref.Val{types.String("list"): types.NewRefValList(Adapter, leaves)}
	for i, l := range leaves {
		m[types.String(fmt.Sprint("k", i))] = l
	}
	v := types.NewRefValMap(Adapter, m)
	if !allocsCounted() {
		t.Skip("allocations are counted without -race (allocsCounted)")
	}
	if n := testing.AllocsPerRun(50, func() { _, _ = CanonicalJSON(v) }); n != 1 {
		t.Errorf("CanonicalJSON allocates %v times, want 1 (its text)", n)
	}
}
