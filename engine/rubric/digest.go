package rubric

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/surface"
)

// digestVersion changes whenever the canonical encoding below changes.
const digestVersion = 1

// canonical is what the digest covers: everything that can move a score
// or a value a report holds (questions with their prompts and answer
// schemas, signals, issues and report formulas), numbers as exact strings
// and formulas re-printed from their syntax trees. Titles (a check's, and
// those a tool block gives the checks its issues name), descriptions,
// the text of a check's issue, white space and comments stay out, and so
// does the scale block: it bounds what a user may give as a threshold,
// and moves no score, nor do the maxima of report values (a report
// block's max).
type canonical struct {
	Digest  int              `json:"digest"`
	Lang    string           `json:"lang"`
	Round   int              `json:"round"`
	Checks  []canonicalCheck `json:"checks"`
	Tool    canonicalLevel   `json:"tool"`
	Surface canonicalLevel   `json:"surface"`
	Grades  [][2]string      `json:"grades"`
	// Added with questions; empty for rubrics without them, so that the
	// digests of older rubrics stay what they were.
	Questions []canonicalQuestion `json:"questions,omitempty"`
	// Added with judge labels; absent when a rubric has none.
	JudgeLabels map[string]string `json:"judge_labels,omitempty"`
	// Added with the gate block; absent for rubrics without one, so that
	// their digests stay what they were.
	Gate *canonicalGate `json:"gate,omitempty"`
	// Added with the fixes block; absent for rubrics without one.
	Fixes *canonicalFixes `json:"fixes,omitempty"`
	// Added with weights: name and exact value, by name (the order they
	// are written in moves no score); absent for rubrics without them.
	Weights [][2]string `json:"weights,omitempty"`
	// Added with min_scored; absent when every tool must be scored.
	MinScored string `json:"min_scored,omitempty"`
}

// canonicalGate is what the digest covers of a gate block: everything
// that can move a gate's decision or what its report says.
type canonicalGate struct {
	Value          string `json:"value,omitempty"`
	Round          int    `json:"round"`
	Confirm        int    `json:"confirm"`
	Scores         string `json:"scores,omitempty"`
	Justifications string `json:"justifications,omitempty"`
}

type canonicalQuestion struct {
	Name    string          `json:"name"`
	Kind    string          `json:"kind"`
	Per     string          `json:"per"`
	Items   string          `json:"items,omitempty"`
	Subject string          `json:"subject,omitempty"`
	When    string          `json:"when,omitempty"`
	Input   string          `json:"input"`
	Shared  string          `json:"shared,omitempty"`
	Share   string          `json:"share,omitempty"`
	System  [3]string       `json:"system"` // text, url, sha256
	User    [3]string       `json:"user"`
	Context []string        `json:"context,omitempty"`
	Schema  json.RawMessage `json:"answer_schema"`
	Retries int             `json:"retries"`
}

func promptKey(p *Prompt) [3]string {
	if p == nil {
		return [3]string{}
	}
	if p.Remote() {
		where := p.URL
		// Added with blocks: absent for a whole file, so that its digest
		// stays what it was.
		if p.Block > 0 {
			where += fmt.Sprintf(" block %d", p.Block)
		}
		if p.Fill {
			where += " fill"
		}
		return [3]string{"", where, p.SHA256}
	}
	return [3]string{p.Text, "", ""}
}

func canonicalQuestionOf(q *Question) canonicalQuestion {
	schema := json.RawMessage(q.AnswerSchema)
	if len(schema) == 0 {
		schema = json.RawMessage("null")
	}
	c := canonicalQuestion{
		Name: q.Name, Kind: q.Kind, Per: q.Per, Items: text(q.Items), Subject: text(q.Subject), When: text(q.When),
		Input: text(q.Input), Shared: text(q.Shared), Share: text(q.Share), System: promptKey(q.System), User: promptKey(q.User),
		Schema: schema, Retries: q.Retries,
	}
	if q.Context != nil {
		k := promptKey(q.Context)
		c.Context = k[:]
	}
	return c
}

// canonicalQuestionJSON is what a question's own digest covers.
func canonicalQuestionJSON(q *Question) []byte {
	b, err := json.Marshal(struct {
		Digest   int               `json:"digest"`
		Lang     string            `json:"lang"`
		Question canonicalQuestion `json:"question"`
	}{digestVersion, lang.Version, canonicalQuestionOf(q)})
	if err != nil {
		panic(err)
	}
	return b
}

type canonicalCheck struct {
	Name   string `json:"name"`
	Points string `json:"points"`
	Each   string `json:"each,omitempty"`
	Pass   string `json:"pass"`
	Label  string `json:"label,omitempty"`
	Stop   bool   `json:"stop,omitempty"`
}

type canonicalLevel struct {
	Metrics [][2]string       `json:"metrics,omitempty"`
	Score   string            `json:"score"`
	Signals [][2]string       `json:"signals,omitempty"`
	Issues  string            `json:"issues,omitempty"`
	Reports []canonicalReport `json:"reports,omitempty"`
	// Added with the surface's warnings and invalid formulas.
	Warnings string `json:"warnings,omitempty"`
	Invalid  string `json:"invalid,omitempty"`
}

type canonicalReport struct {
	Name   string      `json:"name"`
	Fields [][2]string `json:"fields"`
}

func pairs(ms []*Metric) [][2]string {
	var out [][2]string
	for _, m := range ms {
		out = append(out, [2]string{m.Name, text(m.Value)})
	}
	return out
}

func text(p *lang.Program) string {
	if p == nil {
		return ""
	}
	return p.Canonical
}

// Canonical returns the canonical encoding the digest is the hash of.
func Canonical(r *Rubric) []byte {
	c := canonical{Digest: digestVersion, Lang: lang.Version, Round: r.Round, Checks: []canonicalCheck{}, Grades: [][2]string{}}
	if r.Partial() {
		c.MinScored = r.MinScored.Exact()
	}
	for _, ch := range r.Checks {
		c.Checks = append(c.Checks, canonicalCheck{
			Name: ch.Name, Points: ch.Points.Exact(),
			Each: text(ch.Each), Pass: text(ch.Pass), Label: text(ch.Label), Stop: ch.Stop,
		})
	}
	level := func(lv Level) canonicalLevel {
		out := canonicalLevel{Score: text(lv.Score), Metrics: pairs(lv.Metrics), Signals: pairs(lv.Signals), Issues: text(lv.Issues),
			Warnings: text(lv.Warnings), Invalid: text(lv.Invalid)}
		for _, r := range lv.Reports {
			out.Reports = append(out.Reports, canonicalReport{Name: r.Name, Fields: pairs(r.Fields)})
		}
		return out
	}
	c.Tool, c.Surface = level(r.Tool), level(r.Surface)
	c.JudgeLabels = r.JudgeLabels
	for _, q := range r.Questions {
		c.Questions = append(c.Questions, canonicalQuestionOf(q))
	}
	if g := r.Gate; g != nil {
		c.Gate = &canonicalGate{Value: text(g.Value), Round: g.Round, Confirm: g.Confirm, Scores: g.Scores, Justifications: g.Justifications}
	}
	c.Fixes = canonicalFixesOf(r.Fixes)
	for _, w := range r.Weights {
		c.Weights = append(c.Weights, [2]string{w.Name, w.Value.Exact()})
	}
	sort.Slice(c.Weights, func(i, j int) bool { return c.Weights[i][0] < c.Weights[j][0] })
	for _, g := range r.Grades {
		c.Grades = append(c.Grades, [2]string{g.Letter, g.Min.Exact()})
	}
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // only strings and ints: cannot fail
	}
	return b
}

func digest(r *Rubric) string { return surface.HashBytes(Canonical(r)) }
