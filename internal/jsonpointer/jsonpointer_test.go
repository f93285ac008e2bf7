package jsonpointer

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestEscapeUnescape(t *testing.T) {
	for _, tc := range []struct{ raw, escaped string }{
		{"", ""},
		{"plain", "plain"},
		{"a/b", "a~1b"},
		{"m~n", "m~0n"},
		{"~1", "~01"},
		{"/~", "~1~0"},
		{"~/~/", "~0~1~0~1"},
	} {
		if got := Escape(tc.raw); got != tc.escaped {
			t.Errorf("Escape(%q) = %q, want %q", tc.raw, got, tc.escaped)
		}
		if got := Unescape(tc.escaped); got != tc.raw {
			t.Errorf("Unescape(%q) = %q, want %q", tc.escaped, got, tc.raw)
		}
	}
}

func TestResolve(t *testing.T) {
	// The example document of RFC 6901, section 5.
	var doc any
	if err := json.Unmarshal([]byte(`{
		"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3,
		"g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8
	}`), &doc); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ptr  string
		want any
		ok   bool
	}{
		{"", doc, true},
		{"/foo", []any{"bar", "baz"}, true},
		{"/foo/0", "bar", true},
		{"/foo/1", "baz", true},
		{"/", 0.0, true},
		{"/a~1b", 1.0, true},
		{"/c%d", 2.0, true},
		{"/e^f", 3.0, true},
		{"/g|h", 4.0, true},
		{"/i\\j", 5.0, true},
		{"/k\"l", 6.0, true},
		{"/ ", 7.0, true},
		{"/m~0n", 8.0, true},
		// Leading nowhere, or not a pointer at all.
		{"foo", nil, false},
		{"/foo/2", nil, false},
		{"/foo/-1", nil, false},
		{"/foo/01", nil, false},
		{"/foo/+1", nil, false},
		{"/foo/x", nil, false},
		{"/foo/0/deeper", nil, false},
		{"/a/b", nil, false},
		{"/missing", nil, false},
	} {
		got, ok := Resolve(doc, tc.ptr)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Resolve(%q) = %v, %v; want %v, %v", tc.ptr, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzEscape: every token comes back from its escaped form, and the
// escaped form holds no "/", so that a pointer splits where it should.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "a/b", "m~n", "~1", "~01", "/~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, token string) {
		e := Escape(token)
		if got := Unescape(e); got != token {
			t.Fatalf("Unescape(Escape(%q)) = %q", token, got)
		}
		doc := map[string]any{token: true}
		if v, ok := Resolve(doc, "/"+e); !ok || v != true {
			t.Fatalf("Resolve of %q does not find the member %q", "/"+e, token)
		}
	})
}
