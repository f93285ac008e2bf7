package rubric

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

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
			l.errorf(l.blame(body.Attributes["max"].Expr.Range(), gradeAt(gradesAt, g.Letter)), "grade %s starts at %s, above the scale's max %s: no score would reach it", g.Letter, g.Min, hi)
		}
	}
	// grades are sorted highest start first: the last is the lowest.
	if n := len(grades); n > 0 && gradesAt != nil && grades[n-1].Min.Cmp(lo) > 0 {
		low := grades[n-1]
		l.errorf(l.blame(gradesAt.Expr.Range(), body.Attributes["min"].Expr.Range()), "the lowest grade, %s, starts at %s, above the scale's min %s: a score below %s would have no grade; add a grade that starts at %s, such as F = %s", low.Letter, low.Min, lo, low.Min, lo, lo)
	}
	l.scaleAt = map[string]hcl.Range{"min": body.Attributes["min"].Expr.Range(), "max": body.Attributes["max"].Expr.Range()}
	return &Scale{Min: lo, Max: hi}
}

// blame is where a problem between two places is reported: at, unless
// only other is in the file being loaded (a child that set grades its
// parent's scale refuses, or a scale its parent's grades do not fit),
// where the user can fix it.
func (l *loader) blame(at, other hcl.Range) hcl.Range {
	if other.Filename == l.file && at.Filename != l.file {
		return other
	}
	return at
}

// gradeAt is where grade letter starts in the grades attribute a: its
// number; the zero range when a is nil or has no such grade.
func gradeAt(a *hcl.Attribute, letter string) hcl.Range {
	if a == nil {
		return hcl.Range{}
	}
	pairs, ds := hcl.ExprMap(a.Expr)
	if ds.HasErrors() {
		return hcl.Range{}
	}
	for _, kv := range pairs {
		k := hcl.ExprAsKeyword(kv.Key)
		if k == "" {
			if v, d := kv.Key.Value(nil); !d.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
				k = v.AsString()
			}
		}
		if k == letter {
			return kv.Value.Range()
		}
	}
	return hcl.Range{}
}
