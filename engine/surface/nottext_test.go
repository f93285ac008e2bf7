package surface_test

import (
	"slices"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
)

// A description or title that is not a string is scored as absent; the
// surface says so in a warning, once per member however many tools hold
// one, whichever way the document is read (a canonical tool is kept as
// written by a lean parse, so that path must notice it too).
func TestTextMembersThatAreNotStrings(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"strings and null are fine", `[{"name":"a","description":"Reads.","title":"A"},{"name":"b","description":null}]`, nil},
		{"one number", `[{"name":"x","description":5}]`,
			[]string{`tool "x": its description is a number, not a string, so it is read as no description (MCP gives description as a string)`}},
		{"canonical, as a lean parse keeps it", `[{"description":5,"name":"x"}]`,
			[]string{`tool "x": its description is a number, not a string, so it is read as no description (MCP gives description as a string)`}},
		{"two tools and a title", `[{"name":"x","description":[1]},{"name":"y","description":{"a":1},"title":true},{"name":"z","description":false}]`,
			[]string{
				`tool "x" and 2 others: the description is not a string ("x"'s description is an array), so it is read as no description (MCP gives description as a string)`,
				`tool "y": its title is a boolean, not a string, so it is read as no title (MCP gives title as a string)`,
			}},
		{"a registry entry's definition", `{"release":"r","tools":[{"name":"x","definition":{"name":"x","description":2}}]}`,
			[]string{`tool "x": its description is a number, not a string, so it is read as no description (MCP gives description as a string)`}},
	}
	for _, tt := range tests {
		for _, parse := range []struct {
			name string
			fn   func(string, []byte) (*surface.Surface, error)
		}{{"Parse", surface.Parse}, {"ParseLean", surface.ParseLean}} {
			t.Run(tt.name+"/"+parse.name, func(t *testing.T) {
				s, err := parse.fn("t.json", []byte(tt.doc))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(s.Warnings, tt.want) {
					t.Errorf("warnings:\n got %q\nwant %q", s.Warnings, tt.want)
				}
			})
		}
	}
}

// A surface written out and read back (a transport's answer, a report's
// embedded surface) keeps its warnings once, not twice.
func TestNotTextWarningsAreNotRepeated(t *testing.T) {
	s, err := surface.Parse("t.json", []byte(`[{"name":"x","description":5}]`))
	if err != nil {
		t.Fatal(err)
	}
	b := s.Marshal()
	back, err := surface.Parse("back.json", b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Warnings, s.Warnings) || len(back.Warnings) != 1 {
		t.Errorf("read back: %q, want %q", back.Warnings, s.Warnings)
	}
}
