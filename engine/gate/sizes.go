package gate

import (
	"unicode/utf8"

	"github.com/rubricmcp/rubric/engine/surface"
)

// Sizes measure both sides' definitions. They are shown beside the
// scores and never enter the decision: a longer description is neither
// better nor worse by itself.
type Sizes struct {
	Base   Size       `json:"base"`
	Head   Size       `json:"head"`
	Change Size       `json:"change"`
	Tools  []ToolSize `json:"tools"`
}

// Size is what one side's definitions measure.
type Size struct {
	// DescriptionChars counts the characters (Unicode code points) of
	// every tool's description.
	DescriptionChars int `json:"description_chars"`
	// ToolsListBytes is the length of the tools/list result in canonical
	// JSON: {"tools":[...]} with each definition's canonical form.
	ToolsListBytes int `json:"tools_list_bytes"`
}

// ToolSize is the canonical JSON length of one tool's definition on each
// side; null on a side that does not have the tool.
type ToolSize struct {
	Name   string `json:"name"`
	Base   *int   `json:"base"`
	Head   *int   `json:"head"`
	Change int    `json:"change"`
}

// measure returns the sizes of base and head, tools in the head's order
// and then the base's removed ones.
func measure(base, head *surface.Surface) *Sizes {
	s := &Sizes{Base: sizeOf(base), Head: sizeOf(head)}
	s.Change = Size{
		DescriptionChars: s.Head.DescriptionChars - s.Base.DescriptionChars,
		ToolsListBytes:   s.Head.ToolsListBytes - s.Base.ToolsListBytes,
	}
	s.Tools = []ToolSize{}
	for _, t := range head.Tools {
		h := len(t.Canonical)
		ts := ToolSize{Name: t.Name, Head: &h, Change: h}
		if bt, ok := base.Tool(t.Name); ok {
			b := len(bt.Canonical)
			ts.Base, ts.Change = &b, h-b
		}
		s.Tools = append(s.Tools, ts)
	}
	for _, t := range base.Tools {
		if _, ok := head.Tool(t.Name); !ok {
			b := len(t.Canonical)
			s.Tools = append(s.Tools, ToolSize{Name: t.Name, Base: &b, Change: -b})
		}
	}
	return s
}

func sizeOf(s *surface.Surface) Size {
	var z Size
	z.ToolsListBytes = len(`{"tools":[]}`)
	for i, t := range s.Tools {
		if i > 0 {
			z.ToolsListBytes++ // the comma
		}
		z.ToolsListBytes += len(t.Canonical)
		if d, ok := t.Definition()["description"].(string); ok {
			z.DescriptionChars += utf8.RuneCountInString(d)
		}
	}
	return z
}
