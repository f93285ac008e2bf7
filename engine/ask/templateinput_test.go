package ask

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestTemplateInputIsTheDecodedJSON: what TemplateInput makes of a plain
// value is what the templates saw before, the value's canonical JSON
// decoded (decodeJSON), for every tool of the corpus read as formulas
// read it, and for numbers, text and shapes at the edges; values whose
// JSON might read back otherwise are refused, for the asker to decode.
func TestTemplateInputIsTheDecodedJSON(t *testing.T) {
	heavytest.Later(t)
	mustNum := func(s string) num.Num {
		n, err := num.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	values := []any{
		nil, true, false, "", "plain", "quotes \" and \\ and \n and \u2028 and <html> & \x00", "emoji 😀 and é",
		int64(0), int64(-7), int64(9007199254740993), int(42), int64(1023), int64(1024), int(1023), int(1024), int(-1),
		num.Int(3), num.Frac(1, 3), num.Frac(-2, 4), mustNum("0.1"), mustNum("-1.25e-7"), mustNum("12345678901234567890.5"),
		float64(100), float64(1.5), float64(0), float64(1023), float64(1024), float64(1022.5), float64(-1), math.Nextafter(3, 4), math.Copysign(0, -1), map[string]any{"z": math.Copysign(0, -1)}, float64(1e21), float64(1e-7), float64(123456789.125), float64(-3e-300),
		json.Number("7"), json.Number("-1.50e+3"), []any(nil), map[string]any(nil), map[string]any{"a": []any(nil), "b": map[string]any(nil)},
		[]any{}, map[string]any{}, []any{nil, []any{int64(1)}, map[string]any{"a": num.Frac(1, 8)}},
		map[string]any{"b": int64(1), "a": "x", "é": []any{"y"}, "": nil},
	}
	for _, f := range surfacetest.CorpusFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var capture struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(b, &capture); err != nil {
			t.Fatal(err)
		}
		// The definitions as a scan reads them (numbers binary floats),
		// which is what a question's input holds of a tool.
		s, err := surface.ParseLean(f, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range s.Tools {
			values = append(values, map[string]any{"tool": tl.Definition()})
		}
		for _, raw := range capture.Tools {
			v, err := lang.FromJSON(raw)
			if err != nil {
				t.Fatal(err)
			}
			values = append(values, map[string]any{"tool": v, "signals": map[string]any{"coverage": num.Frac(2, 3), "n": int64(4)}})
		}
	}
	for _, v := range values {
		b, err := lang.MarshalCanonical(v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := decodeJSON(b)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := TemplateInput(v)
		if !ok {
			t.Errorf("%.80s: refused", b)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.80s: %#v, want %#v", b, got, want)
		}
		// A question's input JSON is written from its template input
		// (score/stage): the same bytes.
		if again, err := lang.MarshalCanonical(got); err != nil || !bytes.Equal(again, b) {
			t.Errorf("%.80s: the template input writes %.80s (%v)", b, again, err)
		}
	}
	if len(values) < 100 {
		t.Fatalf("only %d values", len(values))
	}
	for _, v := range []any{
		"not UTF-8 \xff", map[string]any{"\xfe": int64(1)}, []any{"ok", "\xc3"},
		uint64(1), json.Number("07"), json.Number(""), struct{}{}, map[string]string{"a": "b"},
	} {
		if got, ok := TemplateInput(v); ok {
			t.Errorf("%#v: made %#v, want it left to be decoded", v, got)
		}
	}
}

// TestTemplateInputKeepsWhatNeedsNoChange: a value none of whose leaves
// needs a change (strings, booleans, nulls, in maps and lists) is used as
// it is, without an allocation: not even its strings and lists boxed into
// new interfaces.
func TestTemplateInputKeepsWhatNeedsNoChange(t *testing.T) {
	in := any(map[string]any{
		"name": "search", "description": "Finds things.", "readOnly": true, "none": nil,
		"required":   []any{"q", "limit"},
		"properties": map[string]any{"q": map[string]any{"type": "string", "enum": []any{"a", "b"}}},
		"number":     json.Number("2"),
	})
	out, allocs := templateInputAllocs(t, in)
	if allocs != 0 {
		t.Errorf("%v allocations, want 0", allocs)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("got %v, want %v", out, in)
	}
}

// TestTemplateInputWholeFloats: a whole binary float from 0 to 1023 (a
// definition's minimum, length or default, as a scan reads it) is the
// json.Number of its digits from the table, made without an allocation,
// where each was written through encoding/json and made a new string;
// the numbers are those TestTemplateInputIsTheDecodedJSON checks.
func TestTemplateInputWholeFloats(t *testing.T) {
	for _, f := range []float64{0, 1, 100, 1023} {
		out, allocs := templateInputAllocs(t, f)
		if allocs != 0 {
			t.Errorf("%v: %v allocations, want 0", f, allocs)
		}
		if want := json.Number(strconv.Itoa(int(f))); out != any(want) {
			t.Errorf("%v: got %#v, want %#v", f, out, want)
		}
	}
}

// templateInputAllocs is TemplateInput's value of in, and how many
// allocations it takes to make it; t fails when TemplateInput refuses in.
func templateInputAllocs(t *testing.T, in any) (out any, allocs float64) {
	t.Helper()
	allocs = testing.AllocsPerRun(20, func() {
		var ok bool
		if out, ok = TemplateInput(in); !ok {
			t.Fatal("refused")
		}
	})
	return out, allocs
}

// BenchmarkTemplateInput makes the template input of every corpus tool,
// as a scan reads it (numbers binary floats), in a map as a question's
// input holds it: the host's work per tool question beside the input's
// JSON.
//
//	go test ./engine/ask -run '^$' -bench TemplateInput -benchmem
func BenchmarkTemplateInput(b *testing.B) {
	var inputs []any
	for _, f := range surfacetest.CorpusFiles(b) {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		s, err := surface.ParseLean(f, data)
		if err != nil {
			b.Fatal(err)
		}
		for _, tl := range s.Tools {
			inputs = append(inputs, map[string]any{"tool": tl.Definition(), "signals": map[string]any{"n": json.Number("4")}})
		}
	}
	for b.Loop() {
		for _, in := range inputs {
			if _, ok := TemplateInput(in); !ok {
				b.Fatal("refused")
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(inputs)), "ns/tool")
}
