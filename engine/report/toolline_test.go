package report

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestToolLinesAsEncodingJSON: a tool's line is the bytes encoding/json
// writes for it, and a tool encoding/json cannot write fails with its
// error. The tools are filled by reflection, every member of every
// struct a line holds, so a member added to Tool, Check or Issue that
// appendTool does not write fails here: each is set in some tools and
// left at its zero value (nil, empty, absent under omitempty) in others.
func TestToolLinesAsEncodingJSON(t *testing.T) {
	heavytest.Later(t)
	rng := rand.New(rand.NewPCG(24, 1))
	failures := 0
	for i := range 3000 {
		var tool Tool
		fill(rng, reflect.ValueOf(&tool).Elem(), 0)
		tool.Fields = nil // written after the line by appendMembers
		want, wantErr := encode(&tool, "")
		got, err := appendTool([]byte("prefix"), &tool)
		if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("tool %d: error %v, encoding/json's %v", i, err, wantErr)
		}
		if err != nil {
			failures++
			continue
		}
		if string(got) != "prefix"+string(want) {
			t.Fatalf("tool %d:\n got %s\nwant prefix%s", i, got, want)
		}
	}
	if failures == 0 || failures > 1500 {
		t.Fatalf("%d of 3000 tools failed to encode: the filler should make some, not most, fail", failures)
	}
}

// strs are the strings fill picks from: plain, empty, every escape
// encoding/json writes, a byte that is not UTF-8 and the two line
// separators it escapes.
var strs = []string{"", "x", "described_params", "a \"quoted\" \\ path", "<b>&amp;</b>", "tab\tnew\nline\r\x00\x1f",
	"caf\u00e9 \u2028 \u2029 \U0001F600", "bad \xff\xfe utf-8", "100"}

// anys are the values fill picks for a member of type any, one of which
// encoding/json cannot write.
var anys = []any{nil, 1, 2.5, "text", true, []any{1, "a"}, map[string]any{"b": 1, "a": []any{}},
	json.RawMessage(`{"a":[1,2]}`), json.RawMessage(` [ 1 , 2 ] `), math.Inf(1),
	int64(-7), json.Number("3/4"), json.Number("1.25"), json.Number(""), []any(nil), map[string]any(nil),
	map[string]any{"<&>": "\u2028 caf\u00e9", "z": map[string]any{"y": []any{int64(3), json.Number("0.5"), nil, false}}, "a": 2.5},
	map[string]any{"b": []any{"x", int64(1)}, "a": json.Number("12")}}

// numbers are the json.Numbers fill picks: empty, valid, and not a number.
var numbers = []json.Number{"", "0", "100.0", "-1.5e3", "87.5", "1.", "abc", "01"}

// fill sets v, recursively, to a value drawn from rng: each slice nil,
// empty or a few elements, each pointer nil or set, each member of a
// struct filled in turn.
func fill(rng *rand.Rand, v reflect.Value, depth int) {
	switch {
	case v.Type() == reflect.TypeFor[json.Number]():
		v.SetString(string(numbers[rng.IntN(len(numbers))]))
		return
	case v.Type() == reflect.TypeFor[json.RawMessage]():
		// Now and then one that is not JSON, which encoding/json refuses.
		if rng.IntN(50) == 0 {
			v.SetBytes([]byte(`{"score":`))
			return
		}
		raws := []string{"", "null", `{"score":3}`, `"text"`, `[1, 2]`, `{"a":"<&>\u2028"}`}
		if r := raws[rng.IntN(len(raws))]; r != "" {
			v.SetBytes([]byte(r))
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(strs[rng.IntN(len(strs))])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case reflect.Int, reflect.Int64:
		v.SetInt(rng.Int64N(2000) - 1000)
	case reflect.Float64:
		v.SetFloat(float64(rng.IntN(100)) / 4)
	case reflect.Interface:
		if a := anys[rng.IntN(len(anys))]; a != nil && rng.IntN(8) > 0 {
			v.Set(reflect.ValueOf(a))
		}
	case reflect.Pointer:
		if rng.IntN(2) == 1 && depth < 4 {
			v.Set(reflect.New(v.Type().Elem()))
			fill(rng, v.Elem(), depth+1)
		}
	case reflect.Slice:
		switch n := rng.IntN(4); {
		case n == 0 || depth >= 4:
		case n == 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := range n {
				fill(rng, v.Index(i), depth+1)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(rng, v.Field(i), depth+1)
			}
		}
	default:
		panic("fill: no values for " + v.Type().String() + ": add them")
	}
}

// BenchmarkToolLine sets appendTool beside encoding/json on a Schema
// Quality tool's line (seven checks, one issue), the bulk of a large
// report.
func BenchmarkToolLine(b *testing.B) {
	tool := Tool{Name: "get_css_styles_8", Hash: "sha256:5c72acd47901841c342ab7d164a455e3e3e7867463d426f7dc92b10c920a54db",
		Score: "85.0", Exact: "85", Grade: "B", Issues: []Issue{{Check: "typed_params", Message: "Property \"uid\" has no type", Params: []string{"uid"}, Points: "15", Gain: "15/4"}}}
	for _, c := range []string{"input_schema", "has_properties", "declares_required", "described_params", "typed_params", "array_items", "object_properties"} {
		tool.Checks = append(tool.Checks, Check{Name: c, Title: "Every property has a description", Points: "15", Credit: "3/4", Passed: 3, Total: 4, Items: true, Failed: []string{"uid"}})
	}
	var buf []byte
	b.Run("appendTool", func(b *testing.B) {
		for b.Loop() {
			buf, _ = appendTool(buf[:0], &tool)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			buf, _ = encode(&tool, "")
		}
	})
}
