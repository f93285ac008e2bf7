package jsonscan

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestMember: the member Member finds decodes to what decoding the whole
// object gives under that name, and an object it reads it reads exactly
// when Decode does.
func TestMember(t *testing.T) {
	deep := `{"d":` + strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1) + `}`
	deeper := `{"d":` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + `}`
	for _, tc := range []struct {
		doc, key  string
		val       string // the value as written, when found
		found, ok bool
	}{
		{`{}`, "name", "", false, true},
		{` { } `, "name", "", false, true},
		{`{"name":"a"}`, "name", `"a"`, true, true},
		{`{"annotations":{"name":"inner"},"description":"x\n\"name\":","name":"t","z":[1,{"name":2}]}`, "name", `"t"`, true, true},
		{"{ \"a\" : [ 1 , true , null , false , -2.5e3 ] ,\n\"name\" : { \"b\" : [ ] } }", "name", `{ "b" : [ ] }`, true, true},
		{`{"n\u0061me":1}`, "name", `1`, true, true},
		{`{"name":1,"name":2}`, "name", `2`, true, true},
		{`{"nam":1,"names":2}`, "name", "", false, true},
		{`{"a\"b":3}`, `a"b`, `3`, true, true},
		{`{"é":"😀"}`, "é", `"😀"`, true, true},
		{deep, "d", deep[5 : len(deep)-1], true, true},
		{deeper, "d", "", false, false},
		{`[]`, "name", "", false, false},
		{`"name"`, "name", "", false, false},
		{`{"name":"a"} x`, "name", "", false, false},
		{`{"name":"a",}`, "name", "", false, false},
		{`{"name":01}`, "name", "", false, false},
		{`{"a":tru,"name":1}`, "name", "", false, false},
		{`{"a":"\ud83d\ude00","name":1}`, "name", "", false, false},
		{"{\"a\":\"\xff\",\"name\":1}", "name", "", false, false},
		{"{\"a\":\"\x01\",\"name\":1}", "name", "", false, false},
		{`{"a":[1,2}`, "name", "", false, false},
		{`{"a":{"b"},"name":1}`, "name", "", false, false},
		{`{"name":1`, "name", "", false, false},
		{`{name:1}`, "name", "", false, false},
	} {
		val, found, ok := Member([]byte(tc.doc), tc.key)
		if string(val) != tc.val || found != tc.found || ok != tc.ok {
			t.Errorf("Member(%.60q, %q) = %q, %v, %v; want %q, %v, %v", tc.doc, tc.key, val, found, ok, tc.val, tc.found, tc.ok)
		}
		agree(t, []byte(tc.doc), tc.key)
	}
}

// agree checks Member against Decode and encoding/json on doc.
func agree(t *testing.T, doc []byte, key string) {
	t.Helper()
	val, found, ok := Member(doc, key)
	// Members finds each of several names as Member finds it alone.
	keys := []string{"a", "name"}
	if key != "a" && key != "name" {
		keys = append(keys, key)
	}
	vals := make([][]byte, len(keys))
	if Members(doc, keys, vals) != ok {
		t.Fatalf("Members(%.60q) and Member disagree on ok", doc)
	}
	for i, k := range keys {
		v, _, _ := Member(doc, k)
		if !bytes.Equal(v, vals[i]) {
			t.Fatalf("Members(%.60q) finds %q as %q, Member as %q", doc, k, vals[i], v)
		}
	}
	whole, decoded := Decode(doc)
	obj, isObj := whole.(map[string]any)
	if ok != (decoded && isObj) {
		t.Fatalf("Member(%.60q, %q): ok %v, but Decode gives %T, %v", doc, key, ok, whole, decoded)
	}
	if !ok {
		return
	}
	want, has := obj[key]
	if found != has {
		t.Fatalf("Member(%.60q, %q): found %v, want %v", doc, key, found, has)
	}
	if !found {
		return
	}
	got, vok := Decode(val)
	if !vok || !reflect.DeepEqual(got, want) {
		t.Fatalf("Member(%.60q, %q) = %q, decoding to %#v; the whole object has %#v", doc, key, val, got, want)
	}
	var std map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&std); err != nil || !reflect.DeepEqual(std[key], want) {
		t.Fatalf("encoding/json reads %.60q as %#v (%v), Member as %#v", doc, std[key], err, want)
	}
}

// FuzzMember: on any text, Member reads what Decode reads, and finds the
// value the decoded object has.
func FuzzMember(f *testing.F) {
	for _, s := range []string{`{}`, `{"name":"a","b":[1,{"c":null}]}`, `{"n\u0061me":1,"name":2}`, `{"a":"\n","name":true}`, `[1]`, `{"name":`} {
		f.Add([]byte(s), "name")
	}
	f.Fuzz(func(t *testing.T, doc []byte, key string) {
		agree(t, doc, key)
	})
}
