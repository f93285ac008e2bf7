package rubric

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/internal/nearest"
)

// formulaAt is where a formula is written: its attribute's expression and
// its text.
type formulaAt struct {
	rng hcl.Range
	src string
}

// checkReferences finds, when the rubric loads, what would otherwise fail
// only when a surface is scored: a formula that reads answers.NAME when no
// question is called NAME, or metrics.NAME when no metric of its block is
// (or, in a metric, when NAME is the metric itself or one below it, which
// it cannot see: metrics are computed in order).
func (l *loader) checkReferences(r *Rubric) {
	l.weightReferences(r)
	l.nameReferences(r)
	l.readOrder(r.Tool.Signals, "signals", "signal")
	l.readOrder(r.Surface.Signals, "surface_signals", "surface signal")
	l.unreadWeights(r)
	questions := make([]string, len(r.Questions))
	for i, q := range r.Questions {
		questions[i] = q.Name
	}
	for _, lv := range []struct {
		name  string
		level *Level
	}{{"tool", &r.Tool}, {"surface", &r.Surface}} {
		// A metric sees the metrics above it, as a signal sees the
		// signals before it.
		l.readOrder(lv.level.Metrics, "metrics", "metric")
		var all []string
		var formulas []*lang.Program
		for _, m := range lv.level.Metrics {
			all = append(all, m.Name)
			formulas = append(formulas, m.Value)
		}
		formulas = append(formulas, lv.level.Score, lv.level.Issues, lv.level.Warnings, lv.level.Invalid)
		for _, rep := range lv.level.Reports {
			for _, f := range rep.Fields {
				formulas = append(formulas, f.Value)
			}
		}
		for _, p := range formulas {
			l.references(p, questions, all, lv.name)
		}
	}
}

// references checks that the answers and metrics one formula reads are
// there (the order of metrics is readOrder's).
func (l *loader) references(p *lang.Program, questions, metrics []string, level string) {
	at, ok := l.at[p]
	if !ok {
		return
	}
	report := func(f lang.Field, msg string) {
		line, col := l.position(at.rng, at.src, f.Line, f.Col)
		l.diags = append(l.diags, Diagnostic{File: l.fileOf(at.rng), Line: line, Col: col, Msg: msg})
	}
	for _, f := range p.FieldsOf("answers") {
		if !slices.Contains(questions, f.Name) {
			report(f, fmt.Sprintf("answers.%s names no question: the rubric's questions are %s", f.Name, list(questions)))
		}
	}
	for _, f := range p.FieldsOf("metrics") {
		if !slices.Contains(metrics, f.Name) {
			report(f, fmt.Sprintf("metrics.%s names no metric of the %s block: its metrics are %s", f.Name, level, list(metrics)))
		}
	}
}

// weightReferences finds every weights.NAME, in any formula, that names
// no weight of the rubric: it would fail on the first tool scored.
func (l *loader) weightReferences(r *Rubric) {
	names := make([]string, len(r.Weights))
	for i, w := range r.Weights {
		names[i] = w.Name
	}
	for p, at := range l.at {
		for _, f := range p.FieldsOf("weights") {
			if slices.Contains(names, f.Name) {
				continue
			}
			line, col := l.position(at.rng, at.src, f.Line, f.Col)
			msg := fmt.Sprintf("weights.%s names no weight: ", f.Name)
			if near := nearest.Key(f.Name, names); near != "" {
				msg += fmt.Sprintf("did you mean weights.%s? ", near)
			}
			if len(names) == 0 {
				msg += "the rubric declares none; add weights = { " + f.Name + " = 10 } to it"
			} else {
				msg += "the rubric's weights are " + list(names)
			}
			l.diags = append(l.diags, Diagnostic{File: l.fileOf(at.rng), Line: line, Col: col, Msg: msg})
		}
	}
}

// fieldsRead are the members p selects by name from the variable
// (variable.NAME) where the variable itself is read: a macro's variable
// of the same name (checks.map(check, check.points)) is not it.
func fieldsRead(p *lang.Program, variable string) []lang.Field {
	read := map[string]bool{}
	for _, r := range p.Refs() {
		if len(r.Path) > 1 && r.Path[0] == variable {
			read[r.Path[1]] = true
		}
	}
	return slices.DeleteFunc(p.FieldsOf(variable), func(f lang.Field) bool { return !read[f.Name] })
}

// nameReferences finds every check.NAME, signals.NAME and
// surface_signals.NAME, in any formula, that names no check or signal of
// the rubric: it would fail on the first tool scored, with "no such key",
// which reads like a member some tools lack.
func (l *loader) nameReferences(r *Rubric) {
	var checks, signals, surfaceSignals []string
	for _, c := range r.Checks {
		checks = append(checks, c.Name)
	}
	for _, m := range r.Tool.Signals {
		signals = append(signals, m.Name)
	}
	for _, m := range r.Surface.Signals {
		surfaceSignals = append(surfaceSignals, m.Name)
	}
	for _, v := range []struct {
		variable, what, all string
		names               []string
	}{
		{"check", "check", "the rubric's checks", checks},
		{"signals", "signal of the tool block", "the tool block's signals", signals},
		{"surface_signals", "signal of the surface block", "the surface block's signals", surfaceSignals},
	} {
		for p, at := range l.at {
			for _, f := range fieldsRead(p, v.variable) {
				if slices.Contains(v.names, f.Name) {
					continue
				}
				line, col := l.position(at.rng, at.src, f.Line, f.Col)
				msg := fmt.Sprintf("%s.%s names no %s: ", v.variable, f.Name, v.what)
				if near := nearest.Key(f.Name, v.names); near != "" {
					msg += fmt.Sprintf("did you mean %s.%s? ", v.variable, near)
				}
				if len(v.names) == 0 {
					msg += v.all + ": none"
				} else {
					msg += v.all + " are " + list(v.names)
				}
				l.diags = append(l.diags, Diagnostic{File: l.fileOf(at.rng), Line: line, Col: col, Msg: msg})
			}
		}
	}
}

// readOrder refuses a signal that reads a signal of its block
// (signals.NAME, or surface_signals.NAME in the surface block) that is
// not computed before it, and a metric that so reads a metric of its
// block (metrics.NAME): each is computed in the order written, seeing
// the ones before it (see eval.Signals), so such a read would fail on
// the first tool scored with "no such key", which reads like a
// misspelling of a name that is declared. A read through a let counts:
// the let is computed with the values before its reader. A value that
// reads itself, directly or around a cycle, is told so; one that reads
// a later value only, to declare it first.
func (l *loader) readOrder(values []*Metric, variable, what string) {
	index := make(map[string]int, len(values))
	for i, m := range values {
		index[m.Name] = i
	}
	reads := make([][]memberRead, len(values))
	graph := map[string][]string{}
	for i, m := range values {
		for _, rd := range memberReads(m.Value, variable) {
			if _, ok := index[rd.name]; !ok {
				continue // nameReferences says it names no value of the block
			}
			reads[i] = append(reads[i], rd)
			if !slices.Contains(graph[m.Name], rd.name) {
				graph[m.Name] = append(graph[m.Name], rd.name)
			}
		}
	}
	inCycle := map[string]bool{}
	seen := map[string]bool{}
	for i, m := range values {
		for _, rd := range reads[i] {
			if index[rd.name] < i {
				continue
			}
			read := fmt.Sprintf("%s.%s", variable, rd.name)
			if rd.let != "" {
				read += " (through let " + rd.let + ")"
			}
			var msg string
			switch back := pathFrom(rd.name, m.Name, graph); {
			case rd.name == m.Name:
				if rd.let != "" {
					read = fmt.Sprintf("%s.%s, through let %s", variable, rd.name, rd.let)
				}
				msg = fmt.Sprintf("%s %q reads itself (%s): a %s sees only the %ss declared before it, not its own value; compute %s from those",
					what, m.Name, read, what, what, m.Name)
			case back != nil:
				if inCycle[m.Name] && inCycle[rd.name] {
					continue // the cycle is reported at its first value
				}
				path := append([]string{m.Name}, back...)
				for _, name := range path {
					inCycle[name] = true
				}
				msg = fmt.Sprintf("%s %q reads %s, which reads %s back (%s): %ss are computed in the order written, so none of them can come first; compute what they share in a %s declared before them",
					what, m.Name, read, m.Name, strings.Join(path, " -> "), what, what)
			default:
				msg = fmt.Sprintf("%s %q reads %s, which is computed after it: %ss are computed in the order written, so declare %s before %s",
					what, m.Name, read, what, rd.name, m.Name)
			}
			// A signal that reads one name twice is told once, and a let
			// several values read, once, at its first reader.
			key := m.Name + "." + rd.name
			if rd.let != "" {
				key = fmt.Sprint(rd.at, " ", rd.let)
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			l.diags = append(l.diags, Diagnostic{File: rd.at.File, Line: rd.at.Line, Col: rd.at.Col, Msg: msg})
		}
	}
}

// pathFrom returns a path of reads from one name to another, from and
// to included, or nil when there is none.
func pathFrom(from, to string, reads map[string][]string) []string {
	seen := map[string]bool{from: true}
	var walk func(at string, path []string) []string
	walk = func(at string, path []string) []string {
		if at == to {
			return path
		}
		for _, next := range reads[at] {
			if seen[next] {
				continue
			}
			seen[next] = true
			if p := walk(next, append(path, next)); p != nil {
				return p
			}
		}
		return nil
	}
	return walk(from, []string{from})
}

// memberRead is a member a formula reads by name (signals.NAME): the
// name, where it is written in the file, and the let it is read through
// ("" when it is in the formula's own text).
type memberRead struct {
	name string
	at   lang.Place
	let  string
}

// memberReads are the members p reads of the variable by name, in its
// own text and in the text of each let it reads, each placed in the file
// where that text is written. (p's FieldsOf alone would place a member
// a let reads at a column of the text compiled with the lets bound
// around the formula, which is no place in the file.) A macro's variable
// of the variable's name is not the variable.
func memberReads(p *lang.Program, variable string) []memberRead {
	o, ok := p.Origin()
	if !ok {
		return nil
	}
	own, lets := p.Apart()
	if own == nil {
		own = p
	}
	var out []memberRead
	add := func(prg *lang.Program, o lang.Origin, let string) {
		for _, f := range fieldsRead(prg, variable) {
			line, col := f.Line, f.Col
			if !strings.HasPrefix(lang.TextFrom(prg.Source, line, col), variable) {
				// Not a place in prg's own text: that of the formula
				// compiled with its lets bound around it, when it
				// could not be compiled apart. Its start is named.
				line, col = 1, 1
			}
			out = append(out, memberRead{name: f.Name, at: o.At(line, col), let: let})
		}
	}
	add(own, o, "")
	for _, let := range lets {
		if lo, ok := let.Program.Origin(); ok {
			add(let.Program, lo, let.Name)
		}
	}
	return out
}

// unreadWeights finds every weight that is neither a check's points nor
// read by any formula (weights.NAME) or max block: a slip, such as a
// weight for a check that was renamed, which would move no score. A
// formula that reads the weights whole (weights[name]) may read any. It
// judges only a rubric with no other error: a formula that did not
// compile reads what it reads unseen, and its weights would be taken
// for unread.
func (l *loader) unreadWeights(r *Rubric) {
	if l.hclWeights[""] || len(l.diags) > 0 {
		return
	}
	checks := make([]string, len(r.Checks))
	read := map[string]bool{}
	for i, c := range r.Checks {
		checks[i] = c.Name
		read[c.Name] = true
	}
	for name := range l.hclWeights {
		read[name] = true
	}
	for p := range l.at {
		for _, ref := range p.Refs() {
			if ref.Var() != "weights" {
				continue
			}
			if len(ref.Path) == 1 {
				return
			}
			read[ref.Path[1]] = true
		}
	}
	for _, w := range r.Weights {
		at, ok := l.weightKeys[w.Name]
		if read[w.Name] || !ok {
			continue
		}
		msg := fmt.Sprintf("weight %s names no check and no formula reads weights.%s", w.Name, w.Name)
		if near := nearest.Key(w.Name, checks); near != "" {
			msg += fmt.Sprintf(": did you mean check %s?", near)
		} else {
			msg += ": remove it, or read it in a formula"
		}
		l.errorf(at, "%s", msg)
	}
}

func list(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}
