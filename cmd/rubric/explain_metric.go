package main

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// metricRef is a read of a surface metric in a formula, with the member
// path after it: metrics.baseline.selectionAccuracy.
var metricRef = regexp.MustCompile(`\bmetrics\.([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)`)

// explainMetric shows one surface metric's formula, the same formula with
// the values of the metrics it reads in their place, and its value; then
// each formula that reads it in turn, up to the overall score.
func (a *app) explainMetric(rep *report.Report, r *rubric.Rubric, name string) error {
	values := map[string]report.Metric{}
	for _, m := range rep.Metrics {
		values[m.Name] = m
	}
	var names []string
	formulas := map[string]string{}
	for _, m := range r.Surface.Metrics {
		names = append(names, m.Name)
		formulas[m.Name] = oneLine(m.Value.Source)
	}
	at := slices.Index(names, name)
	if at < 0 {
		return fmt.Errorf("the rubric %s has no surface metric %q; its metrics are: %s", r.Name, name, strings.Join(names, ", "))
	}
	w := a.stdout
	fmt.Fprintf(w, "%s, rubric %s %s (%s)\n\n", name, r.Name, r.Version, report.ShortHash(r.Digest))
	showMetric(w, name, formulas[name], values)
	// Up to the score: every later metric that reads one already shown, in
	// the rubric's order (a value read twice, as Gradable's selection
	// accuracy is, shows both ways).
	shown := []string{name}
	reads := func(formula string) bool {
		return slices.ContainsFunc(shown, func(n string) bool { return readsMetric(formula, n) })
	}
	for _, n := range names[at+1:] {
		if reads(formulas[n]) {
			fmt.Fprintln(w)
			showMetric(w, n, formulas[n], values)
			shown = append(shown, n)
		}
	}
	score := oneLine(r.Surface.Score.Source)
	if !reads(score) {
		return nil
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "score = %s\n", score)
	if rep.Exact == nil {
		fmt.Fprintf(w, "      = null: %s\n", rep.NoScore)
		return nil
	}
	exact := num.MustParse(*rep.Exact).String()
	if sub := substitute(score, values); sub != score && sub != exact {
		fmt.Fprintf(w, "      = %s\n", sub)
	}
	fmt.Fprintf(w, "      = %s, shown rounded half up to %d decimal(s) as %s\n", exact, r.Round, *rep.Score)
	fmt.Fprintf(w, "grade = %s (%s)\n", *rep.Grade, gradeBand(r, *rep.Grade))
	return nil
}

// showMetric prints name = formula, = formula with values, = value.
func showMetric(w io.Writer, name, formula string, values map[string]report.Metric) {
	pad := strings.Repeat(" ", len(name))
	fmt.Fprintf(w, "%s = %s\n", name, formula)
	if sub := substitute(formula, values); sub != formula {
		fmt.Fprintf(w, "%s = %s\n", pad, sub)
	}
	fmt.Fprintf(w, "%s = %s\n", pad, valueText(values[name]))
}

// readsMetric reports whether a formula reads metrics.name.
func readsMetric(formula, name string) bool {
	for _, m := range metricRef.FindAllStringSubmatch(formula, -1) {
		if m[1] == name {
			return true
		}
	}
	return false
}

// substitute puts each metric's value in place of its read in a formula,
// where the value (or the member read) is a single number, string,
// boolean or null; lists and maps are left as they are read.
func substitute(formula string, values map[string]report.Metric) string {
	return metricRef.ReplaceAllStringFunc(formula, func(ref string) string {
		m := metricRef.FindStringSubmatch(ref)
		v, ok := values[m[1]]
		if !ok {
			return ref
		}
		if m[2] == "" {
			if v.Exact != "" {
				return numberText(num.MustParse(v.Exact))
			}
			if s, ok := scalarText(v.Value); ok {
				return s
			}
			return ref
		}
		cur := v.Value
		for _, k := range strings.Split(m[2][1:], ".") {
			obj, ok := cur.(map[string]any)
			if !ok {
				return ref
			}
			cur = obj[k]
		}
		if s, ok := scalarText(cur); ok {
			return s
		}
		return ref
	})
}

// valueText is a metric's value as explain shows it: the exact number
// in its shortest form, or the value as JSON.
func valueText(m report.Metric) string {
	if m.Exact != "" {
		n := num.MustParse(m.Exact)
		if s := n.String(); strings.Contains(s, "/") {
			return fmt.Sprintf("%s (%s)", s, n.Decimal(6))
		}
		return n.String()
	}
	if s, ok := scalarText(m.Value); ok {
		return s
	}
	b, err := json.Marshal(m.Value)
	if err != nil {
		return fmt.Sprint(m.Value)
	}
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}

// scalarText writes a single JSON value as a formula would: numbers
// exactly, strings quoted, null as null.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "null", true
	case bool:
		return fmt.Sprint(x), true
	case json.Number:
		if n, err := num.Parse(x.String()); err == nil {
			return numberText(n), true
		}
		return x.String(), true
	case float64:
		return fmt.Sprint(x), true
	case string:
		// A number with no decimal form travels as its fraction.
		if n, err := num.Parse(x); err == nil && strings.Contains(x, "/") {
			return numberText(n), true
		}
		return "'" + x + "'", true
	}
	return "", false
}

// numberText writes an exact number for a formula: its shortest decimal,
// or a fraction in parentheses, so that "x / (2/3)" reads right.
func numberText(n num.Num) string {
	s := n.String()
	if strings.Contains(s, "/") || strings.HasPrefix(s, "-") {
		return "(" + s + ")"
	}
	return s
}
