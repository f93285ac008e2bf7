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

// Member is a chain of members a formula selects by name from one of its
// variables, presence tests (has(tool.title)) and optional selections
// (tool.?title) included, and where the first member is written.
type Member struct {
	Path      []string // the members, after the variable
	Line, Col int
}

// MembersOf returns every chain of named members the formula selects
// from the variable, longest first for each expression, so that a loader
// can check each name against a declared type: tool.annotations.readOnlyHint
// gives [annotations readOnlyHint]. A local of the same name is skipped.
func (p *Program) MembersOf(variable string) []Member {
	if p == nil || p.checked == nil {
		return nil
	}
	a := p.checked.NativeRep()
	refs := a.ReferenceMap()
	info := a.SourceInfo()
	// chain returns the members e selects from variable, outermost last.
	var chain func(e celast.Expr) ([]string, int64, bool)
	chain = func(e celast.Expr) ([]string, int64, bool) {
		switch e.Kind() {
		case celast.IdentKind:
			if e.AsIdent() != variable {
				return nil, 0, false
			}
			if r, ok := refs[e.ID()]; !ok || r.Name != variable {
				return nil, 0, false
			}
			return []string{}, e.ID(), true
		case celast.SelectKind:
			sel := e.AsSelect()
			path, id, ok := chain(sel.Operand())
			if !ok {
				return nil, 0, false
			}
			return append(path, sel.FieldName()), id, true
		case celast.CallKind:
			c := e.AsCall()
			if c.FunctionName() != "_?._" || len(c.Args()) != 2 || c.Args()[1].Kind() != celast.LiteralKind {
				return nil, 0, false
			}
			name, ok := c.Args()[1].AsLiteral().Value().(string)
			if !ok {
				return nil, 0, false
			}
			path, id, ok := chain(c.Args()[0])
			if !ok {
				return nil, 0, false
			}
			return append(path, name), id, true
		}
		return nil, 0, false
	}
	var out []Member
	celast.PostOrderVisit(a.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		path, id, ok := chain(e)
		if !ok || len(path) == 0 {
			return
		}
		loc := info.GetStartLocation(id)
		out = append(out, Member{Path: path, Line: max(loc.Line(), 1), Col: max(loc.Column()+1, 1)})
	}))
	return out
}
