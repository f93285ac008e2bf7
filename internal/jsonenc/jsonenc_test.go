package jsonenc

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// encoded is what encoding/json writes for v with HTML escaping off,
// compact or indented by two spaces, without the final newline.
func encoded(v any, indent bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

var texts = []string{"", "x", "a \"q\" \\ b", "<&>", "\n\t\x01", "caf\u00e9 \u2028 \u2029 😀", "bad \xff"}

var numbers = []json.Number{"0", "-1.5e3", "12", "01", "", "1.", "abc"}

// value draws a value of the kinds Append writes, nested up to depth,
// now and then one it leaves to encoding/json.
func value(r *rand.Rand, depth int) any {
	k := r.IntN(11)
	if depth == 0 {
		k %= 7
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return texts[r.IntN(len(texts))]
	case 3:
		return numbers[r.IntN(len(numbers))]
	case 4:
		return []int64{0, -7, math.MaxInt64, math.MinInt64}[r.IntN(4)]
	case 5:
		return r.IntN(2000) - 1000
	case 6:
		if r.IntN(20) == 0 {
			return 2.5 // a float: left to encoding/json
		}
		return "plain"
	case 7, 8:
		if r.IntN(8) == 0 {
			return []any(nil)
		}
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = value(r, depth-1)
		}
		return l
	default:
		if r.IntN(8) == 0 {
			return map[string]any(nil)
		}
		m := map[string]any{}
		for range r.IntN(4) {
			m[texts[r.IntN(len(texts))]] = value(r, depth-1)
		}
		return m
	}
}

// TestAppendAsEncodingJSON: compact and indented, at the top and deeper
// (each line after the first starting two spaces a level further in), a
// value is written as encoding/json writes it, or left to encoding/json
// when it holds what Append does not write (a float, a JSON number that
// is not valid).
func TestAppendAsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	written, left := 0, 0
	for i := range 20000 {
		v := value(r, 4)
		for _, indent := range []bool{false, true} {
			got, ok := Append([]byte("prefix"), v, indent, 0)
			want, err := encoded(v, indent)
			if !ok {
				left++
				continue
			}
			written++
			if err != nil || string(got) != "prefix"+string(want) {
				t.Fatalf("value %d (%#v), indent %v:\n got %s\nwant prefix%s (%v)", i, v, indent, got, want, err)
			}
			if indent {
				deeper, _ := Append(nil, v, true, 2)
				if want := bytes.ReplaceAll(want, []byte("\n"), []byte("\n    ")); !bytes.Equal(deeper, want) {
					t.Fatalf("value %d at depth 2:\n got %s\nwant %s", i, deeper, want)
				}
			}
		}
	}
	if written < 10000 || left < 100 {
		t.Fatalf("%d values written and %d left to encoding/json: the generator should make both", written, left)
	}
}

// TestAppendFloatAsEncodingJSON: finite floats are written as
// encoding/json writes them, on both sides of its exponent cutoffs, -0
// and the extremes (engine/lang's TestFloatsAsEncodingJSON adds random
// bit patterns, through the canonical JSON that calls this).
func TestAppendFloatAsEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-6, 9.999999e-7, 1e-7, -2.5e-10, 1e20, 1e21, -1e21, 123456789e13, 5e-324, math.MaxFloat64, 0.1, 1.0 / 3} {
		want, _ := json.Marshal(f)
		if got := AppendFloat(nil, f); string(got) != string(want) {
			t.Errorf("AppendFloat(%v) = %s, want %s", f, got, want)
		}
	}
}
