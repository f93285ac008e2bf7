package surface

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// leanDocs are documents for ParseLean to read as Parse does: every shape,
// tools the hand-written decoder leaves to encoding/json, a negative
// zero, an installed set, a surface large enough to be built in parallel,
// and documents Parse refuses.
func leanDocs(t *testing.T) map[string]string {
	tool := func(i int) string {
		return fmt.Sprintf(`{"name":"t%d","description":"a \"quoted\" ]} [{ text","inputSchema":{"type":"object","properties":{"p":{"enum":[1,2.5,-3e2,true,null,"2024-01-05"]}}}}`, i)
	}
	many := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = tool(i)
		}
		return strings.Join(parts, " ,\n ")
	}
	set := Union("clients.json", []Member{
		{Name: "web", Surface: mustParse(t, `{"tools":[`+many(2)+`]}`)},
		{Name: "db", Surface: mustParse(t, `{"tools":[`+many(3)+`]}`)},
	})
	docs := map[string]string{
		"tools/list":               `{"tools":[` + many(3) + `],"nextCursor":null}`,
		"one page":                 `{"tools":[` + many(3) + `],"nextCursor":"p2"}`,
		"one large page":           `{"tools":[` + many(3*parallelMin) + `],"nextCursor":"p2"}`,
		"one page, enveloped":      `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + many(3) + `],"nextCursor":"p2"}}`,
		"array":                    "[" + many(3) + "]",
		"envelope":                 `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + many(3) + `]}}`,
		"capture":                  `{"server":{"name":"s","tools":"not these"},"tools":[` + many(3) + `]}`,
		"registry":                 `{"release":"2026-01","server":{"name":"s"},"tools":[{"name":"echo","definition":` + tool(0) + `,"qualityScore":{"tdqs":3.5}}]}`,
		"registry without release": `{"tools":[{"name":"echo","definition":{"description":"Echo back"}}]}`,
		"empty":                    `{"tools":[]}`,
		"large":                    `{"tools":[` + many(3*parallelMin) + `]}`,
		"surrogate":                `{"tools":[{"name":"smile","description":"\ud83d\ude00 \u00e9"},` + many(2) + `]}`,
		"invalid UTF-8":            "{\"tools\":[{\"name\":\"x\",\"description\":\"caf\xe9\"}]}",
		"negative zero":            `{"tools":[{"name":"z","inputSchema":{"minimum":-0.0,"maximum":-0}},{"name":"y","default":-0.5}]}`,
		"duplicate members":        `{"tools":[` + many(2) + `],"tools":[]}`,
		"tools and result":         `{"tools":[` + many(2) + `],"result":{"tools":[]}}`,
		"set":                      string(set.Marshal()),
		"broken tool":              `{"tools":[` + many(300) + `,{"name":}]}`,
		"broken outside":           `{"tools":[` + many(2) + `],"x":}`,
		"number too large":         `{"tools":[` + many(300) + `,{"name":"a","inputSchema":{"maximum":1e400}}]}`,
		"truncated":                `{"tools":[` + many(2),
		"no name":                  `{"tools":[` + many(300) + `,{"description":"x"}]}`,
		"duplicate name":           `[{"name":"a"},{"name":"b"},{"name":"a"}]`,
		"registry name mismatch":   `{"release":"r","tools":[{"name":"a","definition":{"name":"b"}}]}`,
		"deep":                     `{"tools":[{"name":"d","x":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}]}`,
	}
	for _, f := range captures() {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = string(b)
		// Written back, every tool is canonical already.
		docs[f+" written"] = string(mustParse(t, string(b)).Marshal())
	}
	return docs
}

func mustParse(t *testing.T, doc string) *Surface {
	t.Helper()
	s, err := Parse("in.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestParseLeanAgreesWithParse: a lean parse gives the surface Parse
// gives (format, source, server, warnings, each tool's name, canonical
// JSON and hash) or the same error, keeps no tree but for a definition
// holding -0, and Definition and DefinitionInPlace decode to the tree Parse kept.
func TestParseLeanAgreesWithParse(t *testing.T) {
	for name, doc := range leanDocs(t) {
		t.Run(name, func(t *testing.T) {
			want, werr := Parse("in.json", []byte(doc))
			got, gerr := ParseLean("in.json", []byte(doc))
			if fmt.Sprint(werr) != fmt.Sprint(gerr) {
				t.Fatalf("error %v, Parse's %v", gerr, werr)
			}
			if werr != nil {
				return
			}
			if got.Format != want.Format || got.Source != want.Source || !reflect.DeepEqual(got.Server, want.Server) || !reflect.DeepEqual(got.Warnings, want.Warnings) {
				t.Fatalf("lean %q %q %v %v, Parse %q %q %v %v", got.Format, got.Source, got.Server, got.Warnings, want.Format, want.Source, want.Server, want.Warnings)
			}
			if len(got.Tools) != len(want.Tools) || got.Hash() != want.Hash() {
				t.Fatalf("%d tools hashed %s, Parse %d hashed %s", len(got.Tools), got.Hash(), len(want.Tools), want.Hash())
			}
			for i, w := range want.Tools {
				g := got.Tools[i]
				if g.Name != w.Name || string(g.Canonical) != string(w.Canonical) || g.Hash != w.Hash {
					t.Fatalf("tool %d: %q %s, Parse %q %s", i, g.Name, g.Hash, w.Name, w.Hash)
				}
				if g.Def != nil && !negativeZero(w.Def) {
					t.Errorf("tool %q kept its tree", g.Name)
				}
				if d := g.Definition(); !reflect.DeepEqual(d, w.Def) {
					t.Errorf("tool %q: Definition %v, Parse %v", g.Name, d, w.Def)
				}
				if d := g.DefinitionInPlace(); !reflect.DeepEqual(d, w.Def) {
					t.Errorf("tool %q: DefinitionInPlace %v, Parse %v", g.Name, d, w.Def)
				}
			}
			if d := got.Decoded(); !reflect.DeepEqual(d.Tools, want.Tools) {
				t.Errorf("Decoded differs from Parse's tools")
			}
		})
	}
}

// TestNegativeZeroKeepsItsTree: canonical JSON writes -0 as 0, so the
// tool that holds one keeps its tree, and its sign.
func TestNegativeZeroKeepsItsTree(t *testing.T) {
	s, err := ParseLean("in.json", []byte(`{"tools":[{"name":"z","minimum":-0},{"name":"w","minimum":0,"d":"-0"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Tools[0].Def == nil || s.Tools[1].Def != nil {
		t.Fatalf("trees kept: %v, %v; want the first only", s.Tools[0].Def, s.Tools[1].Def)
	}
	if !negativeZero(s.Tools[0].Definition()) {
		t.Errorf("the sign of -0 is lost: %v", s.Tools[0].Definition())
	}
}

// TestDefinitionInPlaceSharesCanonical: the strings of a definition read
// in place are the canonical form's own bytes, but for one with escapes,
// which is decoded into a string of its own; Definition copies them all.
func TestDefinitionInPlaceSharesCanonical(t *testing.T) {
	s, err := ParseLean("in.json", []byte(`[{"name":"a","description":"a description longer than the names shared","title":"say \"hi\""}]`))
	if err != nil {
		t.Fatal(err)
	}
	tool := s.Tools[0]
	inCanonical := func(v any) bool {
		str := v.(string)
		p := uintptr(unsafe.Pointer(unsafe.StringData(str)))
		base := uintptr(unsafe.Pointer(unsafe.SliceData(tool.Canonical)))
		return p >= base && p < base+uintptr(len(tool.Canonical))
	}
	for _, tc := range []struct {
		member  string
		inPlace bool
		want    bool
	}{
		{"description", true, true},
		{"name", true, true},
		{"title", true, false},
		{"description", false, false},
	} {
		def := tool.Definition()
		if tc.inPlace {
			def = tool.DefinitionInPlace()
		}
		if got := inCanonical(def[tc.member]); got != tc.want {
			t.Errorf("%s (in place %v): shares the canonical form %v, want %v", tc.member, tc.inPlace, got, tc.want)
		}
	}
}

// TestLeanKeepsCanonicalToolsInPlace: a lean parse keeps a tool already
// in canonical form as the piece of the document it is, capped so that
// nothing appended to it reaches the text after it; a tool it had to
// write canonically is a copy.
func TestLeanKeepsCanonicalToolsInPlace(t *testing.T) {
	doc := []byte(`{"tools":[{"name":"a"}, {"name": "b"}]}`)
	s, err := ParseLean("in.json", doc)
	if err != nil {
		t.Fatal(err)
	}
	inDoc := func(b []byte) bool {
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		base := uintptr(unsafe.Pointer(unsafe.SliceData(doc)))
		return p >= base && p < base+uintptr(len(doc))
	}
	for _, tc := range []struct {
		tool int
		want bool
	}{{0, true}, {1, false}} {
		c := s.Tools[tc.tool].Canonical
		if got := inDoc(c); got != tc.want {
			t.Errorf("tool %d (%s): in the document %v, want %v", tc.tool, c, got, tc.want)
		}
		if cap(c) != len(c) {
			t.Errorf("tool %d: capacity %d past its %d bytes", tc.tool, cap(c), len(c))
		}
	}
}
