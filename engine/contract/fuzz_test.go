package contract

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
)

// gen builds JSON values from the fuzzer's bytes: each choice reads one
// byte, and an exhausted input chooses 0.
type gen struct{ b []byte }

func (g *gen) pick(n int) int {
	if len(g.b) == 0 {
		return 0
	}
	c := int(g.b[0]) % n
	g.b = g.b[1:]
	return c
}

var (
	names  = []string{"search_notes", "find_notes", "delete_note", "get_note", "notes_read", "a/b~c", ""}
	params = []string{"q", "limit", "mode", "id", "tag", "a/b", "~"}
	types  = []any{"string", "integer", "number", "object", "array", "boolean", "null", []any{"string", "null"}, []any{"integer", "number"}, 7}
	values = []any{"fast", "full", "archive", 1.0, 2.5, true, nil, []any{}, map[string]any{}}
	texts  = []string{"", "Search notes.", "Delete a note for good.", "Read one note by its id.", "Writes and sends notes."}
	hintKs = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint", "title"}
)

// schema makes a schema of at most the given depth.
func (g *gen) schema(depth int) any {
	switch g.pick(12) {
	case 0:
		return true
	case 1:
		return false
	case 2:
		return "not a schema"
	}
	m := map[string]any{}
	if g.pick(3) > 0 {
		m["type"] = types[g.pick(len(types))]
	}
	if g.pick(3) == 0 {
		var e []any
		for range g.pick(4) {
			e = append(e, values[g.pick(len(values))])
		}
		m["enum"] = e
	}
	if g.pick(6) == 0 {
		m["const"] = values[g.pick(len(values))]
	}
	for _, k := range []string{"minimum", "maxLength", "exclusiveMinimum"} {
		if g.pick(5) == 0 {
			m[k] = []any{0.0, 1.0, 100.0, "x", true}[g.pick(5)]
		}
	}
	if g.pick(5) == 0 {
		m["pattern"] = []string{"^a", "^b"}[g.pick(2)]
	}
	if g.pick(4) == 0 {
		m["description"] = texts[g.pick(len(texts))]
	}
	if g.pick(6) == 0 {
		m["default"] = values[g.pick(len(values))]
	}
	if g.pick(8) == 0 {
		m["$ref"] = []string{"#/$defs/a", "#/$defs/b"}[g.pick(2)]
	}
	if depth > 0 {
		if g.pick(2) == 0 {
			props := map[string]any{}
			for range g.pick(4) {
				props[params[g.pick(len(params))]] = g.schema(depth - 1)
			}
			m["properties"] = props
			var req []any
			for range g.pick(3) {
				req = append(req, params[g.pick(len(params))])
			}
			m["required"] = req
		}
		if g.pick(4) == 0 {
			m["additionalProperties"] = g.schema(depth - 1)
		}
		if g.pick(5) == 0 {
			m["items"] = g.schema(depth - 1)
		}
		for _, k := range []string{"anyOf", "allOf", "$defs"} {
			if g.pick(8) == 0 {
				if k == "$defs" {
					m[k] = map[string]any{"a": g.schema(depth - 1)}
				} else {
					m[k] = []any{g.schema(depth - 1), g.schema(depth - 1)}
				}
			}
		}
	}
	return m
}

func (g *gen) tool(name string) map[string]any {
	t := map[string]any{"name": name, "inputSchema": g.schema(3)}
	if d := texts[g.pick(len(texts))]; d != "" {
		t["description"] = d
	}
	if g.pick(2) == 0 {
		t["outputSchema"] = g.schema(2)
	}
	if g.pick(2) == 0 {
		a := map[string]any{}
		for range g.pick(4) {
			a[hintKs[g.pick(len(hintKs))]] = []any{true, false, "yes"}[g.pick(3)]
		}
		t["annotations"] = a
	}
	if g.pick(6) == 0 {
		t["title"] = texts[g.pick(len(texts))]
	}
	return t
}

// surfaceOf makes a surface of up to four tools with distinct names.
func (g *gen) surface(t *testing.T) *surface.Surface {
	s := &surface.Surface{}
	seen := map[string]bool{}
	for range g.pick(5) {
		name := names[g.pick(len(names))]
		if seen[name] {
			continue
		}
		seen[name] = true
		// Round-trip through JSON, as a transport would give it.
		b, err := json.Marshal(g.tool(name))
		if err != nil {
			t.Fatal(err)
		}
		var def map[string]any
		if err := json.Unmarshal(b, &def); err != nil {
			t.Fatal(err)
		}
		s.Tools = append(s.Tools, surface.NewTool(name, def))
	}
	return s
}

// FuzzCompare compares random surfaces: Compare never panics, a surface
// compared with itself has no change, every change's values are what
// its path finds on each side, the counts add up, and the result does
// not depend on anything but the two surfaces.
func FuzzCompare(f *testing.F) {
	f.Add([]byte{}, []byte{})
	f.Add([]byte("\x04\x00\x05\x07\x01\x02\x03"), []byte("\x04\x01\x05\x07\x01\x02\x04"))
	f.Add([]byte("\x03\x00\x03\x03\x03\x03\x03\x03\x03\x00\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"), []byte("\x03\x01\x03\x03\x03\x03\x03\x03\x03\x00\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0a"))
	f.Add([]byte("\x02\x02\x09\x09\x09\x09\x09\x09\x09"), []byte("\x02\x04\x09\x09\x09\x09\x09\x09\x09"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		base := (&gen{a}).surface(t)
		head := (&gen{b}).surface(t)
		if d := Compare(base, base); len(d.Changes) != 0 {
			t.Fatalf("a surface compared with itself has %d changes:\n%s", len(d.Changes), describe(d))
		}
		d := Compare(base, head)
		checkPointers(t, base, head, d)
		if n := d.Breaking + d.Risky + d.Information + d.Compatible; n != len(d.Changes) {
			t.Errorf("the counts add up to %d, for %d changes", n, len(d.Changes))
		}
		if base.Hash() != head.Hash() && len(d.Changes) == 0 {
			// Only a change that means the same (a type written as a
			// list) may go unreported: never a tool's presence.
			for _, tl := range base.Tools {
				if _, ok := head.Tool(tl.Name); !ok {
					t.Errorf("tool %q removed, and no change says so", tl.Name)
				}
			}
		}
		if again := Compare(base, head); !reflect.DeepEqual(d, again) {
			t.Errorf("two comparisons of the same surfaces differ")
		}
	})
}

// FuzzCompareJSON compares tools/list results the fuzzer writes itself:
// whatever surface.Parse accepts, Compare takes without a panic, finds
// no change against itself, and locates every change it finds.
func FuzzCompareJSON(f *testing.F) {
	f.Add(`{"tools":[`+notes+`]}`, `{"tools":[`+edit(`,"archive"`, ``)+`]}`)
	f.Add(`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":["string","null"],"enum":[1,1e400]}}}}]}`, `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x","x"]}}]}`)
	f.Add(`{"tools":[{"name":"a/~b","inputSchema":true,"annotations":[]}]}`, `{"tools":[{"name":"a/~c","inputSchema":false,"outputSchema":{"properties":{"é":{}}}}]}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		base, err := surface.Parse("base", []byte(a))
		if err != nil {
			return
		}
		head, err := surface.Parse("head", []byte(b))
		if err != nil {
			return
		}
		if d := Compare(base, base); len(d.Changes) != 0 {
			t.Fatalf("a surface compared with itself has %d changes:\n%s", len(d.Changes), describe(d))
		}
		checkPointers(t, base, head, Compare(base, head))
	})
}
