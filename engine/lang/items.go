package lang

import (
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
)

// ItemMembers reports which members of the items of the list
// variable.field (the tools of surface.tools) the formula reads, found in
// its syntax tree: every member of a macro's variable that ranges over
// the list, selected (t.name in surface.tools.map(t, t.name)), tested
// with has(), indexed by a string literal (t['name']) or tested for with
// in ('name' in t). The formula's value is then the same whether each
// item is the whole object or only those of its members it has: a caller
// may build the items so.
//
// ok is false when the formula reads the list in any other way, so that
// an item itself, not only members of it, could reach a value or a
// function (surface.tools.filter(...), canonical_json(surface.tools),
// cel.bind(ts, surface.tools, ...), the variable read whole): the caller
// must then give the whole items. size() of the list needs no member.
// A formula that does not read variable reads none (ok true).
func (p *Program) ItemMembers(variable, field string) (members map[string]bool, ok bool) {
	members = map[string]bool{}
	if p == nil || !p.reads[variable] {
		return members, p != nil
	}
	r := itemReads{variable: variable, field: field, members: members}
	if !r.walk(p.checked.NativeRep().Expr(), nil) {
		return nil, false
	}
	return members, true
}

// Members reports which members of variable (a tool) the formula reads,
// as ItemMembers does for the items of a list: selected (tool.name),
// tested with has(), indexed by a string literal or tested for with in.
// ok is false when the formula reads the variable in any other way
// (whole, or passed to a function such as params(tool)). A formula that
// does not read variable reads none (ok true).
func (p *Program) Members(variable string) (members map[string]bool, ok bool) {
	members = map[string]bool{}
	if p == nil || !p.reads[variable] {
		return members, p != nil
	}
	r := itemReads{variable: variable, members: members}
	if !r.walk(p.checked.NativeRep().Expr(), map[string]bool{variable: true}) {
		return nil, false
	}
	return members, true
}

// itemReads walks a formula for ItemMembers.
type itemReads struct {
	variable, field string
	members         map[string]bool
}

// walk reports whether e reads the list only through its items'
// members, adding those to r.members. scope holds the names comprehensions
// bind around e: true for one bound to an item of the list, false for
// any other.
func (r *itemReads) walk(e celast.Expr, scope map[string]bool) bool {
	switch e.Kind() {
	case celast.IdentKind:
		item, local := scope[e.AsIdent()]
		if local {
			return !item // an item read whole
		}
		return e.AsIdent() != r.variable // the variable read whole
	case celast.SelectKind:
		s := e.AsSelect()
		op := s.Operand()
		if op.Kind() == celast.IdentKind {
			item, local := scope[op.AsIdent()]
			switch {
			case local && item:
				r.members[s.FieldName()] = true
				return true
			case !local && op.AsIdent() == r.variable:
				// surface.server and has(surface.tools) read no item.
				return s.FieldName() != r.field || s.IsTestOnly()
			}
		}
		return r.walk(op, scope)
	case celast.CallKind:
		c := e.AsCall()
		args := c.Args()
		switch {
		case c.FunctionName() == overloads.Size && !c.IsMemberFunction() && len(args) == 1 && r.isList(args[0], scope),
			c.FunctionName() == overloads.Size && c.IsMemberFunction() && len(args) == 0 && r.isList(c.Target(), scope):
			return true
		case c.FunctionName() == operators.Index && len(args) == 2 && r.isItem(args[0], scope):
			return r.constMember(args[1])
		case c.FunctionName() == operators.In && len(args) == 2 && r.isItem(args[1], scope):
			return r.constMember(args[0])
		}
		if c.IsMemberFunction() && !r.walk(c.Target(), scope) {
			return false
		}
		for _, a := range args {
			if !r.walk(a, scope) {
				return false
			}
		}
		return true
	case celast.ComprehensionKind:
		return r.comprehension(e.AsComprehension(), scope)
	case celast.ListKind:
		for _, el := range e.AsList().Elements() {
			if !r.walk(el, scope) {
				return false
			}
		}
		return true
	case celast.MapKind:
		for _, en := range e.AsMap().Entries() {
			m := en.AsMapEntry()
			if !r.walk(m.Key(), scope) || !r.walk(m.Value(), scope) {
				return false
			}
		}
		return true
	case celast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			if !r.walk(f.AsStructField().Value(), scope) {
				return false
			}
		}
		return true
	case celast.LiteralKind:
		return true
	}
	return false // a kind this walk does not know: assume the worst
}

// comprehension walks a macro's loop. When it ranges over the list, its
// element variable is an item (the second variable of a two-variable
// macro, whose first is the index).
func (r *itemReads) comprehension(c celast.ComprehensionExpr, scope map[string]bool) bool {
	item := ""
	if r.isList(c.IterRange(), scope) {
		item = c.IterVar()
		if c.HasIterVar2() {
			item = c.IterVar2()
		}
		if item == c.AccuVar() || c.HasIterVar2() && c.IterVar() == c.IterVar2() {
			return false // which name wins is cel-go's to decide: do not guess
		}
	} else if !r.walk(c.IterRange(), scope) {
		return false
	}
	if !r.walk(c.AccuInit(), scope) {
		return false
	}
	inner := bind(scope, c.AccuVar(), c.IterVar())
	if c.HasIterVar2() {
		inner[c.IterVar2()] = false
	}
	if item != "" {
		inner[item] = true
	}
	return r.walk(c.LoopCondition(), inner) && r.walk(c.LoopStep(), inner) &&
		r.walk(c.Result(), bind(scope, c.AccuVar()))
}

// bind is scope with names bound to values other than items.
func bind(scope map[string]bool, names ...string) map[string]bool {
	out := make(map[string]bool, len(scope)+len(names))
	for k, v := range scope {
		out[k] = v
	}
	for _, n := range names {
		out[n] = false
	}
	return out
}

// isList reports whether e is the list itself: variable.field, the
// variable not shadowed.
func (r *itemReads) isList(e celast.Expr, scope map[string]bool) bool {
	if e.Kind() != celast.SelectKind {
		return false
	}
	s := e.AsSelect()
	op := s.Operand()
	if s.IsTestOnly() || s.FieldName() != r.field || op.Kind() != celast.IdentKind || op.AsIdent() != r.variable {
		return false
	}
	_, local := scope[r.variable]
	return !local
}

// isItem reports whether e is a variable bound to an item.
func (r *itemReads) isItem(e celast.Expr, scope map[string]bool) bool {
	return e.Kind() == celast.IdentKind && scope[e.AsIdent()]
}

// constMember adds the member an item is indexed by or tested for with
// in (t['rubric/server'], 'rubric/server' in t), when a string literal
// names it; a computed name could be any member.
func (r *itemReads) constMember(e celast.Expr) bool {
	if e.Kind() != celast.LiteralKind {
		return false
	}
	s, ok := e.AsLiteral().(types.String)
	if ok {
		r.members[string(s)] = true
	}
	return ok
}
