package html

// The rubric's own report members (its report blocks: a summary of the
// surface, the runs of a harness, pairs of confusable tools), shown
// without knowing the rubric: scalars as a list, numbers of one object as
// bars, lists of objects as tables, objects of objects side by side.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/jsonpointer"
)

// section is one object of a rubric's report members.
type section struct {
	Name string
	Rows []row
	// Bars says that every row is a number with a declared maximum,
	// drawn as a bar out of it; Max is that maximum when every row has
	// the same, else "" (each row then says its own).
	Bars bool
	Max  string
	// Side is an object whose members are objects, set side by side.
	Side   *table
	Tables []table
	Subs   []section
}

type row struct {
	Name, Value, Ref string
	// Max is the value's declared maximum, Percent the value's share of
	// it, for a bar.
	Max, Percent string
	// raw is the value as the report holds it (Value is as a person
	// reads it: a fraction as a decimal).
	raw string
}

// bounds are the declared maxima of the values of a section (see
// report.Maxima): one for every number in it (All), or one for each value
// by name (ByName).
type bounds struct {
	All    string
	ByName map[string]string
}

// of is the maximum of the value name, "" when none is declared.
func (b bounds) of(name string) string {
	if b.All != "" {
		return b.All
	}
	return b.ByName[name]
}

// in is the bounds of the object that is the value name: its maximum
// holds for each number in it.
func (b bounds) in(name string) bounds { return bounds{All: b.of(name)} }

type table struct {
	Name string
	Head []string
	Rows [][]cell
	More int // rows left out
	// Matrix sets a list of pairs of tools (two columns naming tools of
	// the report, such as pairs a model may confuse) as a grid.
	Matrix *matrix
}

// matrix is a grid of tools: Cells[i][j] counts the rows that pair
// Rows[i] (in column RowsBy) with Columns[j] (in column ColumnsBy), ""
// for none.
type matrix struct {
	RowsBy, ColumnsBy string
	Rows, Columns     []string
	Cells             [][]string
}

// maxMatrix is the most tools a grid of pairs shows.
const maxMatrix = 24

// pairsMatrix finds in t two columns whose every cell names a tool and
// counts the rows of each pair of them in a grid, rows by the first
// column, columns by the second (chosen against expected, a against b).
func (t *table) pairsMatrix(tools map[string]bool) {
	if len(tools) == 0 || t.More > 0 || len(t.Rows) == 0 {
		return
	}
	var cols []int
	for c := range t.Head {
		all := true
		for _, r := range t.Rows {
			if !tools[r[c].Text] {
				all = false
				break
			}
		}
		if all {
			cols = append(cols, c)
		}
	}
	if len(cols) < 2 {
		return
	}
	a, b := cols[0], cols[1]
	rowSeen, colSeen := map[string]bool{}, map[string]bool{}
	var rows, columns []string
	for _, r := range t.Rows {
		if n := r[a].Text; !rowSeen[n] {
			rowSeen[n] = true
			rows = append(rows, n)
		}
		if n := r[b].Text; !colSeen[n] {
			colSeen[n] = true
			columns = append(columns, n)
		}
	}
	if len(rows) > maxMatrix || len(columns) > maxMatrix {
		return
	}
	slices.Sort(rows)
	slices.Sort(columns)
	count := map[[2]string]int{}
	for _, r := range t.Rows {
		count[[2]string{r[a].Text, r[b].Text}]++
	}
	m := &matrix{RowsBy: t.Head[a], ColumnsBy: t.Head[b], Rows: rows, Columns: columns, Cells: make([][]string, len(rows))}
	for i, rn := range rows {
		m.Cells[i] = make([]string, len(columns))
		for j, cn := range columns {
			if n := count[[2]string{rn, cn}]; n > 0 {
				m.Cells[i][j] = strconv.Itoa(n)
			}
		}
	}
	t.Matrix = m
}

type cell struct {
	Text, Ref string
}

// maxRows bounds a table of a section; maxDepth how deep sections nest;
// maxCell how much of a nested value a cell shows.
const (
	maxRows  = 200
	maxDepth = 4
	maxCell  = 160
)

// sectionOf reads a report member as a section; ptr is its JSON pointer,
// max the declared maxima of its values.
func sectionOf(f report.Field, ptr string, tools map[string]bool, max bounds) (section, bool) {
	raw, err := f.JSON()
	if err != nil {
		return section{}, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return section{}, false
	}
	s := sectionFrom(f.Name, v, ptr, 0, max)
	s.matrices(tools)
	return s, len(s.Rows)+len(s.Tables)+len(s.Subs) > 0 || s.Side != nil
}

func sectionFrom(name string, v any, ptr string, depth int, max bounds) section {
	s := section{Name: name}
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		var objects []string
		for _, k := range keys {
			p := ptr + "/" + jsonpointer.Escape(k)
			switch c := x[k].(type) {
			case map[string]any:
				objects = append(objects, k)
			case []any:
				if t, ok := tableOf(k, c, p); ok {
					s.Tables = append(s.Tables, t)
				} else {
					s.Rows = append(s.Rows, row{Name: k, Value: compact(c)})
				}
			default:
				if text, ok := scalar(c); ok {
					s.Rows = append(s.Rows, row{Name: k, Value: report.Readable(text), Ref: p, raw: text})
				} else if c == nil {
					s.Rows = append(s.Rows, row{Name: k, Value: "none"})
				}
			}
		}
		if len(objects) >= 2 && depth < maxDepth {
			s.Side = sideBySide(x, objects, ptr)
			for _, k := range objects {
				sub := sectionFrom(name+" · "+k, x[k], ptr+"/"+jsonpointer.Escape(k), depth+1, max.in(k))
				sub.Rows, sub.Side = nil, nil // shown in the side-by-side table
				if len(sub.Tables)+len(sub.Subs) > 0 {
					s.Subs = append(s.Subs, sub)
				}
			}
		} else {
			for _, k := range objects {
				if depth < maxDepth {
					s.Subs = append(s.Subs, sectionFrom(k, x[k], ptr+"/"+jsonpointer.Escape(k), depth+1, max.in(k)))
				}
			}
		}
		s.bars(max)
	case []any:
		if t, ok := tableOf(name, x, ptr); ok {
			s.Tables = append(s.Tables, t)
		} else {
			s.Rows = append(s.Rows, row{Name: name, Value: compact(x)})
		}
	default:
		if text, ok := scalar(x); ok {
			s.Rows = append(s.Rows, row{Name: name, Value: report.Readable(text), Ref: ptr, raw: text})
		}
	}
	return s
}

// bars draws a section whose rows are all numbers, each with a declared
// maximum, as bars out of it. A row without one draws no section's bars:
// a bar against a guessed scale reads as a fact (a 1 of 5 as a full bar).
func (s *section) bars(max bounds) {
	if len(s.Rows) == 0 {
		return
	}
	pcts := make([]string, len(s.Rows))
	maxes := make([]string, len(s.Rows))
	for i, r := range s.Rows {
		n, err := num.Parse(r.raw)
		if err != nil || n.Sign() < 0 || r.Ref == "" {
			return
		}
		top, err := num.Parse(max.of(r.Name))
		if err != nil || top.Sign() <= 0 {
			return
		}
		pct, err := n.Mul(num.Int(100)).Quo(top)
		if err != nil {
			return
		}
		if pct.Cmp(num.Int(100)) > 0 {
			pct = num.Int(100) // above its maximum: a full bar, the number says the rest
		}
		pcts[i], maxes[i] = pct.Decimal(1), top.String()
	}
	s.Bars, s.Max = true, maxes[0]
	for i := range s.Rows {
		s.Rows[i].Percent, s.Rows[i].Max = pcts[i], maxes[i]
		if maxes[i] != s.Max {
			s.Max = ""
		}
	}
}

// sideBySide sets the scalar members of objects (such as two runs) in
// columns, one row per member any of them has.
func sideBySide(x map[string]any, objects []string, ptr string) *table {
	t := &table{Head: append([]string{""}, objects...)}
	seen := map[string]bool{}
	var names []string
	for _, k := range objects {
		for m, v := range x[k].(map[string]any) {
			if _, ok := scalar(v); (ok || v == nil) && !seen[m] {
				seen[m] = true
				names = append(names, m)
			}
		}
	}
	slices.Sort(names)
	for _, m := range names {
		r := []cell{{Text: m}}
		for _, k := range objects {
			c := cell{Text: "—"}
			if v, ok := x[k].(map[string]any)[m]; ok {
				if text, ok := scalar(v); ok {
					c = cell{Text: report.Readable(text), Ref: ptr + "/" + jsonpointer.Escape(k) + "/" + jsonpointer.Escape(m)}
				} else if v == nil {
					c.Text = "none"
				}
			}
			r = append(r, c)
		}
		t.Rows = append(t.Rows, r)
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// tableOf makes a list of objects a table, its columns every member any
// of them has.
func tableOf(name string, list []any, ptr string) (table, bool) {
	if len(list) == 0 {
		return table{}, false
	}
	seen := map[string]bool{}
	var head []string
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return table{}, false
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !seen[k] {
				seen[k] = true
				head = append(head, k)
			}
		}
	}
	t := table{Name: name, Head: head}
	for i, e := range list {
		if i == maxRows {
			t.More = len(list) - i
			break
		}
		m := e.(map[string]any)
		var r []cell
		for _, k := range head {
			v, ok := m[k]
			switch {
			case !ok:
				r = append(r, cell{Text: ""})
			case v == nil:
				r = append(r, cell{Text: "none"})
			default:
				if text, ok := scalar(v); ok {
					r = append(r, cell{Text: report.Readable(text), Ref: ptr + "/" + strconv.Itoa(i) + "/" + jsonpointer.Escape(k)})
				} else {
					r = append(r, cell{Text: compact(v)})
				}
			}
		}
		t.Rows = append(t.Rows, r)
	}
	return t, true
}

// compact writes a nested value as short JSON.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if r := []rune(string(b)); len(r) > maxCell {
		return string(r[:maxCell-1]) + "…"
	}
	return string(b)
}

// matrices draws every list of pairs of tools in s as a grid too.
func (s *section) matrices(tools map[string]bool) {
	for i := range s.Tables {
		s.Tables[i].pairsMatrix(tools)
	}
	for i := range s.Subs {
		s.Subs[i].matrices(tools)
	}
}
