package lang

import (
	"cmp"
	"slices"

	celast "github.com/google/cel-go/common/ast"
)

// Field is a member a formula selects by name from one of its variables,
// such as tasks in answers.tasks, and where: a 1-based line and column in
// the formula, as in Diag.
type Field struct {
	Name      string
	Line, Col int
}

// FieldsOf returns the members the formula selects by name from the
// variable (variable.NAME), in the order they are written, so that a
// loader can check them against what the variable will hold. Presence
// tests (has(variable.NAME)) are left out: they ask whether a member is
// there.
func (p *Program) FieldsOf(variable string) []Field {
	if p == nil || p.checked == nil {
		return nil
	}
	a := p.checked.NativeRep()
	refs := a.ReferenceMap()
	info := a.SourceInfo()
	var out []Field
	celast.PostOrderVisit(a.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		if e.Kind() != celast.SelectKind {
			return
		}
		sel := e.AsSelect()
		op := sel.Operand()
		if sel.IsTestOnly() || op.Kind() != celast.IdentKind || op.AsIdent() != variable {
			return
		}
		if r, ok := refs[op.ID()]; !ok || r.Name != variable {
			return // a local of the same name (a macro's variable)
		}
		loc := info.GetStartLocation(op.ID())
		out = append(out, Field{Name: sel.FieldName(), Line: max(loc.Line(), 1), Col: max(loc.Column()+1, 1)})
	}))
	slices.SortStableFunc(out, func(a, b Field) int { return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col)) })
	return out
}
