package rank

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
)

// Ranked is one server of a ranking: its old and new score, grade and
// rank (0: no score), or why it could not be rescored.
type Ranked struct {
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
	// unread is a report that could not be read: its error names the
	// file, and its server is only the file's name.
	unread bool
}

// Ranking is what rescore prints for several reports.
type Ranking struct {
	Rubric report.Rubric `json:"rubric"`
	// Old is the rubric the rescored reports were scored with (their
	// name and version are one: reports of another are not rescored),
	// each digest among them once, in the reports' order; empty when no
	// report was rescored.
	Old     []report.Rubric `json:"old_rubrics,omitempty"`
	Servers []*Ranked       `json:"servers"`
	Tau     *float64        `json:"kendall_tau"`
	Movers  []string        `json:"largest_movers"`
}

// ReportPaths expands the arguments: a directory stands for the JSON
// reports in it.
func ReportPaths(args []string) ([]string, error) {
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

// Scan rescores one report's embedded surface with a rubric, reading
// every answer back from the old report.
type Scan func(ctx context.Context, surf *surface.Surface, target string, old *report.Report) (*report.Report, error)

// Check tells whether a report's recorded scores can be trusted as its
// old scores: nil, or why not (it does not agree with itself).
type Check func(ctx context.Context, old *report.Report) error

// Rescore rescores every report at paths with r from its recorded
// observations (scan asks no judge) and compares the two rankings. A
// report check refuses is not rescored, and neither is one scored with
// another rubric (name and version) than the first report accepted: its old
// score is on another scale, and one old column cannot rank the two. Nor
// is one answered by another judge configuration than the first's (the
// Gradable methodology: two judges' scores do not compare, old or new).
// Reports of servers of the same name are told apart by their file. A
// server is named by names[path] when names has its path (a scan's name
// for it), else by the name its report records.
func Rescore(ctx context.Context, r *rubric.Rubric, paths []string, names map[string]string, scan Scan, check Check) *Ranking {
	rk := &Ranking{Rubric: report.Rubric{Name: r.Name, Version: r.Version, Digest: r.Digest, File: r.File}}
	var first *report.Report
	var firstPath string
	for _, p := range paths {
		s := &Ranked{Report: p, Server: strings.TrimSuffix(filepath.Base(p), ".json")}
		rk.Servers = append(rk.Servers, s)
		old, err := report.Read(p)
		if err != nil {
			s.Error, s.unread = err.Error(), true
			continue
		}
		if name, ok := names[p]; ok {
			s.Server = name
		} else if name, ok := old.Surface.Server["name"].(string); ok && name != "" {
			s.Server = name
		}
		if check != nil {
			if err := check(ctx, old); err != nil {
				s.Error = err.Error()
				continue
			}
		}
		if first == nil {
			first, firstPath = old, p
		} else if old.Rubric.Name != first.Rubric.Name || old.Rubric.Version != first.Rubric.Version {
			s.Error = fmt.Sprintf("scored with %s %s, but %s with %s %s: the old scores are on two scales, so one old column cannot rank them; rescore the reports of one rubric together",
				old.Rubric.Name, old.Rubric.Version, firstPath, first.Rubric.Name, first.Rubric.Version)
			continue
		}
		if judgeKey(old.Judge) != judgeKey(first.Judge) {
			s.Error = fmt.Sprintf("answered by the judge %s, but %s by %s: scores of two judge configurations do not compare, so one ranking cannot hold them; rescore the reports of one judge together",
				old.Judge.Short(), firstPath, first.Judge.Short())
			continue
		}
		if !slices.ContainsFunc(rk.Old, func(o report.Rubric) bool { return o.Digest == old.Rubric.Digest }) {
			rk.Old = append(rk.Old, report.Rubric{Name: old.Rubric.Name, Version: old.Rubric.Version, Digest: old.Rubric.Digest})
		}
		s.OldScore, s.OldGrade, s.oldExact = scoreOf(old.Score, old.Exact, old.Grade)
		surf, err := old.EmbeddedSurface(p)
		if err != nil {
			s.Error = err.Error()
			continue
		}
		rep, err := scan(ctx, surf, old.Target, old)
		if err != nil {
			s.Error = "its observations cannot answer " + r.Name + ": " + err.Error()
			continue
		}
		s.NewScore, s.NewGrade, s.newExact = scoreOf(rep.Score, rep.Exact, rep.Grade)
	}
	tellApart(rk.Servers)
	olds, news := make([]*num.Num, len(rk.Servers)), make([]*num.Num, len(rk.Servers))
	for i, s := range rk.Servers {
		if s.Error == "" {
			olds[i], news[i] = s.oldExact, s.newExact
		}
	}
	or, nr := Ranks(olds), Ranks(news)
	for i, s := range rk.Servers {
		s.OldRank, s.NewRank = or[i], nr[i]
		if s.OldRank > 0 && s.NewRank > 0 {
			s.Change = s.OldRank - s.NewRank
		}
	}
	if tau, ok := Tau(olds, news); ok {
		rk.Tau = &tau
	}
	sort.SliceStable(rk.Servers, func(i, j int) bool {
		a, b := rk.Servers[i], rk.Servers[j]
		if (a.NewRank == 0) != (b.NewRank == 0) {
			return b.NewRank == 0
		}
		return a.NewRank < b.NewRank
	})
	movers := append([]*Ranked{}, rk.Servers...)
	sort.SliceStable(movers, func(i, j int) bool { return abs(movers[i].Change) > abs(movers[j].Change) })
	for _, m := range movers {
		if m.Change == 0 || len(rk.Movers) == 3 {
			break
		}
		rk.Movers = append(rk.Movers, fmt.Sprintf("%s (%d -> %d, %+d)", m.Server, m.OldRank, m.NewRank, m.Change))
	}
	return rk
}

// judgeKey is a report's judge configuration as a string (its block's
// JSON, labels included), "" for a report no judge answered.
func judgeKey(j *report.Judge) string {
	if j == nil {
		return ""
	}
	b, _ := json.Marshal(j)
	return string(b)
}

// tellApart names each server that shares its name with another by its
// report's file too.
func tellApart(servers []*Ranked) {
	n := map[string]int{}
	for _, s := range servers {
		n[s.Server]++
	}
	for _, s := range servers {
		if n[s.Server] > 1 {
			s.Server += " (" + filepath.Base(s.Report) + ")"
		}
	}
}

// Failed is the reports that could not be rescored, by server.
func (k *Ranking) Failed() []string {
	var out []string
	for _, s := range k.Servers {
		if s.Error != "" {
			out = append(out, s.Server)
		}
	}
	return out
}

// WriteJSON writes the ranking as indented JSON.
func (k *Ranking) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(k)
}

// WriteText writes the ranking as a table, tau, the largest movers and
// the reports that could not be rescored.
func (k *Ranking) WriteText(w io.Writer) error {
	if len(k.Old) > 0 {
		digests := make([]string, len(k.Old))
		for i, o := range k.Old {
			digests[i] = report.ShortHash(o.Digest)
		}
		fmt.Fprintf(w, "old: %s %s (%s)\n", k.Old[0].Name, k.Old[0].Version, strings.Join(digests, ", "))
	}
	fmt.Fprintf(w, "new: %s %s (%s), zero judge calls: every answer is read from the reports\n\n", k.Rubric.Name, k.Rubric.Version, report.ShortHash(k.Rubric.Digest))
	// The numbers align right, the servers' names left, as rescore's
	// table of tools has its names (a right-aligned column of names was
	// hard to read): the names go before the tabwriter's lines, padded to
	// one width.
	names := []string{"server"}
	var cells bytes.Buffer
	tw := tabwriter.NewWriter(&cells, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "old\tgrade\trank\tnew\tgrade\trank\tmoved\t")
	var failed []*Ranked
	for _, s := range k.Servers {
		if s.Error != "" {
			failed = append(failed, s)
			continue
		}
		names = append(names, s.Server)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", dash(s.OldScore), dash(s.OldGrade), rankText(s.OldRank), dash(s.NewScore), dash(s.NewGrade), rankText(s.NewRank), changeText(s))
	}
	tw.Flush()
	nameW := 0
	for _, n := range names {
		nameW = max(nameW, utf8.RuneCountInString(n))
	}
	for i, line := range strings.Split(strings.TrimSuffix(cells.String(), "\n"), "\n") {
		fmt.Fprintf(w, "%s%s%s\n", names[i], strings.Repeat(" ", nameW-utf8.RuneCountInString(names[i])), line)
	}
	fmt.Fprintln(w)
	if k.Tau != nil {
		fmt.Fprintf(w, "Kendall's tau (tau-b) between the old and the new ranking: %.3f\n", *k.Tau)
	} else {
		fmt.Fprintln(w, "Kendall's tau: not defined (fewer than two ranked servers, or every score tied)")
	}
	if len(k.Movers) == 0 {
		fmt.Fprintln(w, "No server changed rank.")
	} else {
		fmt.Fprintf(w, "Largest movers: %s\n", strings.Join(k.Movers, ", "))
	}
	for _, s := range failed {
		if s.unread {
			fmt.Fprintf(w, "Not rescored: %s\n", s.Error)
			continue
		}
		fmt.Fprintf(w, "Not rescored: %s (%s): %s\n", s.Server, s.Report, s.Error)
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

func changeText(s *Ranked) string {
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
