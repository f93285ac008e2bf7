package scan

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
)

//go:embed assets/leaderboard.tmpl
var boardSource string

var boardPage = template.Must(template.New("leaderboard").Funcs(template.FuncMap{"plural": report.Plural}).Parse(boardSource))

// boardView is what leaderboard.html shows.
type boardView struct {
	Generator     string
	Totals        Totals
	Cost, Seconds string
	// Refused words the requests the provider refused or never
	// answered, which are no judge calls.
	Refused string
	Rubrics []string
	Groups  []boardGroup
	Judges  []boardJudges
	Failed  []Failen
	// Partial says what a leaderboard of part of its list lacks (or
	// that it is one worker's part of a queue's scan).
	Partial string
}

type boardGroup struct {
	// Label names the group's judge configurations; empty when the
	// leaderboard is one group.
	Label string
	Rows  []boardRow
}

type boardRow struct {
	Rank  int
	Name  string
	Cells []boardCell
}

type boardCell struct {
	Missing      bool
	Score, Grade string
	// Href is the server's report: its HTML page when one is written
	// beside the JSON, else the JSON.
	Href string
}

type boardJudges struct {
	Rubric  string
	Configs []boardConfig
}

type boardConfig struct {
	Name    string
	Servers int
}

// WriteHTML writes the leaderboard as one self-contained HTML page with
// the content of leaderboard.md (its CSS inline, no script, no request):
// dir is the scan's directory, where each score links to the server's
// report, to its HTML page when one is there.
func (lb *Leaderboard) WriteHTML(w io.Writer, dir string) error {
	v := boardView{Generator: lb.Generator.Name + " " + lb.Generator.Version, Totals: lb.Totals, Refused: lb.Totals.refused(), Seconds: fmt.Sprintf("%.1f", lb.Totals.Seconds)}
	if lb.Totals.CostUSD > 0 {
		v.Cost = report.USD(lb.Totals.CostUSD)
	}
	for _, r := range lb.Rubrics {
		v.Rubrics = append(v.Rubrics, r.Name)
	}
	groups := lb.groups(func(g JudgeGroup) string { return g.Judge.Short() })
	for _, g := range groups {
		bg := boardGroup{}
		if len(groups) > 1 {
			bg.Label = g.label
		}
		for i, e := range g.servers {
			row := boardRow{Rank: i + 1, Name: e.Name}
			for _, n := range v.Rubrics {
				s, ok := e.Scores[n]
				c := boardCell{Missing: !ok}
				if ok {
					c.Href = reportLink(dir, s.Report)
					if s.Score != nil {
						c.Score = s.Score.String()
					}
					if s.Grade != nil {
						c.Grade = *s.Grade
					}
				}
				row.Cells = append(row.Cells, c)
			}
			bg.Rows = append(bg.Rows, row)
		}
		v.Groups = append(v.Groups, bg)
	}
	for _, n := range v.Rubrics {
		bj := boardJudges{Rubric: n}
		for _, g := range lb.Judges {
			if g.Rubric == n {
				bj.Configs = append(bj.Configs, boardConfig{Name: g.Judge.Short(), Servers: len(g.Servers)})
			}
		}
		if len(bj.Configs) > 0 {
			v.Judges = append(v.Judges, bj)
		}
	}
	v.Failed = lb.Failed
	if lb.Partial != nil {
		v.Partial = lb.Partial.Sentence()
	}
	if lb.Worker {
		v.Partial = WorkerSentence
	}
	return boardPage.Execute(w, v)
}

// reportLink is the link from the leaderboard to a report at rel (a
// slash-separated path under dir): the HTML page beside it when there
// is one, each segment escaped for a URL.
func reportLink(dir, rel string) string {
	if page := strings.TrimSuffix(rel, ".json") + ".html"; page != rel {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(page))); err == nil {
			rel = page
		}
	}
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
