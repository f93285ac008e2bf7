package rubric

import (
	"math/big"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/nearest"
)

// splitMax parts a report block's body into its values and its max
// blocks (at most one is allowed); any other block stays with the values,
// where it is an error.
func splitMax(b hcl.Body) (hcl.Body, []*hcl.Block) {
	sb, ok := b.(*hclsyntax.Body)
	if !ok {
		return b, nil
	}
	values := *sb
	values.Blocks = nil
	var max []*hcl.Block
	for _, bl := range sb.Blocks {
		if bl.Type == "max" && len(bl.Labels) == 0 {
			max = append(max, bl.AsHCLBlock())
			continue
		}
		values.Blocks = append(values.Blocks, bl)
	}
	return &values, max
}

// maxima reads a report block's max block: for some of its values, the
// most each can be, a number or an expression of the weights
// (weights.safety), above zero. A value that is an object of numbers (a
// tool's scores by dimension) has one maximum for every number in it.
// Maxima move no score; a reader draws a value against its maximum (a
// bar), and draws none for a value without one.
func (l *loader) maxima(b *hcl.Block, fields []*Metric) []Bound {
	attrs, ds := b.Body.JustAttributes()
	if l.hclDiags(ds) {
		return nil
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	ctx := l.weightsContext()
	var out []Bound
	for _, a := range attrs {
		if !slices.Contains(names, a.Name) {
			msg := "the report block has no value " + a.Name + " to give a maximum"
			if near := nearest.Key(a.Name, names); near != "" {
				msg += ": did you mean " + near + "?"
			}
			l.errorf(a.NameRange, "%s", msg)
			continue
		}
		l.noteWeights(a.Expr)
		n, ok := l.numberIn(a.Expr, ctx)
		if !ok {
			continue
		}
		if n.Sign() <= 0 {
			l.errorf(a.Expr.Range(), "the maximum of %s is %s: a maximum is above zero (a bar is drawn from zero up to it)", a.Name, n)
			continue
		}
		out = append(out, Bound{Name: a.Name, Max: n})
	}
	// In the order of the values, as the report writes them.
	slices.SortFunc(out, func(x, y Bound) int { return slices.Index(names, x.Name) - slices.Index(names, y.Name) })
	if out == nil {
		out = []Bound{}
	}
	return out
}

// weightsContext lets an HCL expression read the rubric's weights as
// weights.NAME.
func (l *loader) weightsContext() *hcl.EvalContext {
	ws := make(map[string]cty.Value, len(l.weights))
	for _, w := range l.weights {
		ws[w.Name] = cty.NumberVal(new(big.Float).SetPrec(512).SetRat(w.Value.Big()))
	}
	return &hcl.EvalContext{Variables: map[string]cty.Value{"weights": cty.ObjectVal(ws)}}
}

// Bound is the most a report value can be (see Report.Max).
type Bound struct {
	Name string
	Max  num.Num
}

// noteWeights records the weights an HCL expression reads (weights.NAME),
// so that a weight only a max block reads is not taken for one nothing
// reads (see unreadWeights).
func (l *loader) noteWeights(e hcl.Expression) {
	for _, t := range e.Variables() {
		if t.RootName() != "weights" {
			continue
		}
		if l.hclWeights == nil {
			l.hclWeights = map[string]bool{}
		}
		if len(t) > 1 {
			if attr, ok := t[1].(hcl.TraverseAttr); ok {
				l.hclWeights[attr.Name] = true
				continue
			}
		}
		l.hclWeights[""] = true
	}
}
