package rubric

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/internal/nearest"
)

// letSchema is a let block: attributes only, each a named CEL expression.
var letSchema = &hcl.BlockHeaderSchema{Type: "let"}

// letAt is where a let is declared, for its messages.
type letAt struct {
	formulaAt
	name hcl.Range
}

// lets reads the let blocks among blocks (at most one) and returns the
// lets they declare, after those already in scope (outer): a let of the
// rubric is seen by every formula, a let of a check or of the tool or
// surface block by that block's formulas.
func (l *loader) lets(blocks hcl.Blocks, outer []lang.Let) []lang.Let {
	var b *hcl.Block
	for _, x := range blocks {
		if x.Type != "let" {
			continue
		}
		if b != nil {
			l.errorf(x.DefRange, "only one let block is allowed here (first at line %d): put every let in it", b.DefRange.Start.Line)
			continue
		}
		b = x
	}
	if b == nil {
		return outer
	}
	attrs, ds := b.Body.JustAttributes()
	if l.hclDiags(ds) {
		return outer
	}
	named := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		named = append(named, a)
	}
	slices.SortFunc(named, func(a, b *hcl.Attribute) int { return a.NameRange.Start.Byte - b.NameRange.Start.Byte })
	out := slices.Clip(outer)
	start := len(out)
	for _, a := range named {
		if !lang.LetName.MatchString(a.Name) {
			l.errorf(a.NameRange, "let %s: a let is named like a CEL variable (letters, digits and _), such as described_params", a.Name)
			continue
		}
		if slices.Contains(celWords, a.Name) {
			l.errorf(a.NameRange, "let %s: %s is a word of CEL's own: name the let otherwise", a.Name, a.Name)
			continue
		}
		if slices.Contains(variableNames(), a.Name) {
			l.errorf(a.NameRange, "let %s has the name of a variable formulas see: name it otherwise", a.Name)
			continue
		}
		if i := slices.IndexFunc(out, func(o lang.Let) bool { return o.Name == a.Name }); i >= 0 {
			l.errorf(a.NameRange, "let %s is already declared (line %d): a let is declared once where its formulas see it", a.Name, l.letsAt[a.Name].name.Start.Line)
			continue
		}
		src, ok := l.strOK(a)
		if !ok {
			continue
		}
		if strings.TrimSpace(src) == "" {
			l.errorf(a.Expr.Range(), "let %s is empty: write a formula", a.Name)
			continue
		}
		if l.letsAt == nil {
			l.letsAt = map[string]letAt{}
		}
		l.letsAt[a.Name] = letAt{formulaAt{a.Expr.Range(), src}, a.NameRange}
		// A let that does not parse is reported once, here, whether or
		// not a formula reads it.
		for _, d := range l.envs.check.ParseDiags(src) {
			l.letDiag(a.Name, d, "", "")
		}
		out = append(out, lang.Let{Name: a.Name, Src: src})
	}
	l.letCycles(out, start)
	return out
}

// letCycles refuses a let that reads itself, directly or through others
// (the new lets are lets[start:]): it could never be computed.
func (l *loader) letCycles(lets []lang.Let, start int) {
	reads := map[string][]string{}
	for _, x := range lets {
		for _, name := range l.envs.check.Idents(x.Src) {
			if slices.ContainsFunc(lets, func(o lang.Let) bool { return o.Name == name }) {
				reads[x.Name] = append(reads[x.Name], name)
			}
		}
	}
	inCycle := map[string]bool{}
	for _, x := range lets[start:] {
		if inCycle[x.Name] {
			continue // its cycle is reported at its first let
		}
		if path := cycleFrom(x.Name, reads); path != nil {
			if l.cyclic == nil {
				l.cyclic = map[string]bool{}
			}
			for _, name := range path {
				inCycle[name] = true
				l.cyclic[name] = true
			}
			at := l.letsAt[x.Name]
			l.errorf(at.name, "let %s reads itself (%s): a let cannot be computed from its own value; compute the shared part in a let of its own", x.Name, strings.Join(path, " -> "))
		}
	}
}

// cycleFrom returns a path of reads from name back to name, or nil.
func cycleFrom(name string, reads map[string][]string) []string {
	for _, next := range reads[name] {
		if p := pathFrom(next, name, reads); p != nil {
			return append([]string{name}, p...)
		}
	}
	return nil
}

// letDiag reports a problem in the text of a let, at its place in the
// file; by names the formula that read it, when the problem is one of
// that formula's variables.
func (l *loader) letDiag(name string, d lang.Diag, by, hint string) {
	at := l.letsAt[name]
	line, col := l.position(at.rng, at.src, d.Line, d.Col)
	msg := fmt.Sprintf("let %s: %s%s", name, d.Msg, hint)
	if by != "" {
		msg = fmt.Sprintf("let %s, read by %s: %s%s", name, by, d.Msg, hint)
	}
	diag := Diagnostic{File: l.fileOf(at.rng), Line: line, Col: col, Msg: msg}
	// A let read by many formulas fails alike in each: say it once.
	key := fmt.Sprint(diag.File, diag.Line, diag.Col)
	if l.letSeen[key] {
		return
	}
	if l.letSeen == nil {
		l.letSeen = map[string]bool{}
	}
	l.letSeen[key] = true
	l.diags = append(l.diags, diag)
}

// variableNames are the names of every variable some formula sees: a
// let may not take one.
func variableNames() []string {
	var out []string
	for _, vs := range [][]lang.Var{CheckVars, MessageVars, SignalVars, ToolReportVars, ItemVars, SurfaceReportVars, SurfaceSignalVars, {WeightsVar}} {
		for _, v := range vs {
			if !slices.Contains(out, v.Name) {
				out = append(out, v.Name)
			}
		}
	}
	return out
}

// nameHint is what to add to a message about a name env does not
// declare: the let in scope nearest to it, else the nearest variable,
// function or macro the formula could have meant.
func (l *loader) nameHint(env *lang.Env, d lang.Diag) string {
	if d.Undeclared == "" {
		return ""
	}
	names := make([]string, len(l.scope))
	for i, x := range l.scope {
		names[i] = x.Name
	}
	if near := nearest.Key(d.Undeclared, names); near != "" {
		return ": did you mean the let " + near + "?"
	}
	near := nearest.Key(d.Undeclared, env.Names())
	if near == d.Undeclared {
		near = ""
	}
	// A variable of another stage (tools in a tool's score, answers in
	// a check) is no misspelling: say where it is seen. A near name
	// (items for item in a message) may still be what was meant.
	if where, ok := seenBy[d.Undeclared]; ok {
		hint := ": " + d.Undeclared + " is seen by " + where + ", not here"
		if near != "" && !slices.Contains(typeNames, near) {
			hint += "; did you mean " + near + "?"
		}
		return hint
	}
	if near != "" {
		return ": did you mean " + near + "?"
	}
	return ""
}

// seenBy says, for each variable a formula may see, which formulas see
// it (README, "What each formula sees"), for a formula that reads it
// where it is not seen.
var seenBy = map[string]string{
	"tool":            "checks, the tool block's signals, metrics, score, issues and report, and tool questions (the surface block's metrics and score see tools)",
	"tools":           "the surface block's metrics, score, warnings, invalid and report (not its signals, computed before any tool is scored)",
	"item":            "a check with each and a question per item",
	"items":           "a check's issue = cel(...)",
	"checks":          "the tool block's signals, metrics, score, issues and report, and tool questions",
	"check":           "the tool block's signals, metrics, score, issues and report, and tool questions",
	"signals":         "the tool block's later signals, metrics, score, issues and report, and tool questions",
	"answers":         "the tool block's metrics, score, issues and report, surface questions and the surface block's metrics, score and report (not a signal, computed before any question is asked)",
	"surface_answers": "the tool block's metrics, score, issues and report",
	"tool_answers":    "surface questions",
	"metrics":         "the metrics, score, issues and report of the tool and surface blocks",
	"usage":           "the surface block's metrics, score and report",
	"grades":          "the metrics, score, issues and report of the tool and surface blocks",
	"score":           "report blocks",
	"grade":           "report blocks",
	"index":           "a question per item",
	"surface":         "every formula but a check's",
	"surface_signals": "every formula but a check's",
}

// typeNames are CEL's names of types, which a formula may call (int(x))
// but which are never the variable a misplaced one was meant as (bool
// for tool).
var typeNames = []string{"bool", "bytes", "double", "dyn", "int", "list", "map", "null_type", "string", "type", "uint"}

// celWords are CEL's literals and reserved words, which no let may take
// (and cel, whose bind carries the lets).
var celWords = []string{"true", "false", "null", "in", "as", "break", "const", "continue", "else", "for",
	"function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while", "cel"}
