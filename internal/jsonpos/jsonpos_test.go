package jsonpos

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestLookup(t *testing.T) {
	doc := "{\n  \"tools\": [\n    {\"name\": \"écho\",\n     \"inputSchema\": {\"properties\": {\"a/b\": {}, \"t~\": 1}}}\n  ],\n  \"n\": -1.5e3\n}\n"
	ix, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		pointer   string
		line, col int
		raw       string
	}{
		{"", 1, 1, ""},
		{"/tools", 2, 3, ""},
		{"/tools/0", 3, 5, ""},
		{"/tools/0/name", 3, 6, `"écho"`},
		{"/tools/0/inputSchema", 4, 6, ""},
		{"/tools/0/inputSchema/properties/a~1b", 4, 37, "{}"},
		{"/tools/0/inputSchema/properties/t~0", 4, 48, "1"},
		{"/n", 6, 3, "-1.5e3"},
	}
	for _, c := range cases {
		t.Run(c.pointer, func(t *testing.T) {
			s, ok := ix.Lookup(c.pointer)
			if !ok {
				t.Fatalf("no %q", c.pointer)
			}
			if s.At.Line != c.line || s.At.Column != c.col {
				t.Errorf("at line %d column %d, want %d:%d", s.At.Line, s.At.Column, c.line, c.col)
			}
			if raw, _ := ix.Raw(c.pointer); c.raw != "" && string(raw) != c.raw {
				t.Errorf("raw %s, want %s", raw, c.raw)
			}
		})
	}
	if name, ok := ix.String("/tools/0/name"); !ok || name != "écho" {
		t.Errorf("String = %q %v", name, ok)
	}
	if _, ok := ix.String("/n"); ok {
		t.Error("String of a number should say no")
	}
	if _, ok := ix.Lookup("/tools/1"); ok {
		t.Error("found a tool that is not there")
	}
}

func TestParseRefuses(t *testing.T) {
	for _, doc := range []string{"", "{", `{"a"}`, `{"a":1,}`, "[1,]", `"\x"`, "01", "-", "1.", "1e", "tru", `{"a":1} x`, "\"a\x01\"", `"\u12g4"`, "[1 2]"} {
		if _, err := Parse([]byte(doc)); err == nil {
			t.Errorf("Parse(%q) accepted invalid JSON", doc)
		}
	}
}

func TestDepth(t *testing.T) {
	deep := make([]byte, 0, 2*(MaxDepth+2))
	for range MaxDepth + 2 {
		deep = append(deep, '[')
	}
	for range MaxDepth + 2 {
		deep = append(deep, ']')
	}
	if _, err := Parse(deep); err == nil {
		t.Error("Parse accepted nesting beyond MaxDepth")
	}
}

// FuzzParse checks that Parse agrees with encoding/json on what is JSON,
// and that every span it records is a value encoding/json reads whose
// position names the byte where the span is named.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`, `[1,2.5e-3,true,null,"\u00e9\n"]`, "{\"a\":\n\"b\"}", `{"a":1,"a":{"b":[]}}`, "\xff\"", `"\ud800"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := Parse(data)
		if valid := json.Valid(data); valid != (err == nil) {
			if err != nil && len(data) > MaxDepth {
				return // deeper than MaxDepth
			}
			t.Fatalf("Parse error %v, json.Valid %v", err, valid)
		}
		if err != nil {
			return
		}
		for _, p := range ix.Pointers() {
			s, _ := ix.Lookup(p)
			raw, _ := ix.Raw(p)
			if !json.Valid(raw) {
				t.Fatalf("%q: span %q is not a JSON value", p, raw)
			}
			if s.At.Offset > s.Start || s.At.Offset < 0 {
				t.Fatalf("%q: named at %d after its value at %d", p, s.At.Offset, s.Start)
			}
			if c := data[s.At.Offset]; s.At.Offset != s.Start && c != '"' {
				t.Fatalf("%q: a member's name starts with %q", p, c)
			}
			line, col := 1, 1
			for i := 0; i < s.At.Offset; {
				if data[i] == '\n' {
					line, col = line+1, 1
					i++
					continue
				}
				_, n := utf8.DecodeRune(data[i:])
				i += n
				col++
			}
			if line != s.At.Line || col != s.At.Column {
				t.Fatalf("%q: at %d:%d, counted %d:%d", p, s.At.Line, s.At.Column, line, col)
			}
		}
	})
}
