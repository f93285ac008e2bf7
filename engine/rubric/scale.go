package rubric

import "github.com/hashicorp/hcl/v2"

var scaleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "min", Required: true}, {Name: "max", Required: true}},
}

// scale reads a scale block: min below max, no grade starting above max,
// since no score would reach it, and a lowest grade starting at or below
// min, since a score below every grade's start has none (GradeOf). The
// lowest grade may start below min (it takes every score, as F = 0 does
// under a 1-5 scale). gradesAt is where the grades are written, nil when
// they are not.
func (l *loader) scale(b *hcl.Block, grades []Grade, gradesAt *hcl.Attribute) *Scale {
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
	// grades are sorted highest start first: the last is the lowest.
	if n := len(grades); n > 0 && gradesAt != nil && grades[n-1].Min.Cmp(lo) > 0 {
		low := grades[n-1]
		l.errorf(gradesAt.Expr.Range(), "the lowest grade, %s, starts at %s, above the scale's min %s: a score below %s would have no grade; add a grade that starts at %s, such as F = %s", low.Letter, low.Min, lo, low.Min, lo, lo)
	}
	return &Scale{Min: lo, Max: hi}
}
