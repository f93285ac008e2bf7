package lang

import (
	"bytes"
	"encoding/json"
	"testing"

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
