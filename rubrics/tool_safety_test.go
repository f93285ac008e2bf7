package rubrics_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// safetyCase is one labelled surface of testdata/tool-safety/cases.json:
// poisoned definitions with the classes the rubric must flag (at medium
// or high) and the gravest severity it must give, and benign look-alikes
// with no class and the gravest severity they may get.
type safetyCase struct {
	Name     string            `json:"name"`
	Kind     string            `json:"kind"`
	Classes  []string          `json:"classes"`
	Severity string            `json:"severity"`
	Note     string            `json:"note"`
	Tools    []json.RawMessage `json:"tools"`
}

// safetyFinding is an entry of a tool's findings report member.
type safetyFinding struct {
	Check    string `json:"check"`
	Class    string `json:"class"`
	CueClass string `json:"cue_class"`
	Severity string `json:"severity"`
	Path     string `json:"path"`
	Span     string `json:"span"`
}

var severityRank = map[string]int{"none": 0, "low": 1, "medium": 2, "high": 3}

// scoreSafety scores a tools/list surface with tool-safety and returns
// the report and each tool's findings.
func scoreSafety(t testing.TB, name string, src []byte) (*report.Report, map[string][]safetyFinding) {
	t.Helper()
	r := builtin(t, "tool-safety")
	rep, err := score.Run(context.Background(), r, parseSurface(t, name, src), score.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := map[string][]safetyFinding{}
	for _, tool := range rep.Tools {
		for _, f := range tool.Fields {
			if f.Name != "findings" {
				continue
			}
			raw, err := f.JSON()
			if err != nil {
				t.Fatal(err)
			}
			var fs []safetyFinding
			if err := json.Unmarshal(raw, &fs); err != nil {
				t.Fatalf("%s: findings: %v", tool.Name, err)
			}
			out[tool.Name] = fs
		}
	}
	return rep, out
}

// TestToolSafetyLabelled scores every labelled case and pins, per class,
// precision and recall (a class counts as flagged when a finding of it
// has medium or high severity), the gravest severity of every case (the
// held-out cases, written after the cues were tuned and not tuned on, are
// counted in the table instead of failing), and that no benign
// look-alike is flagged high. Run with -v for the table.
func TestToolSafetyLabelled(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "tool-safety", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []safetyCase
	if err := json.Unmarshal(src, &cases); err != nil {
		t.Fatal(err)
	}
	type counts struct{ tp, fp, fn int }
	per := map[string]*counts{}
	get := func(c string) *counts {
		if per[c] == nil {
			per[c] = &counts{}
		}
		return per[c]
	}
	poisoned, benign, sevMatch := 0, 0, 0
	classes := map[string]bool{}
	for _, c := range cases {
		if c.Kind == "poisoned" {
			poisoned++
		} else {
			benign++
		}
		surf, _ := json.Marshal(map[string]any{"tools": c.Tools})
		rep, findings := scoreSafety(t, c.Name+".tools.json", surf)
		flagged := map[string]bool{}
		gravest := "none"
		for _, fs := range findings {
			for _, f := range fs {
				if severityRank[f.Severity] > severityRank[gravest] {
					gravest = f.Severity
				}
				if severityRank[f.Severity] >= severityRank["medium"] {
					flagged[f.Class] = true
					flagged[f.CueClass] = true
				}
			}
		}
		// The issues carry the severity the findings have.
		for _, tool := range rep.Tools {
			for _, is := range tool.Issues {
				if !report.ValidSeverity(is.Severity) {
					t.Errorf("%s: %s: issue %q has severity %q", c.Name, tool.Name, is.Check, is.Severity)
				}
			}
		}
		for _, want := range c.Classes {
			classes[want] = true
			if flagged[want] {
				get(want).tp++
			} else {
				get(want).fn++
				t.Logf("%s: class %s not flagged (findings %+v)", c.Name, want, findings)
			}
		}
		for got := range flagged {
			if !slices.Contains(c.Classes, got) {
				get(got).fp++
				t.Logf("%s: class %s flagged but not labelled (findings %+v)", c.Name, got, findings)
			}
		}
		if gravest == c.Severity {
			sevMatch++
		} else if strings.HasPrefix(c.Name, "heldout-") {
			t.Logf("%s (%s, held out): gravest severity %s, labelled %s", c.Name, c.Kind, gravest, c.Severity)
		} else {
			t.Errorf("%s (%s): gravest severity %s, labelled %s; findings %+v", c.Name, c.Kind, gravest, c.Severity, findings)
		}
		if c.Kind == "benign" && gravest == "high" {
			t.Errorf("%s: a benign look-alike is flagged high", c.Name)
		}
	}
	if poisoned < 30 || benign < 15 || len(classes) < 10 {
		t.Errorf("the labelled set has %d poisoned, %d benign, %d classes; want at least 30, 15, 10", poisoned, benign, len(classes))
	}
	names := make([]string, 0, len(per))
	for c := range per {
		names = append(names, c)
	}
	sort.Strings(names)
	var table strings.Builder
	fmt.Fprintf(&table, "%-16s %4s %4s %4s %9s %7s\n", "class", "tp", "fp", "fn", "precision", "recall")
	for _, n := range names {
		c := per[n]
		fmt.Fprintf(&table, "%-16s %4d %4d %4d %9s %7s\n", n, c.tp, c.fp, c.fn, ratio(c.tp, c.tp+c.fp), ratio(c.tp, c.tp+c.fn))
	}
	fmt.Fprintf(&table, "gravest severity as labelled: %d of %d cases\n", sevMatch, len(cases))
	t.Logf("%d poisoned, %d benign cases\n%s", poisoned, benign, table.String())
	golden := filepath.Join("testdata", "tool-safety", "metrics.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if string(want) != table.String() {
		t.Errorf("precision and recall moved:\n got\n%s\nwant\n%s", table.String(), want)
	}
}

func ratio(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// TestToolSafetyCorpus: the 352 tools of the 16 real captures raise no
// high finding.
func TestToolSafetyCorpus(t *testing.T) {
	heavytest.Later(t)
	files, err := filepath.Glob(filepath.Join("..", "engine", "score", "testdata", "corpus", "*.tools.json"))
	if err != nil || len(files) != 16 {
		t.Fatalf("want the 16 corpus captures, got %d (%v)", len(files), err)
	}
	tools := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rep, findings := scoreSafety(t, f, src)
		tools += len(rep.Tools)
		for name, fs := range findings {
			for _, fd := range fs {
				if fd.Severity == "high" {
					t.Errorf("%s: %s: high finding %s at %s: %q", filepath.Base(f), name, fd.Check, fd.Path, fd.Span)
				}
			}
		}
	}
	if tools != 352 {
		t.Errorf("scored %d tools, want the corpus's 352", tools)
	}
}
