package explain

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/internal/columns"
)

// tool explains one tool's score: its formula, then every formula of the
// tool it reads, down to the checks and answers.
func (x *run) tool(w io.Writer) error {
	r := x.r
	t, rt := findTool(x.rep, x.req.Tool), findTool(x.re, x.req.Tool)
	if rt == nil {
		return &DisagreeError{Problems: []string{fmt.Sprintf("tool %q is not on the report's embedded surface", printable(t.Name))}}
	}
	// %q writes a hidden character out (\u202e), as the summaries do,
	// where printable would show only U+FFFD.
	fmt.Fprintf(w, "Tool %q, rubric %s %s (%s)\n", t.Name, r.Name, r.Version, report.ShortHash(r.Digest))
	reads := x.walk(w, "score")
	if readsAny(reads, "checks", "check") {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "checks, as the tool's definition scores them:")
		checksTable(w, rt.Checks)
	}
	x.answers(w, reads, t.Answers)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "score = %s, shown rounded half away from zero to %s as %s\n", exactText(rt.Exact), report.Plural(r.Round, "decimal"), rt.Score)
	fmt.Fprintf(w, "grade = %s (%s)\n", rt.Grade, gradeBand(r, rt.Grade))
	return nil
}

// surface explains the overall score, or one surface metric, down to
// the tools' scores and the answers about the surface.
func (x *run) surface(w io.Writer) error {
	r := x.r
	start := "score"
	if x.req.Metric != "" {
		start = "metrics." + x.req.Metric
		fmt.Fprintf(w, "%s, rubric %s %s (%s)\n", x.req.Metric, r.Name, r.Version, report.ShortHash(r.Digest))
	} else {
		fmt.Fprintf(w, "Overall score, rubric %s %s (%s), %s\n", r.Name, r.Version, report.ShortHash(r.Digest), report.Plural(len(x.re.Tools), "tool"))
	}
	reads := x.walk(w, start)
	x.answers(w, reads, x.rep.Answers)
	if x.req.Metric != "" {
		if by := x.readBy(x.req.Metric); len(by) > 0 {
			fmt.Fprintln(w)
			fmt.Fprintf(w, "metrics.%s is read by %s\n", x.req.Metric, strings.Join(by, ", "))
		}
		return nil
	}
	fmt.Fprintln(w)
	if x.re.Exact == nil {
		fmt.Fprintf(w, "no score: %s\n", x.re.NoScore)
		return nil
	}
	fmt.Fprintf(w, "score = %s, shown rounded half away from zero to %s as %s\n", exactText(*x.re.Exact), report.Plural(r.Round, "decimal"), *x.re.Score)
	fmt.Fprintf(w, "grade = %s (%s)\n", *x.re.Grade, gradeBand(r, *x.re.Grade))
	return nil
}

// readBy are the surface formulas that read metrics.name, in the
// rubric's order.
func (x *run) readBy(name string) []string {
	var out []string
	for _, m := range x.r.Surface.Metrics {
		if m.Value.Reads("metrics", name) {
			out = append(out, "metrics."+m.Name)
		}
	}
	if s := x.r.Surface.Score; s != nil && s.Reads("metrics", name) {
		out = append(out, "score")
	}
	return out
}

// walk explains the formula start, then each formula of the same level
// it reads, and theirs, each once; it returns the reads of everything
// else (answers, checks, tools), each once.
func (x *run) walk(w io.Writer, start string) []read {
	queue, seen := []string{start}, map[string]bool{start: true}
	var other []read
	have := map[string]bool{}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		fmt.Fprintln(w)
		f := x.traced[name]
		if f == nil {
			p, _ := x.formulaOf(name)
			fmt.Fprintf(w, "%s = %s\n  (not evaluated for this %s)\n", name, oneLine(p.Source), x.levelName())
			continue
		}
		x.block(w, f)
		for _, rd := range f.reads {
			if k := x.blockKey(rd.ref); k != "" && len(rd.ref.Path) == 2 && (scalar(rd.val) || x.req.Tool != "") {
				// A metric that is a single value is explained in turn;
				// over the surface, one that is a list or a map (tasks,
				// runs) is data, and shown as read. A tool's few metrics
				// are all explained.
				if !seen[k] {
					seen[k] = true
					queue = append(queue, k)
				}
				continue
			}
			if k := rd.ref.String(); !have[k] {
				have[k] = true
				other = append(other, rd)
			}
		}
	}
	return other
}

func (x *run) levelName() string {
	if x.req.Tool != "" {
		return "tool"
	}
	return "surface"
}

// blockKey is the metric of the level a read reads (metrics.NAME), or
// "". Signals are shown as read: each is a fact of the definition.
func (x *run) blockKey(r lang.Ref) string {
	if len(r.Path) < 2 || r.Var() != "metrics" {
		return ""
	}
	k := r.Path[0] + "." + r.Path[1]
	if _, ok := x.formulaOf(k); !ok {
		return ""
	}
	return k
}

// maxRepeated is the longest value text a read writes again in each
// formula that reads it; a longer one is written once.
const maxRepeated = 200

// block explains one formula: what it reads, each computation it did,
// and its value.
func (x *run) block(w io.Writer, f *formula) {
	// The formula whole, as a rubric author reads it: a long one wraps.
	fmt.Fprintf(w, "%s = %s\n", f.name, oneLine(f.prog.Source))
	for _, rd := range f.reads {
		if rd.ref.Var() == "checks" || rd.ref.Var() == "check" {
			fmt.Fprintf(w, "  reads %s: the checks' results, below\n", rd.ref)
			continue
		}
		if rd.val == nil {
			fmt.Fprintf(w, "  reads %s: not there\n", rd.ref)
			continue
		}
		text := long(rd.val)
		if len(text) > maxRepeated {
			key := [2]string{rd.ref.String(), text}
			if at, ok := x.shown[key]; ok {
				fmt.Fprintf(w, "  reads %s, as shown under %s above\n", rd.ref, at)
				continue
			}
			if x.shown == nil {
				x.shown = map[[2]string]string{}
			}
			x.shown[key] = f.name
		}
		fmt.Fprintf(w, "  reads %s = %s\n", rd.ref, text)
	}
	if f.err != nil {
		fmt.Fprintf(w, "  could not be traced: %s\n", oneLine(f.err.Error()))
		return
	}
	steps := f.trace.Steps(short, maxItems)
	for i := 0; i < len(steps); {
		if steps[i].Loop == 0 {
			fmt.Fprintf(w, "  %s = %s\n", oneLine(steps[i].Text), long(steps[i].Value))
			i++
			continue
		}
		j := i
		for j < len(steps) && steps[j].Loop == steps[i].Loop {
			j++
		}
		items(w, steps[i:j])
		i = j
	}
	if len(steps) == 0 || steps[len(steps)-1].ID != f.trace.Root() {
		fmt.Fprintf(w, "  = %s\n", long(f.trace.Value))
	}
}

// item is the steps of one item of a comprehension.
type item struct {
	label, header string
	steps         []lang.Step
}

// items writes the steps of one comprehension's items: a table of item
// and value when each item took one computation, else each item's steps
// in turn.
func items(w io.Writer, steps []lang.Step) {
	var list []item
	skipped := 0
	for _, s := range steps {
		if s.Skipped > 0 {
			skipped += s.Skipped
			continue
		}
		n := s.Item[len(s.Item)-1]
		if len(list) == 0 || list[len(list)-1].steps[0].Item[len(s.Item)-1] != n || !slices.Equal(list[len(list)-1].steps[0].Item, s.Item) {
			label, header := itemLabel(s.Bound)
			list = append(list, item{label: label, header: header})
		}
		list[len(list)-1].steps = append(list[len(list)-1].steps, s)
	}
	if len(steps) > 0 && steps[0].Keys {
		slices.SortStableFunc(list, func(a, b item) int { return strings.Compare(a.label, b.label) })
	}
	one := len(list) > 0
	for _, it := range list {
		if len(it.steps) != 1 || it.steps[0].Source != list[0].steps[0].Source {
			one = false
		}
	}
	if one {
		rows := [][]string{{list[0].header, oneLine(list[0].steps[0].Source)}}
		for _, it := range list {
			s := it.steps[0]
			text := oneLine(s.Text) + " = " + long(s.Value)
			if s.Read {
				text = long(s.Value)
			}
			rows = append(rows, []string{it.label, text})
		}
		table(w, "  ", rows)
	} else {
		for _, it := range list {
			for _, s := range it.steps {
				fmt.Fprintf(w, "  %s = %s: %s = %s\n", it.header, it.label, oneLine(s.Text), long(s.Value))
			}
		}
	}
	if skipped > 0 {
		fmt.Fprintf(w, "  … and %d more\n", skipped)
	}
}

// itemLabel names an item by its variable's value: a record by its name
// member, anything else by its value. In nested comprehensions the
// innermost variable names the item.
func itemLabel(bound []lang.Binding) (label, header string) {
	var ls, hs []string
	if len(bound) > 1 {
		bound = bound[len(bound)-1:]
	}
	for _, b := range bound {
		if name, ok := nameOf(b.Value); ok {
			ls, hs = append(ls, name), append(hs, b.Name+".name")
			continue
		}
		ls, hs = append(ls, valueLabel(b.Value)), append(hs, b.Name)
	}
	return strings.Join(ls, ", "), strings.Join(hs, ", ")
}

// valueLabel names an item that is no record by its value: a string
// whole up to maxValue characters, unquoted, since the label is what
// tells two items apart (and sorts a map's keys); anything else short,
// as an operand, a list keeping its closing bracket.
func valueLabel(v ref.Val) string {
	if _, ok := v.(types.String); ok {
		s, _ := unquote(write(v, whole, false))
		return bounded(s, maxValue)
	}
	return short(v)
}

// checksTable lists a tool's checks with the credit each earned.
func checksTable(w io.Writer, checks []report.Check) {
	rows := [][]string{{"check", "points", "credit", ""}}
	for _, c := range checks {
		rows = append(rows, []string{printable(c.Name), exactText(c.Points), creditText(c), checkNote(c)})
	}
	columns.Write(w, "  ", "lrrl", rows)
}

func creditText(c report.Check) string {
	if !c.Items || c.Skipped {
		return exactText(c.Credit)
	}
	if c.Total == 0 {
		return "1"
	}
	return fmt.Sprintf("%d/%d", c.Passed, c.Total)
}

func checkNote(c report.Check) string {
	switch {
	case c.Error != "":
		// Whole, up to maxValue: the rubric's author reads the
		// error to mend a formula.
		return bounded("error: "+oneLine(c.Error), maxValue)
	case c.Skipped:
		return "skipped: an earlier check stopped scoring"
	case c.Items && c.Total == 0:
		return "no items: full credit"
	case len(c.Failed) > 0:
		names := make([]string, len(c.Failed))
		for i, f := range c.Failed {
			names[i] = oneLine(f)
		}
		return bounded("failed: "+strings.Join(names, ", "), maxValue)
	case c.Credit == "0":
		return "failed"
	}
	return ""
}

// subjectText writes what an answer is about (a tool's name, or a
// pair of tools') whole, on one line, up to maxValue characters: cut
// shorter, two subjects that differ only past the cut read as one.
func subjectText(s string) string { return bounded(oneLine(s), maxValue) }

// answers writes where each answer read came from.
func (x *run) answers(w io.Writer, reads []read, obs []report.Observation) {
	var lines []string
	seen := map[string]bool{}
	for _, rd := range reads {
		if rd.ref.Var() != "answers" || len(rd.ref.Path) < 2 || seen[rd.ref.Path[1]] {
			continue
		}
		q := rd.ref.Path[1]
		seen[q] = true
		found := false
		for _, o := range obs {
			if o.Question != q {
				continue
			}
			found = true
			how := "asked"
			if o.Cached {
				how = "from the cache"
			}
			subject := ""
			if x.req.Tool == "" && o.Subject != "" {
				subject = " about " + subjectText(o.Subject)
			}
			line := fmt.Sprintf("answer to question %s (%s)%s, model %s, %s, input %s",
				oneLine(o.Question), oneLine(o.Kind), subject, oneLine(o.Model), how, report.ShortHash(oneLine(o.InputHash)))
			for _, t := range answerTexts(o.Answer) {
				line += "\n  " + t
			}
			lines = append(lines, line)
		}
		if !found {
			lines = append(lines, fmt.Sprintf("question %s was not asked here: its answer reads as null", q))
		}
	}
	if len(lines) > 12 {
		more := len(lines) - 12
		lines = append(lines[:12], fmt.Sprintf("… and %d more answers", more))
	}
	if len(lines) > 0 {
		fmt.Fprintln(w)
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
}

// answerTexts lists the text an answer gives (a judge's justifications,
// its summary), each whole on one line after its path in the answer, in
// the order of the paths: the values above show strings short, and the
// sentence a maintainer reads the score by must not be cut.
func answerTexts(raw json.RawMessage) []string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case string:
			if t := oneLine(x); t != "" {
				out = append(out, path+": "+t)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				p := printable(k)
				if path != "" {
					p = path + "." + p
				}
				walk(p, x[k])
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("", v)
	return out
}

func readsAny(reads []read, vars ...string) bool {
	for _, rd := range reads {
		if slices.Contains(vars, rd.ref.Var()) {
			return true
		}
	}
	return false
}

func gradeBand(r *rubric.Rubric, letter string) string {
	for i, g := range r.Grades {
		if g.Letter != letter {
			continue
		}
		if i == 0 {
			return fmt.Sprintf("score >= %s", g.Min)
		}
		return fmt.Sprintf("%s <= score < %s", g.Min, r.Grades[i-1].Min)
	}
	return "below every band"
}

// exactText writes an exact value from a report as a decimal, with the
// fraction when it is short. A value that is not a number is written
// quoted and whole up to maxValue characters, as any value is: it is
// what the author of a formula that gave a string needs to read.
func exactText(s string) string {
	n, err := num.Parse(s)
	if err != nil {
		return fmt.Sprintf("%q (not a number)", bounded(printable(s), maxValue))
	}
	return numLong(n)
}

// table writes rows in columns two spaces apart, left aligned.
func table(w io.Writer, indent string, rows [][]string) { columns.Write(w, indent, "", rows) }

// scalar reports whether a read value is a single value: a number, a
// string, a boolean or null.
func scalar(v any) bool {
	switch v.(type) {
	case nil, types.Null, types.Bool, types.String, types.Int, types.Uint, types.Double, lang.Num:
		return true
	}
	return false
}
