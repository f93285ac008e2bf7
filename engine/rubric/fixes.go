package rubric

import (
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/rubricmcp/rubric/engine/lang"
)

// Fixes is how a rubric's fix list is ordered and read: every issue has a
// gain, what fixing it would earn in the rubric's own unit, and the list
// is sorted by it, largest first.
//
// An issue of the issues formula says its gain itself (a member "gain");
// one that does not gains its points. An issue of a failed check gains
// what Gain computes, or, without Gain, the check's points times the
// credit missed plus the points of the checks its failure skipped.
type Fixes struct {
	// Unit names what a gain counts, said once above a fix list, such as
	// "TDQS points of the tool".
	Unit string
	// Overall, when set, names the value of the whole surface that Moves
	// computes the change of, such as "meanTdqs".
	Overall string
	// Gain, when set, is the gain of a failed check's issue. It sees what
	// a tool's report values see, and the check as this: its name, points,
	// credit, passed, total, skipped, and stops (its failure skipped the
	// checks after it).
	Gain *lang.Program
	// Moves, when set, is how much Overall moves when one issue is fixed:
	// it sees the gain and the number of tools (tool_count).
	Moves *lang.Program
	// Terms name the surface-level metrics the overall score includes
	// beside the tools' own scores (such as a coherence rating): a summary
	// names them when the overall grade is above or below every tool's.
	Terms []string
}

// FixGainVars are what a fixes block's gain sees: what a tool's report
// values see, and the failed check as this.
var FixGainVars = append(append([]lang.Var{}, ToolReportVars...), lang.Var{Name: "this", Type: lang.Object})

// FixMovesVars are what a fixes block's moves sees.
var FixMovesVars = []lang.Var{{Name: "gain", Type: lang.NumType}, {Name: "tool_count", Type: cel.IntType}}

var fixesSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "unit", Required: true},
		{Name: "overall"},
		{Name: "gain"},
		{Name: "moves"},
		{Name: "terms"},
	},
}

var (
	fixEnvOnce           sync.Once
	fixGainEnv, fixMoves *lang.Env
	fixEnvErr            error
)

// fixes reads a fixes block.
func (l *loader) fixes(b *hcl.Block) *Fixes {
	fixEnvOnce.Do(func() {
		if fixGainEnv, fixEnvErr = lang.NewEnv(append(append([]lang.Var{}, FixGainVars...), WeightsVar)...); fixEnvErr == nil {
			fixMoves, fixEnvErr = lang.NewEnv(append(append([]lang.Var{}, FixMovesVars...), WeightsVar)...)
		}
	})
	if fixEnvErr != nil {
		l.errorf(b.DefRange, "%v", fixEnvErr)
		return nil
	}
	body, ds := b.Body.Content(fixesSchema)
	l.hclDiags(ds)
	f := &Fixes{Unit: l.str(body.Attributes["unit"]), Overall: l.str(body.Attributes["overall"])}
	if a := body.Attributes["unit"]; a != nil && f.Unit == "" {
		l.errorf(a.Expr.Range(), "unit is empty: say what a gain counts, such as \"points of the tool's score\"")
	}
	f.Gain = l.formula(fixGainEnv, body.Attributes["gain"], nil)
	f.Moves = l.formula(fixMoves, body.Attributes["moves"], nil)
	if f.Moves != nil && f.Overall == "" {
		l.errorf(body.Attributes["moves"].Expr.Range(), "moves needs overall: name the value it moves, such as \"mean score\"")
	}
	if a := body.Attributes["terms"]; a != nil {
		f.Terms = l.strings(a)
	}
	return f
}

// strings reads a list of strings.
func (l *loader) strings(a *hcl.Attribute) []string {
	v, ds := a.Expr.Value(nil)
	if l.hclDiags(ds) {
		return nil
	}
	if v.IsNull() || !(v.Type().IsListType() || v.Type().IsTupleType()) {
		l.errorf(a.Expr.Range(), "%s must be a list of strings", a.Name)
		return nil
	}
	var out []string
	for _, e := range v.AsValueSlice() {
		if e.IsNull() || !e.Type().Equals(cty.String) {
			l.errorf(a.Expr.Range(), "%s must be a list of strings", a.Name)
			return nil
		}
		out = append(out, e.AsString())
	}
	return out
}

// canonicalFixes is what the digest covers of a fixes block: what moves
// a value a report holds (the unit and names are words, as titles are).
type canonicalFixes struct {
	Gain  string `json:"gain,omitempty"`
	Moves string `json:"moves,omitempty"`
}

func canonicalFixesOf(f *Fixes) *canonicalFixes {
	if f == nil {
		return nil
	}
	return &canonicalFixes{Gain: text(f.Gain), Moves: text(f.Moves)}
}
