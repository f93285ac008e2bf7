package scan

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/markdown"
)

// WriteMarkdown writes the leaderboard as Markdown: the totals, then the
// servers ranked under every rubric (in one table while every rubric's
// scores come from one judge configuration, else one table per
// combination of configurations, since scores from different ones are
// not comparable), the judges, and the failures with their reasons.
func (lb *Leaderboard) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	t := lb.Totals
	fmt.Fprintf(&b, "## Scan · %s\n\n", report.Plural(t.Servers, "server"))
	fmt.Fprintf(&b, "%d scored%s · %d failed · %s · %s (%d answers from the cache) · %d tokens", t.Scored, t.NoToolsWords(), t.Failed, report.Plural(t.Tools, "tool"), report.Plural(t.Calls, "judge call"), t.CacheHits, t.Tokens)
	if refused := t.refused(); refused != "" {
		fmt.Fprintf(&b, " · %s", refused)
	}
	if t.CostUSD > 0 {
		fmt.Fprintf(&b, " · %s", report.USD(t.CostUSD))
	}
	fmt.Fprintf(&b, " · %.1f s\n\n", t.Seconds)
	if lb.Partial != nil {
		fmt.Fprintf(&b, "**%s**\n\n", lb.Partial.Sentence())
	}
	if lb.Worker {
		fmt.Fprintf(&b, "**%s**\n\n", WorkerSentence)
	}
	names := make([]string, len(lb.Rubrics))
	for i, r := range lb.Rubrics {
		names[i] = r.Name
	}
	groups := lb.groups(judgeLabel)
	for _, g := range groups {
		if len(groups) > 1 {
			fmt.Fprintf(&b, "### Judged by %s\n\n", g.label)
		}
		b.WriteString("| # | server |")
		for _, n := range names {
			fmt.Fprintf(&b, " %s |", n)
		}
		b.WriteString("\n|---:|---|" + strings.Repeat("---|", len(names)) + "\n")
		for i, e := range g.servers {
			fmt.Fprintf(&b, "| %d | %s |", i+1, cell(e.Name))
			for _, n := range names {
				s, ok := e.Scores[n]
				switch {
				case !ok:
					b.WriteString(" – |")
				case s.Score == nil:
					fmt.Fprintf(&b, " [no score](%s) |", s.Report)
				default:
					grade := ""
					if s.Grade != nil {
						grade = " " + *s.Grade
					}
					fmt.Fprintf(&b, " [%s%s](%s) |", s.Score, grade, s.Report)
				}
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	if len(lb.Judges) > 0 {
		b.WriteString("### Judges\n\n")
		for _, n := range names {
			var of []JudgeGroup
			for _, g := range lb.Judges {
				if g.Rubric == n {
					of = append(of, g)
				}
			}
			switch len(of) {
			case 0:
				continue
			case 1:
				fmt.Fprintf(&b, "- %s: one judge configuration, %s: its scores are comparable.\n", n, judgeLabel(of[0]))
			default:
				fmt.Fprintf(&b, "- %s: %d judge configurations: scores from different configurations are **not comparable**.\n", n, len(of))
				for _, g := range of {
					fmt.Fprintf(&b, "  - %s: %s\n", judgeLabel(g), report.Plural(len(g.Servers), "server"))
				}
			}
		}
		b.WriteString("\n")
	}
	if len(lb.Failed) > 0 {
		fmt.Fprintf(&b, "### Failed · %d\n\n| server | reason |\n|---|---|\n", len(lb.Failed))
		for _, f := range lb.Failed {
			fmt.Fprintf(&b, "| %s | %s |\n", cell(f.Name), cell(f.Reason))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// group is the servers judged by one combination of configurations.
type group struct {
	label   string
	servers []Entry
}

// groups splits the ranked servers by the combination of judge
// configurations that scored them, each named with name; one group when
// every rubric has at most one.
func (lb *Leaderboard) groups(name func(JudgeGroup) string) []group {
	comparable := true
	for _, ok := range lb.Comparable {
		comparable = comparable && ok
	}
	if comparable {
		return []group{{servers: lb.Servers}}
	}
	of := map[string][]string{} // server → its configurations' labels
	for _, g := range lb.Judges {
		for _, s := range g.Servers {
			of[s] = append(of[s], g.Rubric+": "+name(g))
		}
	}
	var out []group
	index := map[string]int{}
	for _, e := range lb.Servers {
		labels := of[e.Name]
		slices.Sort(labels)
		label := strings.Join(labels, "; ")
		if label == "" {
			label = "no judge"
		}
		i, ok := index[label]
		if !ok {
			i = len(out)
			index[label] = i
			out = append(out, group{label: label})
		}
		out[i].servers = append(out[i].servers, e)
	}
	return out
}

// judgeLabel is judgeName as Markdown code.
func judgeLabel(g JudgeGroup) string { return "`" + g.Judge.Short() + "`" }

// cell escapes a table cell: a server's name or a failure's reason,
// which come from a list and a server's stderr, untrusted, are text, as
// in score's Markdown (no HTML, link, image or emphasis; URLs not
// linked).
func cell(s string) string { return markdown.Inline(s) }
