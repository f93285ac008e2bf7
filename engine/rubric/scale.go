package rubric

import "github.com/hashicorp/hcl/v2"

var scaleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "min", Required: true}, {Name: "max", Required: true}},
}

// scale reads a scale block: min below max, and no grade starting above
// max, since no score would reach it. A grade may start below min (the
// lowest band takes every score, as F = 0 does under a 1-5 scale).
func (l *loader) scale(b *hcl.Block, grades []Grade) *Scale {
	body, ds := b.Body.Content(scaleSchema)
	if l.hclDiags(ds) {
		return nil
	}
	lo, ok1 := l.number(body.Attributes["min"].Expr)
	hi, ok2 := l.number(body.Attributes["max"].Expr)
	if !ok1 || !ok2 {
		return nil
	}
	if lo.Cmp(hi) >= 0 {
		l.errorf(body.Attributes["max"].Expr.Range(), "max %s is not above min %s: a scale runs from its lowest score to its highest", hi, lo)
		return nil
	}
	for _, g := range grades {
		if g.Min.Cmp(hi) > 0 {
			l.errorf(body.Attributes["max"].Expr.Range(), "grade %s starts at %s, above the scale's max %s: no score would reach it", g.Letter, g.Min, hi)
		}
	}
	return &Scale{Min: lo, Max: hi}
}
