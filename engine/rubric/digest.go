package rubric

import (
	"encoding/json"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/surface"
)

// digestVersion changes whenever the canonical encoding below changes.
const digestVersion = 1

// canonical is what the digest covers: everything that can move a score,
// numbers as exact strings and formulas re-printed from their syntax trees.
// Names, titles, descriptions and issue texts do not move a score and stay
// out, as do white space and comments.
type canonical struct {
	Digest  int              `json:"digest"`
	Lang    string           `json:"lang"`
	Round   int              `json:"round"`
	Checks  []canonicalCheck `json:"checks"`
	Tool    canonicalLevel   `json:"tool"`
	Surface canonicalLevel   `json:"surface"`
	Grades  [][2]string      `json:"grades"`
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
	Metrics [][2]string `json:"metrics,omitempty"`
	Score   string      `json:"score"`
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
	for _, ch := range r.Checks {
		c.Checks = append(c.Checks, canonicalCheck{
			Name: ch.Name, Points: ch.Points.Exact(),
			Each: text(ch.Each), Pass: text(ch.Pass), Label: text(ch.Label), Stop: ch.Stop,
		})
	}
	level := func(lv Level) canonicalLevel {
		out := canonicalLevel{Score: text(lv.Score)}
		for _, m := range lv.Metrics {
			out.Metrics = append(out.Metrics, [2]string{m.Name, text(m.Value)})
		}
		return out
	}
	c.Tool, c.Surface = level(r.Tool), level(r.Surface)
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
