package surface

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// decodeCases are texts the decoder must read as encoding/json does, or
// leave to it. fast says the decoder must read it itself.
var decodeCases = []struct {
	text string
	fast bool
}{
	{`{}`, true},
	{`[]`, true},
	{` { "a" : [ 1 , 2.5 , -0 , 1E2 , 1e-7 , 0.1 ] , "b" : { } } `, true},
	{`{"a":true,"b":false,"c":null,"d":[null,[],{}]}`, true},
	{`{"a":1,"a":2}`, true}, // the last one counts
	{`{"type":"string","description":"Ünïcödé ✓ 🙂"}`, true},
	{`{"s":"tab\tnew\nquote\"back\\slash\/ctl\b\f\r"}`, true},
	{`{"s":"\u00e9\u4e2d\u0000\u001f\u2028"}`, true},
	{`{"s":"\u003cb\u003e \u0026"}`, true},
	{`{"` + strings.Repeat("k", 100) + `":"` + strings.Repeat("v", 100) + `"}`, true},
	{`1.7976931348623157e308`, true},
	{`-123456789012345678901234567890`, true},
	{`"x"`, true},
	// Left to encoding/json.
	{`{"s":"\ud83d\ude00"}`, false},  // a surrogate pair
	{`{"s":"\ud800"}`, false},        // a lone surrogate: replaced
	{"{\"s\":\"a\xffb\"}", false},    // invalid UTF-8: replaced
	{"{\"s\":\"a\xff\\nb\"}", false}, // the same beside an escape
	{`{"n":1e400}`, false},           // out of float64's range: an error
	{`{"n":01}`, false},              // syntax errors
	{`{"n":1.}`, false},
	{`{"n":.5}`, false},
	{`{"n":1e}`, false},
	{`{"n":-}`, false},
	{`{"n":+1}`, false},
	{`{"a":1,}`, false},
	{`[1,]`, false},
	{`{"a" 1}`, false},
	{`{a:1}`, false},
	{`{"a":tru}`, false},
	{`{"a":nul}`, false},
	{"{\"s\":\"a\nb\"}", false}, // a raw control character
	{`{"s":"\x"}`, false},
	{`{"s":"\u12"}`, false},
	{`{"s":"\u12g4"}`, false},
	{`{"a":1} x`, false},
	{`{"a":1`, false},
	{`"open`, false},
	{``, false},
	{strings.Repeat("[", decodeMax+1) + strings.Repeat("]", decodeMax+1), false},
}

// agree checks the decoder against encoding/json on text: whatever the
// decoder reads is what encoding/json reads, and it reads nothing
// encoding/json refuses.
func agree(t *testing.T, d *decoder, text []byte) bool {
	t.Helper()
	var want any
	werr := json.Unmarshal(text, &want)
	got, ok := d.decode(text)
	if !ok {
		return false
	}
	if werr != nil {
		t.Fatalf("%q: decoded %#v, but encoding/json refuses it: %v", text, got, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decoded %#v, encoding/json %#v", text, got, want)
	}
	return true
}

// TestDecoderAgreesWithEncodingJSON: the decoder reads each case as
// encoding/json does, or gives up on it, and it reads itself every
// case it must; one decoder reads them all one after the other.
func TestDecoderAgreesWithEncodingJSON(t *testing.T) {
	d := newDecoder()
	for _, c := range decodeCases {
		if ok := agree(t, d, []byte(c.text)); ok != c.fast {
			t.Errorf("%.60q: read by the decoder: %v, want %v", c.text, ok, c.fast)
		}
	}
}

// TestDecoderReadsTheCorpus: every tool of the corpus is read by the
// decoder itself, as encoding/json reads it, so that the fast path is
// the one a real surface takes.
func TestDecoderReadsTheCorpus(t *testing.T) {
	d := newDecoder()
	n := 0
	for _, name := range captures() {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sp, ok := splitTools(data)
		if !ok {
			t.Fatalf("%s: not split", name)
		}
		for _, e := range sp.elems {
			if !agree(t, d, e) {
				t.Errorf("%s: a tool left to encoding/json: %.80s", name, e)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d tools read", n)
	}
}

// FuzzDecoder: on any text, the decoder agrees with encoding/json or
// gives up.
func FuzzDecoder(f *testing.F) {
	for _, c := range decodeCases {
		f.Add([]byte(c.text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, newDecoder(), data)
	})
}

// TestLargeSurfaceCanonical: a surface large enough to be decoded in
// parallel, by the decoder, with its canonical forms in slabs, has the
// definitions, canonical forms and hashes of one decoded whole by
// encoding/json, and no tool's canonical form can be appended to over
// the next one's.
func TestLargeSurfaceCanonical(t *testing.T) {
	var tools []string
	for i := range 3 * parallelMin {
		n := i % 300
		if i%500 == 499 {
			n = slabSize / 3 // longer than the room a slab keeps, so it grows
		}
		tools = append(tools, fmt.Sprintf(`{"name":"t%d","description":"tool \"%d\"\n","inputSchema":{"type":"object","properties":{"a%d":{"type":"string","description":"%s"}},"required":["a%d"]},"x":[1.50,2e3,-0.0]}`, i, i, i, strings.Repeat("w", n), i))
	}
	data := []byte(`{"tools":[` + strings.Join(tools, ",") + `]}`)
	s, err := Parse("big.json", data)
	if err != nil {
		t.Fatal(err)
	}
	var whole struct{ Tools []map[string]any }
	if err := json.Unmarshal(data, &whole); err != nil {
		t.Fatal(err)
	}
	for i, tool := range s.Tools {
		if !reflect.DeepEqual(tool.Def, whole.Tools[i]) {
			t.Fatalf("tool %d: %v, encoding/json %v", i, tool.Def, whole.Tools[i])
		}
		want := Canonical(whole.Tools[i])
		if string(tool.Canonical) != string(want) || cap(tool.Canonical) != len(tool.Canonical) || tool.Hash != HashBytes(want) {
			t.Fatalf("tool %d: canonical %q (capacity %d), hash %s; want %q, %s", i, tool.Canonical, cap(tool.Canonical), tool.Hash, want, HashBytes(want))
		}
	}
}
