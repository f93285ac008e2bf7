package html

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/linediff"
)

// gateView is what the gate page's template reads.
type gateView struct {
	Style     template.CSS
	Rep       *gate.Report
	Judge     string
	Heuristic bool
	Changed   []changedTool
}

// changedTool is a tool both sides have with different definitions.
type changedTool struct {
	Name       string
	Base, Head string // the definitions, indented
	Diff       []linediff.Line
	TooLarge   bool
}

// WriteGate writes a gate's report as one self-contained HTML page: the
// decision and why, the pairs, the tools that fell, the contract diff,
// and each tool whose definition changed, base and head side by side with
// a line diff.
func WriteGate(w io.Writer, rep *gate.Report, base, head *surface.Surface) error {
	if rep == nil {
		return fmt.Errorf("write HTML: no gate report to write")
	}
	v := gateView{Style: template.CSS(style), Rep: rep}
	if j := rep.Judge; j != nil {
		v.Judge = j.Plugin + " " + j.Version
		if noun, names := j.Answered(); noun != "" {
			v.Judge += ", " + noun + " " + names
		}
		v.Heuristic = j.Heuristic
	}
	if base != nil && head != nil {
		for _, ht := range head.Tools {
			bt, ok := base.Tool(ht.Name)
			if !ok || bt.Hash == ht.Hash {
				continue
			}
			c := changedTool{Name: ht.Name, Base: indent(bt.Canonical), Head: indent(ht.Canonical)}
			a, b := strings.Split(c.Base, "\n"), strings.Split(c.Head, "\n")
			if d, ok := linediff.Lines(a, b); ok {
				c.Diff = d
			} else {
				c.TooLarge = true
			}
			v.Changed = append(v.Changed, c)
		}
		slices.SortFunc(v.Changed, func(x, y changedTool) int { return strings.Compare(x.Name, y.Name) })
	}
	var buf bytes.Buffer
	if err := page().ExecuteTemplate(&buf, "gate", v); err != nil {
		return fmt.Errorf("write HTML: %w", err)
	}
	_, err := io.WriteString(w, shown(buf.String()))
	return err
}

// indent writes canonical JSON (sorted keys) indented, one member a line.
func indent(canonical []byte) string {
	var buf bytes.Buffer
	if json.Indent(&buf, canonical, "", "  ") != nil {
		return string(canonical)
	}
	return buf.String()
}
