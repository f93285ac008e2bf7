package surface

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseShapes(t *testing.T) {
	tool := `{"name":"echo","description":"Echo back","inputSchema":{"type":"object"}}`
	tests := []struct {
		name, in, format string
	}{
		{"tools/list result", `{"tools":[` + tool + `]}`, FormatToolsList},
		{"JSON-RPC envelope", `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + tool + `]}}`, FormatToolsList},
		{"bare array", `[` + tool + `]`, FormatArray},
		{"capture", `{"server":{"name":"s","version":"1"},"tools":[` + tool + `]}`, FormatCapture},
		{"registry", `{"release":"2026-01","server":{"name":"s"},"tools":[{"name":"echo","definition":` + tool + `,"qualityScore":{"tdqs":3.5}}]}`, FormatRegistry},
		{"registry without release", `{"tools":[{"name":"echo","definition":{"description":"Echo back","inputSchema":{"type":"object"}}}]}`, FormatRegistry},
	}
	var hashes []string
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse("in.json", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if s.Format != tt.format {
				t.Errorf("format %q, want %q", s.Format, tt.format)
			}
			if len(s.Tools) != 1 || s.Tools[0].Name != "echo" {
				t.Fatalf("tools: %+v", s.Tools)
			}
			hashes = append(hashes, s.Tools[0].Hash)
		})
	}
	for _, h := range hashes {
		if h != hashes[0] {
			t.Errorf("the same definition hashed differently across shapes: %v", hashes)
		}
	}
}

// TestRegistryLeavesPublishedScoresOut: a registry capture's surface is
// its definitions; what the registry published beside each (qualityScore)
// is the capture's (package calibrate reads it), so it reaches neither a
// tool nor what WriteTo writes, and a surface written back reads as the
// same registry surface.
func TestRegistryLeavesPublishedScoresOut(t *testing.T) {
	s, err := Parse("r.json", []byte(`{"release":"r1","server":{"name":"s"},"tools":[{"name":"a","definition":{"name":"a"},"qualityScore":{"tdqs":3.5,"tier":"A"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Format != FormatRegistry || s.Server["release"] != "r1" {
		t.Errorf("format %s, server %+v", s.Format, s.Server)
	}
	if _, has := s.Tools[0].Def["qualityScore"]; has || string(s.Tools[0].Canonical) != `{"name":"a"}` {
		t.Errorf("tool: %s", s.Tools[0].Canonical)
	}
	doc := s.Marshal()
	if strings.Contains(string(doc), "qualityScore") || !strings.Contains(string(doc), `"tools":[{"name":"a","definition":{"name":"a"}}]`) {
		t.Errorf("written: %s", doc)
	}
	back, err := Parse("sent", doc)
	if err != nil {
		t.Fatal(err)
	}
	if back.Format != FormatRegistry || back.Hash() != s.Hash() || back.Source != "r.json" {
		t.Errorf("read back as %s from %s, hash %s (sent %s)", back.Format, back.Source, back.Hash(), s.Hash())
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "  ", "t.json: empty file"},
		{"syntax", "{\n  \"tools\": [\n    {\"name\": \"a\",}\n  ]\n}", "t.json:3:18: invalid JSON"},
		{"truncated", `{"tools":[`, "t.json:1:11: invalid JSON"},
		// It said "invalid character 'ï' looking for beginning of value".
		{"byte order mark", "\xef\xbb\xbf{\"tools\":[]}", "t.json:1:1: invalid JSON: the file begins with a UTF-8 byte order mark (bytes EF BB BF), which JSON does not allow: save it as UTF-8 without one"},
		{"scalar", `42`, "t.json: $: want an object or an array of tools, found a number"},
		{"no tools", `{"server":{}}`, `t.json: $: no "tools" member`},
		{"tools not array", `{"tools":{}}`, "t.json: $.tools: want an array of tools, found an object"},
		{"tool not object", `{"tools":[{"name":"a"},"b"]}`, "t.json: $.tools[1]: want a tool object, found a string"},
		{"null tool", `[null]`, "t.json: $[0]: want a tool object, found null"},
		{"no name", `[{"description":"x"}]`, `t.json: $[0]: tool has no "name"`},
		{"name not string", `[{"name":7}]`, "t.json: $[0].name: want a string, found a number"},
		{"empty name", `[{"name":""}]`, "t.json: $[0].name: tool name is empty"},
		{"duplicate", `[{"name":"a"},{"name":"b"},{"name":"a"}]`, `t.json: $[2].name: duplicate tool name "a" (first at $[0])`},
		{"rpc error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"},"result":{}}`, "the server answered with an error"},
		{"result not object", `{"result":[1]}`, "t.json: $.result: want an object holding tools, found an array"},
		{"registry without definition", `{"release":"r","tools":[{"name":"a"}]}`, "t.json: $.tools[0].definition: want the tool's definition object, found null"},
		{"registry name mismatch", `{"release":"r","tools":[{"name":"a","definition":{"name":"b"}}]}`, `$.tools[0].name: entry name "a" differs from its definition's name b`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.json", []byte(tt.in))
			if err == nil {
				t.Fatalf("want an error containing %q", tt.want)
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Errorf("error is %T, want *surface.Error", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"b":1,"a":[true,null,"x"]}`, `{"a":[true,null,"x"],"b":1}`},
		{`{"n":1.0,"m":1E2,"k":-0.5,"big":1e21,"tiny":1e-7}`, `{"big":1e+21,"k":-0.5,"m":100,"n":1,"tiny":1e-7}`},
		{`{"s":"<a&b>\u00e9\n\t\u0001"}`, `{"s":"<a&b>é\n\t\u0001"}`},
		{` { "z" : { "y" : 2 , "x" : 1 } } `, `{"z":{"x":1,"y":2}}`},
	}
	for _, tt := range tests {
		s, err := Parse("c.json", []byte(`[{"name":"t","v":`+tt.in+`}]`))
		if err != nil {
			t.Fatal(err)
		}
		got := string(Canonical(s.Tools[0].Def["v"]))
		if got != tt.want {
			t.Errorf("Canonical(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestSurfaceHash(t *testing.T) {
	a, _ := Parse("a", []byte(`[{"name":"x","description":"one"},{"name":"y"}]`))
	b, _ := Parse("b", []byte("{\"server\":{\"name\":\"other\"},\"tools\":[\n{\"name\":\"y\"},\n{\"description\":\"one\",\"name\":\"x\"}]}"))
	c, _ := Parse("c", []byte(`[{"name":"x","description":"one!"},{"name":"y"}]`))
	if a.Hash() != b.Hash() {
		t.Error("order, layout and server info moved the surface hash")
	}
	if a.Hash() == c.Hash() {
		t.Error("a changed description did not move the surface hash")
	}
	if !strings.HasPrefix(a.Hash(), "sha256:") || len(a.Hash()) != len("sha256:")+64 {
		t.Errorf("hash %q", a.Hash())
	}
}

// captures are the real captures of the shared corpus,
// engine/score/testdata/corpus, and a registry capture.
func captures() []string {
	files, _ := filepath.Glob("../score/testdata/corpus/*.json")
	return append(files, "testdata/registry.json")
}

// TestMarshalRoundTrip checks that the embedded form of every corpus
// capture reads back to the same hashes.
func TestMarshalRoundTrip(t *testing.T) {
	files := captures()
	if len(files) < 2 {
		t.Fatal("no test captures")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(f, b)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse("embedded", s.Marshal())
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if back.Hash() != s.Hash() || back.Format != s.Format || back.Source != s.Source || len(back.Tools) != len(s.Tools) {
			t.Errorf("%s: round trip changed the surface (%s %s → %s %s)", f, s.Format, s.Hash(), back.Format, back.Hash())
		}
		for i := range s.Tools {
			if back.Tools[i].Hash != s.Tools[i].Hash {
				t.Errorf("%s: tool %s changed", f, s.Tools[i].Name)
			}
		}
	}
}

// TestParseToolsListNeverGuesses: a tool whose first keys look like a
// registry entry is a registry entry to Parse, but stays a tool, keyword
// for keyword, to ParseToolsList.
func TestParseToolsListNeverGuesses(t *testing.T) {
	doc := []byte(`{"tools":[{"name":"a","definition":{"name":"a","description":"d"}}]}`)
	guessed, err := Parse("x", doc)
	if err != nil {
		t.Fatal(err)
	}
	if guessed.Format != FormatRegistry {
		t.Fatalf("Parse read it as %s; the test no longer shows the difference", guessed.Format)
	}
	s, err := ParseToolsList("live", doc)
	if err != nil {
		t.Fatal(err)
	}
	if s.Format != FormatToolsList || s.Source != "live" || len(s.Tools) != 1 || s.Tools[0].Def["definition"] == nil {
		t.Errorf("ParseToolsList: format %s, source %s, tools %+v", s.Format, s.Source, s.Tools)
	}
}

// TestDeclaredFormatIsNotGuessed: a live surface written with WriteTo (as
// a transport plugin sends it, or a report embeds it) reads back as the
// same tools, even when the first looks like a registry entry.
func TestDeclaredFormatIsNotGuessed(t *testing.T) {
	live, err := ParseToolsList("live", []byte(`{"tools":[{"name":"a","definition":{"name":"a"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("sent", live.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if back.Format != FormatToolsList || back.Hash() != live.Hash() || back.Tools[0].Def["definition"] == nil {
		t.Errorf("read back as %s, hash %s (sent %s), tool %s", back.Format, back.Hash(), live.Hash(), back.Tools[0].Canonical)
	}
}

// TestParseOnePage: a tools/list result that names a next page is read,
// and the surface warns that it is one page, in each shape a result is
// written in; a null or empty cursor (the last page) warns of nothing,
// and a long cursor is cut in the warning.
func TestParseOnePage(t *testing.T) {
	tool := `{"name":"a","inputSchema":{"type":"object"}}`
	long := strings.Repeat("c", 100)
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"result", `{"tools":[` + tool + `],"nextCursor":"p2"}`, `$.nextCursor is "p2": the file holds one page of the server's tools/list, and the pages after it are not scored`},
		{"envelope", `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + tool + `],"nextCursor":"p2"}}`, `$.result.nextCursor is "p2": the file holds one page`},
		{"long cursor", `{"tools":[` + tool + `],"nextCursor":"` + long + `"}`, `$.nextCursor is "` + long[:64] + `…": the file`},
		{"last page", `{"tools":[` + tool + `],"nextCursor":null}`, ""},
		{"empty cursor", `{"tools":[` + tool + `],"nextCursor":""}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for parse, read := range map[string]func(string, []byte) (*Surface, error){"Parse": Parse, "ParseLean": ParseLean} {
				s, err := read("page.json", []byte(tc.doc))
				if err != nil {
					t.Fatalf("%s: %v", parse, err)
				}
				if len(s.Tools) != 1 {
					t.Fatalf("%s: %d tools, want the page's 1", parse, len(s.Tools))
				}
				got := strings.Join(s.Warnings, "\n")
				if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
					t.Errorf("%s: warnings %q, want %q", parse, got, tc.want)
				}
			}
		})
	}
}
