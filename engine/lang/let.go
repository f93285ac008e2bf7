package lang

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
)

// Let is a named expression of a rubric (a let block): a formula that
// names it reads its value. A formula that does not name it is compiled
// exactly as without it. One that does is compiled twice: with the let
// bound around it as cel.bind (what Eval, Trace, Refs and the canonical
// form see, so the digest is that of the formula with the let written
// out), and apart, reading the let as a variable of its checked type
// (see Apart), so that a scope can compute each let once for every
// formula of its block that reads it.
type Let struct {
	Name string
	Src  string
}

// LetName is what a let may be called: a CEL identifier.
var LetName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Idents returns the names src reads as variables or lets: the free
// identifiers, each once, in the order first met; a macro's own variable
// (c in checks.map(c, ...)) is left out where it is bound. Nil when src
// does not parse (compiling it says why).
func (e *Env) Idents(src string) []string {
	parsed, iss := e.env.Parse(src)
	if iss.Err() != nil {
		return nil
	}
	var out []string
	freeIdents(parsed.NativeRep().Expr(), func(name string) {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	})
	return out
}

// freeIdents calls visit with each identifier x reads from outside it,
// in the order met (a name read twice is visited twice): its identifiers
// less those a comprehension around them binds (a macro's iteration
// variables and accumulator), which hold values the formula computed. A
// comprehension variable named like a variable hides it only within its
// comprehension.
func freeIdents(x celast.Expr, visit func(name string)) {
	var walk func(x celast.Expr, bound map[string]bool)
	walk = func(x celast.Expr, bound map[string]bool) {
		switch x.Kind() {
		case celast.IdentKind:
			if name := x.AsIdent(); !bound[name] {
				visit(name)
			}
		case celast.ComprehensionKind:
			c := x.AsComprehension()
			walk(c.IterRange(), bound)
			walk(c.AccuInit(), bound)
			inner := make(map[string]bool, len(bound)+3)
			for k := range bound {
				inner[k] = true
			}
			inner[c.IterVar()], inner[c.AccuVar()] = true, true
			if c.HasIterVar2() {
				inner[c.IterVar2()] = true
			}
			walk(c.LoopCondition(), inner)
			walk(c.LoopStep(), inner)
			walk(c.Result(), inner)
		default:
			eachOperand(x, func(y celast.Expr) { walk(y, bound) })
		}
	}
	walk(x, nil)
}

// eachOperand calls f with each expression x is made of, in order, for
// every kind but a comprehension, whose parts the callers read in their
// own scopes: a selection's operand, a call's target and arguments, a
// list's elements, a map's keys and values, a message's field values.
func eachOperand(x celast.Expr, f func(celast.Expr)) {
	switch x.Kind() {
	case celast.SelectKind:
		f(x.AsSelect().Operand())
	case celast.CallKind:
		c := x.AsCall()
		if c.IsMemberFunction() {
			f(c.Target())
		}
		for _, a := range c.Args() {
			f(a)
		}
	case celast.ListKind:
		for _, el := range x.AsList().Elements() {
			f(el)
		}
	case celast.MapKind:
		for _, en := range x.AsMap().Entries() {
			me := en.AsMapEntry()
			f(me.Key())
			f(me.Value())
		}
	case celast.StructKind:
		for _, fl := range x.AsStruct().Fields() {
			f(fl.AsStructField().Value())
		}
	}
}

// letsFor returns the lets src needs, those it names and those they
// name in turn, each after the lets it names. lets must hold no cycle
// (the loader refuses one first).
func (e *Env) letsFor(src string, lets []Let) []Let {
	if len(lets) == 0 {
		return nil // nothing to look for: src is parsed once, when compiled
	}
	byName := make(map[string]Let, len(lets))
	for _, l := range lets {
		byName[l.Name] = l
	}
	var out []Let
	seen := map[string]bool{}
	var visit func(src string, depth int)
	visit = func(src string, depth int) {
		if depth > len(lets) {
			return // a cycle: refused by the loader
		}
		for _, name := range e.Idents(src) {
			l, ok := byName[name]
			if !ok || seen[name] {
				continue
			}
			seen[name] = true
			visit(l.Src, depth+1)
			out = append(out, l)
		}
	}
	visit(src, 0)
	return out
}

// CompileLets is CompileWith for a formula that may name lets. A Diag
// in a let's own text has Let set to its name, with Line and Col inside
// that text.
func (e *Env) CompileLets(src string, want *cel.Type, globals map[string]any, lets []Let) (*Program, []Diag) {
	need := e.letsFor(src, lets)
	if len(need) == 0 {
		return e.CompileWith(src, want, globals)
	}
	// cel.bind(a, (A), cel.bind(b, (B), (formula))): a let is bound
	// around the lets that read it, and the formula innermost.
	var b strings.Builder
	type span struct {
		name       string
		start, end int // byte offsets in the combined text
	}
	var spans []span
	for _, l := range need {
		b.WriteString("cel.bind(" + l.Name + ", (")
		start := b.Len()
		b.WriteString(l.Src)
		spans = append(spans, span{l.Name, start, b.Len()})
		b.WriteString("\n), ")
	}
	b.WriteString("(")
	start := b.Len()
	b.WriteString(src)
	spans = append(spans, span{"", start, b.Len()})
	b.WriteString("\n)" + strings.Repeat(")", len(need)))
	combined := b.String()
	p, ds := e.CompileWith(combined, want, globals)
	if p != nil {
		p.Source = src
		p.apart = e.compileApart(src, want, globals, need)
	}
	// Map each position back into the text it is in.
	for i, d := range ds {
		off := offsetOf(combined, d.Line, d.Col)
		for _, s := range spans {
			if off >= s.start && off <= s.end {
				line, col := lineCol(combined[s.start:], off-s.start)
				d.Line, d.Col, d.Let = line, col, s.name
				ds[i] = d
				break
			}
		}
	}
	return p, ds
}

// LetProgram is a let compiled on its own, to be computed once and
// read by every formula of its block that names it (see Program.Apart).
type LetProgram struct {
	// Name is the let's name.
	Name string
	// Key identifies the let by its name, its text and the keys of the
	// lets it reads: two lets with one key compute the same value from
	// the same variables.
	Key string
	// Program is the let's own formula; the lets it reads are variables
	// of it, given by its Apart.
	Program *Program
	// reads are the variables the let reads, through the lets it reads
	// too.
	reads map[string]bool
}

// Reads reports whether the let's value depends on the variable name,
// directly or through a let it reads: when name changes, the value must
// be computed again.
func (l *LetProgram) Reads(name string) bool { return l.reads[name] }

// apartForm is a formula compiled to read its lets as variables.
type apartForm struct {
	prg  *Program
	lets []*LetProgram
}

// Apart returns the formula compiled to read the lets it names as
// variables, and those lets (each compiled on its own, and reading the
// lets it names alike); nil when the formula names no let. The caller
// evaluates it in an activation that gives each let's value.
func (p *Program) Apart() (*Program, []*LetProgram) {
	if p == nil || p.apart == nil {
		return nil, nil
	}
	return p.apart.prg, p.apart.lets
}

// MayRead says whether evaluating p may read the variable name: when p
// names it, or reads lets, which are not looked into. A nil p reads
// nothing.
func (p *Program) MayRead(name string) bool {
	if p == nil {
		return false
	}
	_, lets := p.Apart()
	return p.Uses(name) || len(lets) > 0
}

// compileApart compiles src and the lets it needs (need, each after the
// lets it reads) apart; nil when any of them does not compile so (the
// formula is then evaluated with its lets bound around it).
func (e *Env) compileApart(src string, want *cel.Type, globals map[string]any, need []Let) *apartForm {
	compiled := make(map[string]*LetProgram, len(need))
	for _, l := range need {
		prg, deps := e.compileReading(l.Src, nil, globals, compiled)
		if prg == nil {
			return nil
		}
		key := l.Name + "=" + l.Src
		reads := map[string]bool{}
		for name := range prg.reads {
			reads[name] = true
		}
		if len(deps) > 0 {
			keys := make([]string, len(deps))
			for i, d := range deps {
				keys[i] = d.Key
				for name := range d.reads {
					reads[name] = true
				}
			}
			key += "{" + strings.Join(keys, ";") + "}"
		}
		compiled[l.Name] = &LetProgram{Name: l.Name, Key: key, Program: prg, reads: reads}
	}
	prg, deps := e.compileReading(src, want, globals, compiled)
	if prg == nil {
		return nil
	}
	return &apartForm{prg: prg, lets: deps}
}

// compileReading compiles src in e with each of the lets it names
// among compiled declared as a variable of the let's type; it returns
// the program, with its Apart set, and those lets.
func (e *Env) compileReading(src string, want *cel.Type, globals map[string]any, compiled map[string]*LetProgram) (*Program, []*LetProgram) {
	var deps []*LetProgram
	var vars []Var
	for _, name := range e.Idents(src) {
		if l, ok := compiled[name]; ok {
			deps = append(deps, l)
			vars = append(vars, Var{Name: name, Type: l.Program.Out})
		}
	}
	sub := e
	if len(vars) > 0 {
		ext, err := e.env.Extend(variableOptions(vars)...)
		if err != nil {
			return nil, nil
		}
		sub = &Env{env: ext, vars: e.vars}
		if e.key != "" {
			sub.key = varsKey(e.key+"+", vars)
		}
	}
	prg, ds := sub.CompileWith(src, want, globals)
	if prg == nil || len(ds) > 0 {
		return nil, nil
	}
	if len(deps) > 0 {
		prg.apart = &apartForm{prg: prg, lets: deps}
	}
	return prg, deps
}

// offsetOf is the byte offset of a 1-based line and column (counted in
// characters, as CEL counts) of text.
func offsetOf(text string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	for c := 1; c < col && off < len(text) && text[off] != '\n'; c++ {
		_, size := utf8.DecodeRuneInString(text[off:])
		off += size
	}
	return off
}

// TextFrom is text from a 1-based line and column (in characters, as
// CEL counts them) on: what a Field's place points at.
func TextFrom(text string, line, col int) string { return text[offsetOf(text, line, col):] }

// lineCol is the 1-based line and column (in characters) of a byte
// offset of text.
func lineCol(text string, off int) (int, int) {
	line, col := 1, 1
	for i := 0; i < off && i < len(text); {
		if text[i] == '\n' {
			line, col = line+1, 1
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
		col++
	}
	return line, col
}

// ParseDiags reports what keeps src from parsing, nothing when it parses.
func (e *Env) ParseDiags(src string) []Diag {
	if _, iss := e.env.Parse(src); iss.Err() != nil {
		return diags(iss)
	}
	return nil
}
