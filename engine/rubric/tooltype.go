package rubric

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/internal/nearest"
)

// ToolFields are the members of an MCP Tool (the 2025-11-25 revision):
// a formula that reads tool.NAME for any other NAME is a load error, since
// it would read nothing on every tool and score them all as if the field
// were absent. What JSON Schema bodies hold stays open.
var ToolFields = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons", "execution", "_meta"}

// AnnotationFields are the members of a Tool's annotations.
var AnnotationFields = []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// checkToolMembers finds every tool.NAME and tool.annotations.NAME, in
// any formula, that the MCP Tool does not declare.
func (l *loader) checkToolMembers() {
	for p, at := range l.at {
		seen := map[string]bool{}
		for _, m := range p.MembersOf("tool") {
			field, known, what := m.Path[0], ToolFields, "an MCP tool"
			if slices.Contains(ToolFields, field) {
				if field != "annotations" || len(m.Path) < 2 {
					continue
				}
				field, known, what = m.Path[1], AnnotationFields, "a tool's annotations"
				if slices.Contains(AnnotationFields, field) {
					continue
				}
			}
			key := fmt.Sprint(m.Line, m.Col, field)
			if seen[key] {
				continue
			}
			seen[key] = true
			n := 1
			if what != "an MCP tool" {
				n = 2
			}
			ref := "tool." + strings.Join(m.Path[:n], ".")
			msg := fmt.Sprintf("%s is not a field of %s", ref, what)
			if near := nearest.Key(field, known); near != "" {
				msg += fmt.Sprintf(": did you mean %s?", strings.TrimSuffix(ref, field)+near)
			} else {
				msg += ": its fields are " + strings.Join(known, ", ")
			}
			line, col := l.position(at.rng, at.src, m.Line, m.Col)
			l.diags = append(l.diags, Diagnostic{File: l.fileOf(at.rng), Line: line, Col: col, Msg: msg})
		}
	}
}
