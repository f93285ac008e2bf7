package lang

import (
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
)

// LiteralKeys returns the keys of the map a formula yields when it is a
// map literal whose keys are all string literals ({'tool': ..., 'n':
// ...}), through the cel.bind of any let it reads; ok is false for any
// other formula (its keys are known only when it runs). A question's
// prompts are checked against them when the rubric loads: a template
// that reads .nmae of an input with no nmae would send "<no value>".
func (p *Program) LiteralKeys() (keys []string, ok bool) {
	if p == nil || p.checked == nil {
		return nil, false
	}
	x := p.checked.NativeRep().Expr()
	// cel.bind(name, value, expr) is a comprehension over an empty list
	// whose result is expr.
	for x.Kind() == celast.ComprehensionKind {
		c := x.AsComprehension()
		r := c.IterRange()
		if r.Kind() != celast.ListKind || len(r.AsList().Elements()) != 0 {
			return nil, false
		}
		x = c.Result()
	}
	if x.Kind() != celast.MapKind {
		return nil, false
	}
	for _, en := range x.AsMap().Entries() {
		k := en.AsMapEntry().Key()
		if k.Kind() != celast.LiteralKind {
			return nil, false
		}
		s, isString := k.AsLiteral().(types.String)
		if !isString {
			return nil, false
		}
		keys = append(keys, string(s))
	}
	return keys, true
}
