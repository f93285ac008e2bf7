package lang

import (
	"slices"
	"strings"

	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// Ref is a read of a variable in a formula, with the members selected
// from it: metrics.weighted, answers.tool.scores.purpose_clarity.score,
// checks. It is found in the formula's syntax tree, not its text.
type Ref struct {
	// ID is the expression of the whole read (the last member selected).
	ID int64
	// Path is the variable, then each member: ["metrics", "weighted"].
	Path []string
}

// String writes the read as a formula would: metrics.weighted.
func (r Ref) String() string { return strings.Join(r.Path, ".") }

// Var is the variable read.
func (r Ref) Var() string { return r.Path[0] }

// Refs are the reads of variables in the formula, in the order they are
// written, each distinct read once. A member chosen by a constant string
// index (metrics.scores['x']) is a member like any other; one chosen by a
// computed index (metrics.scores[d]) ends the path before it. A presence
// test (has(tool.title)) reads its operand, not the member it tests.
func (p *Program) Refs() []Ref {
	if p == nil || p.checked == nil {
		return nil
	}
	a := p.checked.NativeRep()
	refs := a.ReferenceMap()
	var out []Ref
	seen := map[string]bool{}
	var visit func(e celast.NavigableExpr, locals []string)
	visit = func(e celast.NavigableExpr, locals []string) {
		switch e.Kind() {
		case celast.IdentKind:
			name := e.AsIdent()
			if r, ok := refs[e.ID()]; !ok || r.Value != nil || r.Name != name || slices.Contains(locals, name) {
				return
			}
			ref := Ref{ID: e.ID(), Path: []string{name}}
			for cur := e; ; {
				parent, ok := cur.Parent()
				if !ok {
					break
				}
				field, ok := member(parent, cur)
				if !ok {
					break
				}
				ref.Path = append(ref.Path, field)
				ref.ID = parent.ID()
				cur = parent
			}
			if k := ref.String(); !seen[k] {
				seen[k] = true
				out = append(out, ref)
			}
			return
		case celast.ComprehensionKind:
			c := e.AsComprehension()
			kids := e.Children()
			// Children are range, accumulator init, condition, step, result:
			// the loop variables are bound in the condition and the step,
			// the accumulator also in the result.
			inner := append(append([]string{}, locals...), c.AccuVar(), c.IterVar())
			if c.HasIterVar2() {
				inner = append(inner, c.IterVar2())
			}
			for i, k := range kids {
				switch i {
				case 0, 1:
					visit(k, locals)
				case 4:
					visit(k, append(append([]string{}, locals...), c.AccuVar()))
				default:
					visit(k, inner)
				}
			}
			return
		}
		for _, k := range e.Children() {
			visit(k, locals)
		}
	}
	visit(celast.NavigateAST(a), nil)
	return out
}

// Reads reports whether the formula reads the variable path (a prefix of
// one of its reads): Reads("metrics", "overall").
func (p *Program) Reads(path ...string) bool {
	for _, r := range p.Refs() {
		if len(r.Path) >= len(path) && slices.Equal(r.Path[:len(path)], path) {
			return true
		}
	}
	return false
}

// Alias reports whether the formula is nothing but one read: its value
// is the value of that variable path (metrics.overall, score).
func (p *Program) Alias() (Ref, bool) {
	if p == nil || p.checked == nil {
		return Ref{}, false
	}
	root := p.checked.NativeRep().Expr().ID()
	for _, r := range p.Refs() {
		if r.ID == root {
			return r, true
		}
	}
	return Ref{}, false
}

// member is the member name parent selects from e: a field, or a
// constant string index; false when parent is anything else.
func member(parent, e celast.NavigableExpr) (string, bool) {
	switch parent.Kind() {
	case celast.SelectKind:
		s := parent.AsSelect()
		if s.IsTestOnly() || s.Operand().ID() != e.ID() {
			return "", false
		}
		return s.FieldName(), true
	case celast.CallKind:
		c := parent.AsCall()
		if c.FunctionName() != operators.Index || len(c.Args()) != 2 || c.Args()[0].ID() != e.ID() {
			return "", false
		}
		key := c.Args()[1]
		if key.Kind() != celast.LiteralKind {
			return "", false
		}
		s, ok := key.AsLiteral().(types.String)
		return string(s), ok
	}
	return "", false
}

// Value is what the read yields in act: the variable, then each member
// of it in turn; false when the variable or a member is missing.
func (r Ref) Value(act interpreter.Activation) (ref.Val, bool) {
	x, ok := act.ResolveName(r.Path[0])
	if !ok {
		return nil, false
	}
	v := Adapter.NativeToValue(x)
	for _, f := range r.Path[1:] {
		m, ok := v.(traits.Mapper)
		if !ok {
			return nil, false
		}
		if v, ok = m.Find(types.String(f)); !ok {
			return nil, false
		}
	}
	return v, true
}
