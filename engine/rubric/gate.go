package rubric

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/rubricmcp/rubric/engine/lang"
)

// Gate is a rubric's rule for comparing a base surface with a head (the
// CI gate): which value decides, at how many digits, and how many more
// pairs of runs confirm a drop before it blocks.
type Gate struct {
	// Title names the compared value in reports, such as "mean score".
	Title string
	// Value is the compared value, exact: a formula over what the
	// surface's report values see. Nil means the overall score.
	Value *lang.Program
	// Round is the number of decimal digits the value is rounded to, half
	// away from zero, once, before it is compared.
	Round int
	// Confirm is how many more pairs of runs are made when the first pair
	// drops; the medians over all pairs then decide.
	Confirm int
	// Scores and Justifications name members of each tool's report entry
	// (its tool report block): a map of dimension to score, and a map of
	// dimension to the judge's reason. A gate report uses them to say
	// which dimensions of a fallen tool fell, and why. Empty when the
	// rubric names none.
	Scores, Justifications string
	// Declared is false for the rule a rubric without a gate block gets.
	Declared bool
}

// DefaultConfirm is how many pairs confirm a drop when the gate block
// does not say and the rubric asks a judge questions.
const DefaultConfirm = 2

// GateRule returns the rubric's gate: its gate block, or else the overall
// score at the rubric's rounding, confirmed by DefaultConfirm more pairs
// when the rubric asks a judge anything and by none when it is
// deterministic.
func (r *Rubric) GateRule() Gate {
	if r.Gate != nil {
		return *r.Gate
	}
	return Gate{Title: "overall score", Round: r.Round, Confirm: r.defaultConfirm()}
}

// defaultConfirm is how many pairs confirm a drop when the rubric does not
// say: DefaultConfirm when it asks a judge anything, none when it is
// deterministic.
func (r *Rubric) defaultConfirm() int {
	if len(r.Questions) > 0 {
		return DefaultConfirm
	}
	return 0
}

var gateSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "title"},
		{Name: "value"},
		{Name: "round"},
		{Name: "confirm"},
		{Name: "scores"},
		{Name: "justifications"},
	},
}

// gate reads a gate block. Its value sees what a surface report value
// sees; scores and justifications must name members of the tool report
// block, which are read after every block.
func (l *loader) gate(b *hcl.Block, r *Rubric) (*Gate, []*hcl.Attribute) {
	g := &Gate{Round: r.Round, Confirm: -1, Declared: true}
	body, ds := b.Body.Content(gateSchema)
	l.hclDiags(ds)
	g.Title = l.str(body.Attributes["title"])
	g.Value = l.formula(l.envs.surfaceReport, body.Attributes["value"], nil)
	if a := body.Attributes["round"]; a != nil {
		l.whole(a, 12, " of digits", &g.Round)
	}
	if a := body.Attributes["confirm"]; a != nil {
		l.whole(a, 10, " of pairs", &g.Confirm)
	}
	var fields []*hcl.Attribute
	if a := body.Attributes["scores"]; a != nil {
		g.Scores, fields = l.str(a), append(fields, a)
	}
	if a := body.Attributes["justifications"]; a != nil {
		g.Justifications, fields = l.str(a), append(fields, a)
	}
	if g.Title == "" {
		g.Title = "overall score"
		if g.Value != nil {
			g.Title = g.Value.Source
		}
	}
	return g, fields
}

// finishGate settles what needs the whole rubric: the default number of
// confirming pairs, and that the named tool report members exist.
func (l *loader) finishGate(r *Rubric, fields []*hcl.Attribute) {
	if r.Gate.Confirm < 0 {
		r.Gate.Confirm = r.defaultConfirm()
	}
	members := map[string]bool{}
	for _, rb := range r.Tool.Reports {
		if rb.Name == "" {
			for _, f := range rb.Fields {
				members[f.Name] = true
			}
		}
	}
	for _, a := range fields {
		if name := r.Gate.field(a.Name); name != "" && !members[name] {
			l.errorf(a.Expr.Range(), "%s names %q, which the tool report block does not define", a.Name, name)
		}
	}
}

// field is the member a scores or justifications attribute names.
func (g *Gate) field(attr string) string {
	if attr == "scores" {
		return g.Scores
	}
	return g.Justifications
}
