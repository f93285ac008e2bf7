package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/rank"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
)

// ranked is one server of a ranking: its old and new score, grade and
// rank (0: no score), or why it could not be rescored.
type ranked struct {
	Server   string `json:"server"`
	Report   string `json:"report"`
	OldScore string `json:"old_score,omitempty"`
	OldGrade string `json:"old_grade,omitempty"`
	OldRank  int    `json:"old_rank,omitempty"`
	NewScore string `json:"new_score,omitempty"`
	NewGrade string `json:"new_grade,omitempty"`
	NewRank  int    `json:"new_rank,omitempty"`
	Change   int    `json:"rank_change"`
	Error    string `json:"error,omitempty"`
	oldExact *num.Num
	newExact *num.Num
}

// ranking is what rescore prints for several reports.
type ranking struct {
	Rubric  report.Rubric `json:"rubric"`
	Servers []*ranked     `json:"servers"`
	Tau     *float64      `json:"kendall_tau"`
	Movers  []string      `json:"largest_movers"`
}

// reportPaths expands the arguments: a directory stands for the JSON
// reports in it.
func reportPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		m, _ := filepath.Glob(filepath.Join(a, "*.json"))
		if len(m) == 0 {
			return nil, fmt.Errorf("%s holds no .json reports", a)
		}
		sort.Strings(m)
		out = append(out, m...)
	}
	return out, nil
}

// rescoreRanking rescores every report with r from its recorded
// observations (no judge is asked) and compares the two rankings.
func (a *app) rescoreRanking(ctx context.Context, r *rubric.Rubric, paths []string, format string) error {
	rk := ranking{Rubric: report.Rubric{Name: r.Name, Version: r.Version, Digest: r.Digest, File: r.File}}
	sess := run.New(run.Options{Workers: a.v.GetInt("workers"), Version: version(), Log: a.logger(), RedactParams: a.redactParams()})
	for _, p := range paths {
		s := &ranked{Report: p, Server: strings.TrimSuffix(filepath.Base(p), ".json")}
		rk.Servers = append(rk.Servers, s)
		old, err := report.Read(p)
		if err != nil {
			s.Error = err.Error()
			continue
		}
		if name, ok := old.Surface.Server["name"].(string); ok && name != "" {
			s.Server = name
		}
		s.OldScore, s.OldGrade, s.oldExact = scoreOf(old.Score, old.Exact, old.Grade)
		surf, err := old.EmbeddedSurface(p)
		if err != nil {
			s.Error = err.Error()
			continue
		}
		rep, err := sess.Scan(ctx, run.Source{Surface: surf, Name: old.Target}, r, run.ScanOptions{Answers: old})
		if err != nil {
			s.Error = "its observations cannot answer " + r.Name + ": " + err.Error()
			continue
		}
		s.NewScore, s.NewGrade, s.newExact = scoreOf(rep.Score, rep.Exact, rep.Grade)
	}
	olds, news := make([]*num.Num, len(rk.Servers)), make([]*num.Num, len(rk.Servers))
	for i, s := range rk.Servers {
		if s.Error == "" {
			olds[i], news[i] = s.oldExact, s.newExact
		}
	}
	or, nr := rank.Ranks(olds), rank.Ranks(news)
	for i, s := range rk.Servers {
		s.OldRank, s.NewRank = or[i], nr[i]
		if s.OldRank > 0 && s.NewRank > 0 {
			s.Change = s.OldRank - s.NewRank
		}
	}
	if tau, ok := rank.Tau(olds, news); ok {
		rk.Tau = &tau
	}
	sort.SliceStable(rk.Servers, func(i, j int) bool {
		a, b := rk.Servers[i], rk.Servers[j]
		if (a.NewRank == 0) != (b.NewRank == 0) {
			return b.NewRank == 0
		}
		return a.NewRank < b.NewRank
	})
	movers := append([]*ranked{}, rk.Servers...)
	sort.SliceStable(movers, func(i, j int) bool { return abs(movers[i].Change) > abs(movers[j].Change) })
	for _, m := range movers {
		if m.Change == 0 || len(rk.Movers) == 3 {
			break
		}
		rk.Movers = append(rk.Movers, fmt.Sprintf("%s (%d -> %d, %+d)", m.Server, m.OldRank, m.NewRank, m.Change))
	}
	if format == "json" {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rk)
	}
	fmt.Fprintf(a.stdout, "new: %s %s (%s), zero judge calls: every answer is read from the reports\n\n", r.Name, r.Version, report.ShortHash(r.Digest))
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "server\told\tgrade\trank\tnew\tgrade\trank\tchange\t")
	var failed []*ranked
	for _, s := range rk.Servers {
		if s.Error != "" {
			failed = append(failed, s)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", s.Server, dash(s.OldScore), dash(s.OldGrade), rankText(s.OldRank), dash(s.NewScore), dash(s.NewGrade), rankText(s.NewRank), changeText(s))
	}
	tw.Flush()
	fmt.Fprintln(a.stdout)
	if rk.Tau != nil {
		fmt.Fprintf(a.stdout, "Kendall's tau (tau-b) between the old and the new ranking: %.3f\n", *rk.Tau)
	} else {
		fmt.Fprintln(a.stdout, "Kendall's tau: not defined (fewer than two ranked servers, or every score tied)")
	}
	if len(rk.Movers) == 0 {
		fmt.Fprintln(a.stdout, "No server changed rank.")
	} else {
		fmt.Fprintf(a.stdout, "Largest movers: %s\n", strings.Join(rk.Movers, ", "))
	}
	for _, s := range failed {
		fmt.Fprintf(a.stdout, "Not rescored: %s (%s): %s\n", s.Server, s.Report, s.Error)
	}
	return nil
}

// scoreOf reads a report's overall score: as shown, its grade, and its
// exact value (nil when the report has no overall score).
func scoreOf(score *json.Number, exact, grade *string) (string, string, *num.Num) {
	var shown, g string
	var n *num.Num
	if score != nil {
		shown = score.String()
	}
	if grade != nil {
		g = *grade
	}
	if exact != nil {
		if x, err := num.Parse(*exact); err == nil {
			n = &x
		}
	}
	return shown, g, n
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func rankText(r int) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprint(r)
}

func changeText(s *ranked) string {
	if s.OldRank == 0 || s.NewRank == 0 || s.Change == 0 {
		return "0"
	}
	return fmt.Sprintf("%+d", s.Change)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
