package surface

import (
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"testing"
)

// TestMembersAgreeWithDefinition: on every shape a surface is read from
// (the corpus included), a tool's Members are its decoded definition cut
// down to the keys asked for, whether the tool is lean or keeps its tree.
func TestMembersAgreeWithDefinition(t *testing.T) {
	docs := leanDocs(t)
	docs["odd keys"] = `{"tools":[{"name":"k","<tag>":"&","é":1,"\u2028":[{"name":"inner"}],"a\"b":null,"n\u0061me2":{"x":[]}}]}`
	sets := [][]string{{}, {"name"}, {"description", "inputSchema", "name"}, {"missing"}, {"<tag>", "é", "\u2028", `a"b`, "name2"}}
	for name, doc := range docs {
		lean, err := ParseLean("in.json", []byte(doc))
		if err != nil {
			continue // TestParseLeanAgreesWithParse checks the errors
		}
		whole := mustParse(t, doc)
		for i, w := range whole.Tools {
			keys := slices.Concat(sets...)
			keys = append(keys, slices.Sorted(maps.Keys(w.Def))...)
			for _, ks := range append(sets, keys) {
				want := map[string]any{}
				for _, k := range ks {
					if v, ok := w.Def[k]; ok {
						want[k] = v
					}
				}
				for _, tool := range []Tool{lean.Tools[i], w} {
					if got := tool.Members(ks); !reflect.DeepEqual(got, want) {
						t.Errorf("%s: tool %q (tree kept %v): Members(%q) = %v, want %v", name, w.Name, tool.Def != nil, ks, fmt.Sprint(got), fmt.Sprint(want))
					}
				}
			}
		}
	}
}

// BenchmarkToolMembers: a tool's name read from its canonical JSON, as
// a rubric that reads only surface.tools' names gets it, against its
// whole tree decoded, over the tools of the corpus.
func BenchmarkToolMembers(b *testing.B) {
	var tools []Tool
	for _, f := range captures() {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		s, err := ParseLean(f, data)
		if err != nil {
			b.Fatal(err)
		}
		tools = append(tools, s.Tools...)
	}
	b.Run("members", func(b *testing.B) {
		keys := []string{"name"}
		for b.Loop() {
			for _, t := range tools {
				_ = t.Members(keys)
			}
		}
	})
	b.Run("definition", func(b *testing.B) {
		for b.Loop() {
			for _, t := range tools {
				_ = t.Definition()
			}
		}
	})
}
