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
	Diff       []diffLine
	TooLarge   bool
}

// diffLine is one line of a line diff: Op is ' ', '-' (base only) or '+'
// (head only).
type diffLine struct {
	Op   string
	Text string
}

// maxDiffLines bounds the definitions a diff is computed for (the
// longest-common-subsequence table is their product).
const maxDiffLines = 3000

// WriteGate writes a gate's report as one self-contained HTML page: the
// decision and why, the pairs, the tools that fell, and each tool whose
// definition changed, base and head side by side with a line diff.
func WriteGate(w io.Writer, rep *gate.Report, base, head *surface.Surface) error {
	if rep == nil {
		return fmt.Errorf("write HTML: no gate report to write")
	}
	v := gateView{Style: template.CSS(style), Rep: rep}
	if j := rep.Judge; j != nil {
		v.Judge = j.Plugin + " " + j.Version
		if j.Model != "" {
			v.Judge += ", model " + j.Model
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
			if len(a) > maxDiffLines || len(b) > maxDiffLines {
				c.TooLarge = true
			} else {
				c.Diff = diffLines(a, b)
			}
			v.Changed = append(v.Changed, c)
		}
		slices.SortFunc(v.Changed, func(x, y changedTool) int { return strings.Compare(x.Name, y.Name) })
	}
	var buf bytes.Buffer
	if err := page.ExecuteTemplate(&buf, "gate", v); err != nil {
		return fmt.Errorf("write HTML: %w", err)
	}
	_, err := w.Write(buf.Bytes())
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

// diffLines is the line diff of a to b by their longest common
// subsequence: unchanged lines, lines of a only, lines of b only.
func diffLines(a, b []string) []diffLine {
	n, m := len(a), len(b)
	// lcs[i][j] is the length of the LCS of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []diffLine
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			out = append(out, diffLine{" ", a[i]})
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, diffLine{"-", a[i]})
			i++
		default:
			out = append(out, diffLine{"+", b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, diffLine{"-", a[i]})
	}
	for ; j < m; j++ {
		out = append(out, diffLine{"+", b[j]})
	}
	return out
}
