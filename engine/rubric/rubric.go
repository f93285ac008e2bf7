// Package rubric loads rubrics: HCL files whose formulas are CEL
// expressions in the rubric language (package lang).
//
// Loading parses the file, compiles and type-checks every formula, and
// computes the rubric's digest, so that every mistake is reported with its
// file:line:col before anything is scored. A loaded Rubric is immutable and
// safe to share between goroutines.
package rubric

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
)

// Rubric is a loaded, compiled rubric.
type Rubric struct {
	Name        string
	Version     string
	Title       string
	Description string
	// File is where the rubric was read from ("builtin:NAME" for built-ins).
	File string
	// Round is the number of decimal digits scores are shown with, rounded
	// half away from zero; exact values are kept beside them.
	Round int
	// MinScored, when set (above 0, below 1), is the share of the tools
	// that must be scored for the run to give a report: a tool whose
	// question is still unreadable after its retries is then left
	// unscored, listed in the report, and the surface's formulas see the
	// tools that were scored. Unset (zero) or 1, every tool must be
	// scored, and one unreadable answer fails the run.
	MinScored num.Num
	// Weights are the numbers the rubric's authors argue about, in the
	// order they are declared: formulas read them as weights.NAME, and a
	// check without points of its own scores its weight of the same name.
	Weights []Weight
	// Checks are the static checks of each tool, in order.
	Checks []*Check
	// Tool and Surface hold the formulas of the two levels.
	Tool    Level
	Surface Level
	// Questions are what the rubric asks a judge, in order.
	Questions []*Question
	// Gate, when the rubric has a gate block, is how a base and a head
	// are compared (see GateRule for the rule without one).
	Gate *Gate
	// Fixes, when the rubric has a fixes block, says what its issues gain
	// and in which unit (see Fixes).
	Fixes *Fixes
	// Grades are the bands, highest minimum first.
	Grades []Grade
	// Scale, when the rubric has a scale block, is the range its scores
	// lie in, each tool's and the overall one: a threshold outside it is
	// refused (see Threshold), and a score outside it fails the run.
	Scale *Scale
	// JudgeLabels name versions of what the rubric asks (a task generator,
	// a prompt template); every report that asked a judge carries them in
	// its judge block, so answers are never compared across them.
	JudgeLabels map[string]string
	// Overrides are the weights the rubric's own file sets over its
	// parent's (extends) to another number, in the order written: a
	// parent's formulas were written for its own weights, and a score
	// outside the scale names these. They move no score beyond the
	// weights themselves, so they are not in the digest.
	Overrides []Override
	// Tests are the rubric's own test cases (test blocks): what scoring a
	// surface must give. They move no score, so they are not in the
	// digest, and a child does not inherit its parent's.
	Tests []*Test
	// Digest is "sha256:" + the hex sha256 of the rubric's canonical
	// encoding (see Canonical).
	Digest string
	// formulas are every formula the rubric's file compiled, lets bound
	// in: what Reads looks through. Nil for a rubric not loaded from a
	// file.
	formulas []*lang.Program
}

// Reads reports whether any formula of the rubric (or a let one reads)
// reads the variable name, such as "surface": a run need not build a
// value no formula reads. It answers true for a rubric not loaded from
// a file, whose formulas it cannot look through.
func (r *Rubric) Reads(name string) bool {
	if r.formulas == nil {
		return true
	}
	for _, p := range r.formulas {
		if p.Uses(name) {
			return true
		}
	}
	return false
}

// ItemMembers reports which members of the items of the list
// variable.field (surface.tools) the rubric's formulas read, when every
// one of them reads the items only through members (see
// lang.Program.ItemMembers): a run may then give each item as those of
// its members it has, instead of the whole object. ok is false when a
// formula reads an item whole, or for a rubric not loaded from a file.
func (r *Rubric) ItemMembers(variable, field string) (members []string, ok bool) {
	return r.ItemMembersBesides(variable, field, nil)
}

// ItemMembersBesides is ItemMembers over the rubric's formulas less those
// of besides (the surface's signals, once computed): what the formulas
// still to be evaluated read of the items.
func (r *Rubric) ItemMembersBesides(variable, field string, besides []*Metric) (members []string, ok bool) {
	if r.formulas == nil {
		return nil, false
	}
	all := map[string]bool{}
	for _, p := range r.formulas {
		if slices.ContainsFunc(besides, func(m *Metric) bool { return m.Value == p }) {
			continue
		}
		m, ok := p.ItemMembers(variable, field)
		if !ok {
			return nil, false
		}
		for k := range m {
			all[k] = true
		}
	}
	return slices.Sorted(maps.Keys(all)), true
}

// Check is a static check of one tool definition.
type Check struct {
	Name  string
	Title string
	// Points is the check's weight.
	Points num.Num
	// Each, when set, yields the items the check gives partial credit over:
	// credit is the fraction of items that pass, full when there are none.
	Each *lang.Program
	// Pass decides whether the tool (or the item) passes.
	Pass *lang.Program
	// Label names a failing item in issues; item.name by default.
	Label *lang.Program
	// Issue is the message of a failing check; "{items}" is replaced by the
	// failing items' labels.
	Issue string
	// Message, when the issue is written cel("..."), computes the message
	// instead of Issue: a CEL string over the tool and items, the failing
	// items' labels (MessageVars).
	Message *lang.Program
	// Stop makes a failure end the tool's checks: the ones after it are
	// skipped and earn nothing.
	Stop bool
}

// Level is the formulas of one level (each tool, or the whole surface).
type Level struct {
	// Metrics are named intermediate values, evaluated in order; each sees
	// the ones before it.
	Metrics []*Metric
	// Score is the level's score. At the surface level it may yield null:
	// the rubric then computes no overall score for this surface.
	Score *lang.Program
	// Signals are deterministic values computed before any question is
	// asked. At the tool level they are computed from each definition, and
	// the tool's questions and later formulas see them as signals.NAME; at
	// the surface level they are computed once a run from the whole
	// surface, before any formula that may read them (a run checks its
	// first tools meanwhile when no tool signal does), and every formula
	// but a check's sees them as surface_signals.NAME.
	Signals []*Metric
	// Issues (tool level), if set, yields more issues for the fix list: a
	// list of maps with a check name and a message.
	Issues *lang.Program
	// Titles (tool level) are the titles of the checks Issues names, by
	// name, for what a fix list shows, as a check block's title is. They
	// move no score, so they are not in the digest.
	Titles map[string]string
	// Reports are named values written into the report: at the tool level
	// as members of the tool's entry, at the surface level as top-level
	// members (each a map of values).
	Reports []*Report
	// Warnings (surface level), if set, yields a list of strings added to
	// the report's warnings: what a reader must know about the scores.
	Warnings *lang.Program
	// Invalid (surface level), if set, yields null when the observations
	// can be scored, or a string saying why they cannot: the scan then
	// fails, and no report is written.
	Invalid *lang.Program
}

// Report is a group of values a level writes into the report. Name is ""
// for the tool level, whose fields join the tool's entry.
type Report struct {
	Name   string
	Fields []*Metric
	// Max, when the block has a max block, is the most some of its values
	// can be, in the order of Fields (see Bound): what a reader draws a
	// value against. It moves no score, so it is not in the digest.
	Max []Bound
}

// Metric is a named value computed by a formula.
type Metric struct {
	Name  string
	Value *lang.Program
}

// Test is one test block: a surface, answers to replay (none: the
// offline heuristic judge answers), and the report values expected.
type Test struct {
	Name string
	// Surface is a path, relative to the rubric's file, or inline JSON.
	Surface string
	// Answers, when set, is a replay file, relative to the rubric's file.
	Answers string
	// Expect are report values by path: score, grade, tools.NAME.score,
	// metrics.NAME, server.FIELD, in the order written.
	Expect []Expectation
	// File and Line are where the test block is.
	File string
	Line int
}

// Expectation is one expected report value: Want is a number's exact
// text (Number), true or false (Bool), or a string.
type Expectation struct {
	Path   string
	Want   string
	Number bool
	Bool   bool
	// Line and Col are where the path is written.
	Line, Col int
}

// Weight is one named number of a rubric's weights block.
type Weight struct {
	Name  string
	Value num.Num
}

// Override is a weight a child rubric sets over its parent's: its
// name, its number and the parent's, and where the child sets it.
type Override struct {
	Name       string
	Value, Was num.Num
	File       string
	Line, Col  int
}

// String is the override as a message names it: file:line:col: name =
// value, the parent's was.
func (o Override) String() string {
	return fmt.Sprintf("%s:%d:%d: %s = %s, the parent's %s", o.File, o.Line, o.Col, o.Name, o.Value, o.Was)
}

// OverridesNote is what a message about a score outside the scale adds
// when the rubric sets its parent's weights to other numbers: those
// weights, where it sets them; "" when it sets none.
func (r *Rubric) OverridesNote() string {
	if len(r.Overrides) == 0 {
		return ""
	}
	parts := make([]string, len(r.Overrides))
	for i, o := range r.Overrides {
		parts[i] = o.String()
	}
	return "this rubric sets weights its parent's formulas were written for (" + strings.Join(parts, "; ") + "): make them add up as the parent's do"
}

// Weight returns the weight called name, and whether there is one.
func (r *Rubric) Weight(name string) (num.Num, bool) {
	for _, w := range r.Weights {
		if w.Name == name {
			return w.Value, true
		}
	}
	return num.Num{}, false
}

// Grade is a band: values at or above Min (and below the band above) get
// Letter.
type Grade struct {
	Letter string
	Min    num.Num
}

// Scale is the range of a rubric's overall score, both ends included.
// It moves no score, so it is not in the digest: it lets a threshold
// given in another unit (75 under a 1-5 rubric) be refused.
type Scale struct {
	Min, Max num.Num
}

// GradeOf returns the letter for an exact score, or "" when it is below
// every band.
func (r *Rubric) GradeOf(score num.Num) string {
	for _, g := range r.Grades {
		if score.Cmp(g.Min) >= 0 {
			return g.Letter
		}
	}
	return ""
}

// Partial reports whether the rubric scores a surface some of whose tools
// could not be scored (see MinScored).
func (r *Rubric) Partial() bool {
	return r.MinScored.Sign() > 0 && r.MinScored.Cmp(num.One) < 0
}

// EnoughScored reports whether scored of total tools meet the rubric's
// MinScored: every one unless the rubric is partial.
func (r *Rubric) EnoughScored(scored, total int) bool {
	if !r.Partial() {
		return scored == total
	}
	return num.Int(int64(scored)).Cmp(r.MinScored.Mul(num.Int(int64(total)))) >= 0
}
