package jsonscan

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeAgreesWithEncodingJSON: whatever Decode accepts, encoding/json
// decodes (UseNumber) to the same value with nothing after it; what it
// leaves includes everything encoding/json refuses or decides on its own.
// The callers' tests (ask, lang, rubric) run it over the corpus.
func TestDecodeAgreesWithEncodingJSON(t *testing.T) {
	for _, tc := range []struct {
		doc string
		ok  bool
	}{
		{`null`, true}, {`true`, true}, {`false`, true}, {`0`, true}, {`-0`, true}, {`1.50`, true}, {`1e5`, true},
		{`-2.5E-3`, true}, {`123456789012345678901234567890`, true}, {`""`, true}, {`[]`, true}, {`{}`, true},
		{" \t\r\n{ \"a\" : [ 1 , 2 ] }\n", true}, {`{"a":1,"a":2}`, true}, {`[[],{},[{}]]`, true},
		{`"\u00e9\n\"\\\/\b\f\r\t"`, true}, {`"é😀"`, true}, {`"\u0000"`, true},
		{`"\ud83d\ude00"`, false}, {`"\ud83d"`, false}, {"\"\xff\"", false}, {"\"a\\n\xff\"", false}, {"\"\x01\"", false},
		{`1 2`, false}, {`{} x`, false}, {`[1,]`, false}, {`{"a"}`, false}, {`{"a":}`, false}, {`-`, false},
		{`01`, false}, {`1.`, false}, {`.5`, false}, {`1e`, false}, {`+1`, false}, {`tru`, false}, {``, false},
		{`[`, false}, {`{"a":1`, false}, {`"open`, false}, {`"\x"`, false}, {`"\u12"`, false}, {`"\uZZZZ"`, false},
		{strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth), true},
		{strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), false},
	} {
		v, ok := Decode([]byte(tc.doc))
		if ok != tc.ok {
			t.Errorf("Decode(%.40q): ok %v, want %v", tc.doc, ok, tc.ok)
		}
		if !ok {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(tc.doc)))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("Decode(%q) accepted what encoding/json refuses: %v", tc.doc, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			t.Fatalf("Decode(%q) accepted trailing data", tc.doc)
		}
		if !reflect.DeepEqual(v, want) {
			t.Errorf("Decode(%q) = %#v, encoding/json gives %#v", tc.doc, v, want)
		}
	}
}
