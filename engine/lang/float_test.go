package lang

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// TestFloatsAsEncodingJSON: a definition's binary floats are written as
// encoding/json writes them (on both sides of its exponent cutoffs,
// negative zero, the smallest and the largest, random bit patterns), and
// NaN and the infinities are refused with its error; a schema's map of
// floats is written with no allocation but its text's.
func TestFloatsAsEncodingJSON(t *testing.T) {
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-6, 9.999999e-7, 1e-7, 1.5e-7, -2.5e-10, 1e20, 1e21, 123456789e13, -1e21,
		1e-300, 5e-324, math.MaxFloat64, -math.MaxFloat64, 0.1, 1.0 / 3, 100, 20, 4294967296, 9007199254740993}
	r := rand.New(rand.NewPCG(22, 3))
	for range 20000 {
		if f := math.Float64frombits(r.Uint64()); !math.IsNaN(f) && !math.IsInf(f, 0) {
			fs = append(fs, f)
		}
	}
	for _, f := range fs {
		want, _ := json.Marshal(f)
		got, err := MarshalCanonical([]any{f})
		if err != nil || string(got) != "["+string(want)+"]" {
			t.Fatalf("%v (%#x): got %s (%v), want [%s]", f, math.Float64bits(f), got, err, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, want := json.Marshal(f)
		if _, err := MarshalCanonical(map[string]any{"x": f}); err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%v: error %v, want %v", f, err, want)
		}
	}
	if !allocsCounted() {
		return
	}
	limit := map[string]any{"type": "integer", "minimum": float64(1), "maximum": float64(100), "multipleOf": 0.5, "exclusiveMinimum": 1e-9}
	if n := testing.AllocsPerRun(20, func() { MarshalCanonical(limit) }); n != 1 {
		t.Errorf("a map of floats written with %v allocations, want 1", n)
	}
}
