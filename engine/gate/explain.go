package gate

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// costDigits are the decimals a tool's cost and the surface's values are
// shown with: finer than the compared value, which a fall of a few
// hundredths can already move.
const costDigits = 3

// fallen lists the tools whose exact score is lower in head than in
// base, worst first, each with what its fall alone costs the mean of the
// tools' scores and, when the gate names them, the dimensions that fell.
func fallen(g rubric.Gate, base, head *report.Report) []Fallen {
	byName := map[string]*report.Tool{}
	for i := range base.Tools {
		byName[base.Tools[i].Name] = &base.Tools[i]
	}
	n := num.Int(int64(len(head.Tools)))
	var out []costed[Fallen]
	for i := range head.Tools {
		h := &head.Tools[i]
		b, ok := byName[h.Name]
		if !ok {
			continue
		}
		bs, err1 := num.Parse(b.Exact)
		hs, err2 := num.Parse(h.Exact)
		if err1 != nil || err2 != nil || hs.Cmp(bs) >= 0 {
			continue
		}
		cost, _ := hs.Sub(bs).Quo(n)
		f := Fallen{Tool: h.Name, Base: b.Score, Head: h.Score, Cost: json.Number(show(cost, costDigits)), CostExact: cost.Exact()}
		if g.Scores != "" {
			f.Dimensions = dimensions(field(b, g.Scores), field(h, g.Scores), field(h, g.Justifications))
		}
		out = append(out, costed[Fallen]{f, cost})
	}
	return worstFirst(out)
}

// addedBelow lists the tools only head has whose exact score is below
// the mean of base's tools' scores, worst first, each with what adding
// it alone costs that mean.
func addedBelow(base, head *report.Report) []AddedTool {
	if len(base.Tools) == 0 {
		return nil
	}
	inBase := map[string]bool{}
	sum := num.Int(0)
	for i := range base.Tools {
		inBase[base.Tools[i].Name] = true
		s, err := num.Parse(base.Tools[i].Exact)
		if err != nil {
			return nil
		}
		sum = sum.Add(s)
	}
	mean, err := sum.Quo(num.Int(int64(len(base.Tools))))
	if err != nil {
		return nil
	}
	n := num.Int(int64(len(head.Tools)))
	var out []costed[AddedTool]
	for i := range head.Tools {
		h := &head.Tools[i]
		if inBase[h.Name] {
			continue
		}
		hs, err := num.Parse(h.Exact)
		if err != nil || hs.Cmp(mean) >= 0 {
			continue
		}
		cost, _ := hs.Sub(mean).Quo(n)
		out = append(out, costed[AddedTool]{AddedTool{Tool: h.Name, Head: h.Score, Cost: json.Number(show(cost, costDigits)), CostExact: cost.Exact()}, cost})
	}
	return worstFirst(out)
}

// costed is an entry of a gate's explanation with what it costs the mean
// (negative: a fall).
type costed[T any] struct {
	v    T
	cost num.Num
}

// worstFirst orders entries by cost, the costliest (most negative) first,
// ties in the order given, and returns the entries alone.
func worstFirst[T any](out []costed[T]) []T {
	slices.SortStableFunc(out, func(a, b costed[T]) int { return a.cost.Cmp(b.cost) })
	list := make([]T, len(out))
	for i, c := range out {
		list[i] = c.v
	}
	return list
}

// dimensions compares two maps of dimension to score and returns the
// dimensions whose score fell, the largest fall first, with the head's
// justification of each.
func dimensions(base, head, why map[string]any) []Dimension {
	type fell struct {
		d   Dimension
		by  num.Num
		key string
	}
	var out []fell
	for k, hv := range head {
		hn, ok1 := number(hv)
		bn, ok2 := number(base[k])
		if !ok1 || !ok2 || hn.Cmp(bn) >= 0 {
			continue
		}
		out = append(out, fell{Dimension{Name: k, Base: json.Number(show(bn, costDigits)), Head: json.Number(show(hn, costDigits)), Justification: justification(why[k])}, bn.Sub(hn), k})
	}
	slices.SortFunc(out, func(a, b fell) int {
		if c := b.by.Cmp(a.by); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	list := make([]Dimension, len(out))
	for i, f := range out {
		list[i] = f.d
	}
	return list
}

// justification reads a judge's reason: a string, or an object whose
// justification member is one (a score given with its reason); anything
// else as compact JSON.
func justification(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case map[string]any:
		if s, ok := x["justification"].(string); ok {
			return s
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// field is the member name of a tool's report entry as plain values
// (json.Number for numbers); nil when the tool has none.
func field(t *report.Tool, name string) map[string]any {
	if name == "" {
		return nil
	}
	for _, f := range t.Fields {
		if f.Name != name {
			continue
		}
		raw, _ := f.JSON()
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) == nil {
			return m
		}
	}
	return nil
}

// number reads an exact number from a JSON value: a number, or a
// string holding an exact fraction, as a report writes a value with no
// short decimal ("5/3").
func number(v any) (num.Num, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := num.Parse(x.String())
		return n, err == nil
	case string:
		if !strings.Contains(x, "/") {
			return num.Num{}, false
		}
		n, err := num.Parse(x)
		return n, err == nil
	case map[string]any: // a score given with its reason
		if s, ok := x["score"]; ok {
			return number(s)
		}
	}
	return num.Num{}, false
}

// information lists the values of the whole surface that are lower in
// head than in base: the rubric's surface metrics, its overall score,
// and the numbers among the members of its surface report blocks (the
// surface-level dimensions), named SECTION.MEMBER. Each value is listed
// by its name, once; the score, and a member whose formula is only a
// metric or the score, are left out as the same value under another
// name.
func information(r *rubric.Rubric, base, head *report.Report) []Change {
	var out []Change
	seen := map[string]bool{}
	add := func(name, be, he string) {
		if seen[name] {
			return
		}
		b, err1 := num.Parse(be)
		h, err2 := num.Parse(he)
		if err1 != nil || err2 != nil || h.Cmp(b) >= 0 {
			return
		}
		seen[name] = true
		out = append(out, Change{Name: name, Base: json.Number(show(b, costDigits)), Head: json.Number(show(h, costDigits))})
	}
	bm := map[string]string{}
	for _, m := range base.Metrics {
		if m.Exact != "" {
			bm[m.Name] = m.Exact
		}
	}
	for _, m := range head.Metrics {
		if be, ok := bm[m.Name]; ok && m.Exact != "" {
			add(m.Name, be, m.Exact)
		}
	}
	if base.Exact != nil && head.Exact != nil && (r.Surface.Score == nil || !isAlias(r.Surface.Score)) {
		add("score", *base.Exact, *head.Exact)
	}
	aliases := map[string]bool{}
	for _, rb := range r.Surface.Reports {
		for _, f := range rb.Fields {
			if f.Value != nil && isAlias(f.Value) {
				aliases[rb.Name+"."+f.Name] = true
			}
		}
	}
	bs := sectionNumbers(base)
	for _, hv := range sectionNumbers(head) {
		name := hv[0]
		if aliases[name] {
			continue
		}
		for _, bv := range bs {
			if bv[0] == name {
				add(name, bv[1], hv[1])
				break
			}
		}
	}
	return out
}

// isAlias reports whether a formula is only a read of the score or of a
// whole metric, as "metrics.overall": its value is listed under that
// name already. It asks the formula's syntax tree, not its text.
func isAlias(p *lang.Program) bool {
	r, ok := p.Alias()
	if !ok {
		return false
	}
	return len(r.Path) == 1 && r.Var() == "score" || len(r.Path) == 2 && r.Var() == "metrics"
}

// sectionNumbers are the number members of a report's surface report
// blocks, as SECTION.MEMBER and the number as written, in order.
func sectionNumbers(rep *report.Report) [][2]string {
	var out [][2]string
	for _, sec := range rep.Sections {
		for _, nv := range sec.Scalars() {
			if _, err := num.Parse(nv[1]); err == nil {
				out = append(out, [2]string{sec.Name + "." + nv[0], nv[1]})
			}
		}
	}
	return out
}

// show writes n as its shortest decimal when that has at most digits
// decimals, else rounded to digits.
func show(n num.Num, digits int) string {
	if n.Round(digits).Cmp(n) == 0 {
		return n.String()
	}
	return n.Decimal(digits)
}
