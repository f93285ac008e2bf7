package jsonscan

import (
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/race"
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
		if ok := decodesAsEncodingJSON(t, []byte(tc.doc)); ok != tc.ok {
			t.Errorf("Decode(%.40q): ok %v, want %v", tc.doc, ok, tc.ok)
		}
	}
}

// FuzzDecode: on any text, what Decode accepts encoding/json decodes
// (UseNumber) to the same value with nothing after it, and the value
// owes nothing to the caller's bytes, which may change after (Decode's
// strings are slices of its own copy of the text).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e3,"x\ny",null,true],"b":{}}`, `"\u00e9\ud83d\ude00"`, `[[],{"":""}]`, answer} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		decodesAsEncodingJSON(t, doc)
	})
}

// decodesAsEncodingJSON decodes doc with Decode and, when Decode takes
// it, fails t unless encoding/json decodes doc to the same value, before
// and after doc's bytes are overwritten.
func decodesAsEncodingJSON(t *testing.T, doc []byte) bool {
	t.Helper()
	text := string(doc)
	v, ok := Decode(doc)
	if !ok {
		return false
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatalf("Decode(%q) accepted what encoding/json refuses: %v", text, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("Decode(%q) accepted trailing data", text)
	}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("Decode(%q) = %#v, encoding/json gives %#v", text, v, want)
	}
	for i := range doc {
		doc[i] = ' '
	}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("Decode(%q)'s value changed with the bytes it was read from: %#v", text, v)
	}
	return true
}

// TestDecodeCopiesTheTextOnce: the keys, strings and numbers of a
// document are slices of one copy of its text, not copies of their own
// (nor boxed, for a key), and owe nothing to the caller's bytes, which
// may change after.
func TestDecodeCopiesTheTextOnce(t *testing.T) {
	doc := []byte(`{"alpha":true,"beta":null,"gamma":false,"delta":{}}`)
	if !race.Enabled {
		// The text, the map and its group of slots, and the empty map.
		if n := testing.AllocsPerRun(20, func() { Decode(doc) }); n != 4 {
			t.Errorf("%v allocations, want 4", n)
		}
	}
	doc = []byte(`{"k":"plain","n":-1.5e3,"e":"a\"b","l":["x\ny",""]}`)
	v, ok := Decode(doc)
	for i := range doc {
		doc[i] = ' '
	}
	want := map[string]any{"k": "plain", "n": json.Number("-1.5e3"), "e": `a"b`, "l": []any{"x\ny", ""}}
	if !ok || !reflect.DeepEqual(v, want) {
		t.Errorf("Decode = %#v, %v; want %#v", v, ok, want)
	}
}

// answer is an answer to TDQS's tool question as the heuristic judge
// writes it (engine/ask's BenchmarkReadAnswer reads the same): 21 keys,
// seven strings (two with escapes), six numbers.
const answer = `{"scores":{"purpose_clarity":{"score":4,"justification":"Heuristic: opens with the verb \"retrieve\" on a named resource (\"Retrieve a user\"), but nothing sets it apart from sibling tools."},"usage_guidelines":{"score":2,"justification":"Heuristic: no cue says when to use the tool, when not to, or what to use instead."},"behavioral_transparency":{"score":3,"justification":"Heuristic: annotations are present; 8 words disclosing errors (\"error\")."},"parameter_semantics":{"score":2,"justification":"Heuristic: schema coverage is only 0%; the description names user_id but does not say what values it takes."},"conciseness_structure":{"score":4,"justification":"Heuristic: 8 words: short and to the point, but thin."},"contextual_completeness":{"score":3,"justification":"Heuristic: has behavioural detail; lacks: a description of the 1 parameter the schema leaves undescribed."}},"annotation_contradiction":false,"summary":"Heuristic: word and pattern cues, not a model, scored API-get-user_0: purpose 4, usage 2, behaviour 3, parameters 2, conciseness 4, completeness 3; weakest is usage."}`

// BenchmarkDecode decodes a judge's answer, as the asker does for every
// answer.
//
//	go test ./internal/jsonscan -run '^$' -bench Decode -benchmem
func BenchmarkDecode(b *testing.B) {
	doc := []byte(answer)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Decode(doc); !ok {
			b.Fatal("not decoded")
		}
	}
}
