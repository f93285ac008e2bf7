package calibrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// Disagreement is one value a record states that its own values do not
// give: a statistic recomputed from the runs and the published values, or
// a published value read again from the capture.
type Disagreement struct {
	// What names the value: "statistics: measures \"tdqs\": mean absolute
	// difference".
	What string
	// Says is what the record states; Gives what its values give.
	Says, Gives string
	// Capture is set when Gives was read from the capture rather than
	// recomputed from the record's values.
	Capture bool
}

// String says what the record states and what its values give, made
// printable (the names come from a file anyone may have edited).
func (d Disagreement) String() string {
	source := "its values give"
	if d.Capture {
		source = "the capture gives"
	}
	return termtext.Printable(fmt.Sprintf("%s says %s, %s %s", d.What, d.Says, source, d.Gives))
}

// Verify recomputes what a record states from the values it holds: every
// statistic from its runs and published values (with the record's own
// tolerance), the count of runs, and, when the capture is given, the
// published values from the capture. None means the record agrees with
// itself; a hand-edited statistic is named with both values.
//
// The statistics are compared as the file holds them, so an edit of a
// rounded value ("value": 0.29) is found as well as one of its exact
// fraction. Numbers compare by value: 0.80 and 0.8 agree.
func (rec *Record) Verify(c *Capture) []Disagreement {
	var out []Disagreement
	if rec.Runs != len(rec.Results) {
		out = append(out, Disagreement{What: "runs", Says: fmt.Sprint(rec.Runs), Gives: fmt.Sprintf("%d (the runs it holds)", len(rec.Results))})
	}
	if c != nil {
		want, err := json.Marshal(published(c, rec.Measures))
		if err == nil {
			got, err := json.Marshal(rec.Published)
			if err == nil {
				for _, d := range differ("published", got, want) {
					d.Capture = true
					out = append(out, d)
				}
			}
		}
	}
	largest := len(rec.Statistics.Largest)
	if largest == 0 {
		largest = 10
	}
	again := compute(rec, Options{Tolerance: rec.Statistics.Tolerance.Num, Largest: largest,
		Resamples: rec.Statistics.Bootstrap.Resamples, Seed: rec.Statistics.Bootstrap.Seed})
	want, err := json.Marshal(again)
	if err != nil {
		return append(out, Disagreement{What: "statistics", Says: "values", Gives: "no statistics: " + err.Error()})
	}
	got := rec.rawStats
	if got == nil {
		if got, err = json.Marshal(rec.Statistics); err != nil {
			return out
		}
	}
	return append(out, differ("statistics", got, want)...)
}

// MaxDisagreements bounds each list Verify compares (the statistics, the
// published values): a record edited throughout says so in a screenful.
const MaxDisagreements = 20

// differ compares two JSON documents, the record's and the recomputed,
// and lists where they differ, named by path, at most MaxDisagreements.
func differ(what string, got, want []byte) []Disagreement {
	g, err := decodeOrdered(got)
	if err != nil {
		return []Disagreement{{What: what, Says: "something unreadable", Gives: "values: " + err.Error()}}
	}
	w, err := decodeOrdered(want)
	if err != nil {
		return nil
	}
	var out []Disagreement
	compareNodes(what, g, w, &out)
	return out
}

// node is a JSON value that keeps the order of an object's members, so
// that disagreements are listed in the record's order.
type node struct {
	keys   []string
	fields map[string]*node
	items  []*node
	isObj  bool
	isArr  bool
	scalar any // json.Number, string, bool or nil
}

func decodeOrdered(b []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return readNode(dec)
}

func readNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return &node{scalar: tok}, nil
	}
	n := &node{isObj: d == '{', isArr: d == '['}
	if n.isObj {
		n.fields = map[string]*node{}
	}
	for dec.More() {
		if n.isObj {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			v, err := readNode(dec)
			if err != nil {
				return nil, err
			}
			if _, dup := n.fields[key]; !dup {
				n.keys = append(n.keys, key)
			}
			n.fields[key] = v
			continue
		}
		v, err := readNode(dec)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return n, nil
}

// show writes a value for a message: numbers and labels as they are,
// anything larger by its kind.
func (n *node) show() string {
	switch {
	case n == nil:
		return "nothing"
	case n.isObj:
		if v, ok := n.fields["value"]; ok && len(n.fields) <= 2 {
			return v.show()
		}
		return "an object"
	case n.isArr:
		return fmt.Sprintf("%d entries", len(n.items))
	}
	switch s := n.scalar.(type) {
	case nil:
		return "null"
	case string:
		return s
	}
	return fmt.Sprint(n.scalar)
}

// same reports whether two scalars are equal, numbers by value.
func same(a, b any) bool {
	if a == b {
		return true
	}
	as, aok := scalarNum(a)
	bs, bok := scalarNum(b)
	return aok && bok && as.Cmp(bs) == 0
}

func scalarNum(v any) (num.Num, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		if !strings.Contains(x, "/") {
			return num.Num{}, false
		}
		s = x
	default:
		return num.Num{}, false
	}
	n, err := num.Parse(s)
	return n, err == nil
}

// readable turns a member's name into words: "mean_absolute_difference"
// is "mean absolute difference".
func readable(key string) string { return strings.ReplaceAll(key, "_", " ") }

// identity is what names an entry of a list: its "name" or "tool".
func identity(n *node) (string, bool) {
	if n == nil || !n.isObj {
		return "", false
	}
	for _, k := range []string{"name", "tool"} {
		if v, ok := n.fields[k]; ok {
			if s, ok := v.scalar.(string); ok {
				return s, true
			}
		}
	}
	return "", false
}

func compareNodes(path string, got, want *node, out *[]Disagreement) {
	if len(*out) >= MaxDisagreements {
		return
	}
	switch {
	case got == nil || want == nil:
		if got != want {
			*out = append(*out, Disagreement{What: path, Says: got.show(), Gives: want.show()})
		}
	case want.isObj && got.isObj:
		_, hasExact := want.fields["exact"]
		_, hasValue := want.fields["value"]
		if hasExact && hasValue && len(want.fields) == 2 {
			// A statistic written rounded with its exact fraction: one
			// disagreement, in the rounded form unless only the fraction
			// was edited.
			gv, ge := got.fields["value"], got.fields["exact"]
			wv, we := want.fields["value"], want.fields["exact"]
			switch {
			case gv == nil || !gv.isScalar() || !same(gv.scalar, wv.scalar):
				*out = append(*out, Disagreement{What: path, Says: gv.show(), Gives: wv.show()})
			case ge == nil || !ge.isScalar() || !same(ge.scalar, we.scalar):
				*out = append(*out, Disagreement{What: path + " (exact)", Says: ge.show(), Gives: we.show()})
			}
			return
		}
		for _, k := range want.keys {
			compareNodes(joinPath(path, readable(k)), got.fields[k], want.fields[k], out)
		}
		for _, k := range got.keys {
			if _, ok := want.fields[k]; !ok {
				*out = append(*out, Disagreement{What: joinPath(path, readable(k)), Says: got.fields[k].show(), Gives: "no such value"})
			}
		}
	case want.isArr && got.isArr:
		if len(got.items) != len(want.items) {
			*out = append(*out, Disagreement{What: path, Says: got.show(), Gives: want.show()})
			return
		}
		for i := range want.items {
			id, ok := identity(want.items[i])
			p := fmt.Sprintf("%s [%d]", path, i+1)
			if ok {
				if gid, _ := identity(got.items[i]); gid != id {
					*out = append(*out, Disagreement{What: p, Says: fmt.Sprintf("%q", gid), Gives: fmt.Sprintf("%q", id)})
					continue
				}
				p = fmt.Sprintf("%s %q", path, id)
			}
			compareNodes(p, got.items[i], want.items[i], out)
		}
	case got.isScalar() && want.isScalar():
		if !same(got.scalar, want.scalar) {
			*out = append(*out, Disagreement{What: path, Says: got.show(), Gives: want.show()})
		}
	default:
		*out = append(*out, Disagreement{What: path, Says: got.show(), Gives: want.show()})
	}
}

func (n *node) isScalar() bool { return n != nil && !n.isObj && !n.isArr }

func joinPath(path, key string) string {
	if strings.HasSuffix(path, ":") || path == "" {
		return path + " " + key
	}
	return path + ": " + key
}

// Check says what Compare and Verify (with cur.Capture) find, a line
// each, under a heading that names the record at path, and what to do;
// "" when the record matches cur and agrees with itself.
func (rec *Record) Check(path string, cur Current) string {
	var lines []string
	if moved := rec.Compare(cur); len(moved) > 0 {
		lines = append(lines, fmt.Sprintf("%s no longer matches what it was made with:", path))
		for _, m := range moved {
			lines = append(lines, "  "+m.String())
		}
	}
	if own := rec.Verify(cur.Capture); len(own) > 0 {
		lines = append(lines, fmt.Sprintf("%s does not agree with itself (edited by hand, or damaged):", path))
		for _, d := range own {
			lines = append(lines, "  "+d.String())
		}
	}
	if lines == nil {
		return ""
	}
	return strings.Join(append(lines, "calibrate again to make a new record"), "\n")
}
