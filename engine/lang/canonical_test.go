package lang

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// encodedCanonical is how MarshalCanonical wrote values before it wrote
// them itself: jsonable's copy encoded by encoding/json. It is the
// reference appendCanonical must agree with byte for byte.
func encodedCanonical(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(jsonable(v)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// randomText draws strings with what JSON escapes: quotes, backslashes,
// control characters, HTML characters, DEL, U+2028 and U+2029, other
// runes, and bytes that are not UTF-8.
func randomText(r *rand.Rand) string {
	pieces := []string{"a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\b", "\f", "\x00", "\x1f", "\x7f", "<", ">", "&",
		"\u2028", "\u2029", "é", "日本", "😀", "\xff", "\xc3", "\xe2\x80", "/", "0"}
	var b []byte
	for range r.IntN(12) {
		b = append(b, pieces[r.IntN(len(pieces))]...)
	}
	return string(b)
}

// randomValue draws a value of the kinds formulas and decoders make,
// nested up to depth.
func randomValue(r *rand.Rand, depth int) any {
	k := r.IntN(11)
	if depth == 0 {
		k %= 8
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return randomText(r)
	case 3:
		return int64(r.Int64N(1<<40) - 1<<39)
	case 4:
		return r.IntN(1000) - 500
	case 5:
		return num.Frac(r.Int64N(2001)-1000, r.Int64N(999)+1)
	case 6:
		return num.Int(r.Int64N(1 << 50))
	case 7:
		return []float64{float64(r.IntN(100)) / 7, 1e-9, 1e22}
	case 8:
		var l []any
		for range r.IntN(5) {
			l = append(l, randomValue(r, depth-1))
		}
		return l
	default:
		var m map[string]any
		if r.IntN(6) == 0 {
			return m
		}
		m = map[string]any{}
		for range r.IntN(5) {
			m[randomText(r)] = randomValue(r, depth-1)
		}
		return m
	}
}

// TestMarshalCanonicalAsEncodingJSON: MarshalCanonical writes what
// encoding/json wrote of jsonable's copy, byte for byte, for random
// values with every escape, exact numbers (fractions included), nil and
// empty lists and maps, and values it hands on (float lists).
func TestMarshalCanonicalAsEncodingJSON(t *testing.T) {
	heavytest.Later(t)
	r := rand.New(rand.NewPCG(22, 2))
	for i := range 20000 {
		v := randomValue(r, 4)
		got, err := MarshalCanonical(v)
		want, wantErr := encodedCanonical(v)
		if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("value %d %#v:\n got %s (%v)\nwant %s (%v)", i, v, got, err, want, wantErr)
		}
	}
}

// TestValidNumber: the numbers encoding/json accepts as json.Number.
func TestValidNumber(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"0", true}, {"-0", true}, {"12", true}, {"1.5", true}, {"-0.25", true}, {"1e5", true}, {"1E-5", true}, {"2.5e+3", true},
		{"", false}, {"-", false}, {"01", false}, {".5", false}, {"1.", false}, {"+1", false}, {"1e", false}, {"1/2", false}, {"NaN", false}, {"1 ", false},
	} {
		if got := jsonscan.ValidNumber(tc.s); got != tc.want {
			t.Errorf("jsonscan.ValidNumber(%q) = %v, want %v", tc.s, got, tc.want)
		}
		_, err := json.Marshal(json.Number(tc.s))
		if tc.s != "" && (err == nil) != tc.want {
			t.Errorf("encoding/json takes %q: %v, validNumber says %v", tc.s, err == nil, tc.want)
		}
	}
}

// BenchmarkMarshalCanonical writes every corpus tool as canonical JSON,
// decoded as a surface decodes it: the definition signal, a question's
// input and report fields are written this way for every tool.
//
//	go test ./engine/lang -run '^$' -bench MarshalCanonical -benchmem
func BenchmarkMarshalCanonical(b *testing.B) {
	var tools []any
	for _, f := range surfacetest.CorpusFiles(b) {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		v, err := FromJSON(data)
		if err != nil {
			b.Fatal(err)
		}
		tools = append(tools, v.(map[string]any)["tools"].([]any)...)
	}
	for b.Loop() {
		for _, t := range tools {
			if _, err := MarshalCanonical(t); err != nil {
				b.Fatal(err)
			}
		}
	}
}
