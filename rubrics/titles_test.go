package rubrics_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/markdown"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestIssueChecksHaveTitles: every check a built-in rubric's issues
// formula names has a title (its tool block's titles), as every check
// block has, so that a fix list shows no bare identifier: each check
// name written in the formulas of tool-safety and toolset, and each
// issue of tool-safety on the poisoned tools and of tdqs and gradable on
// the undescribed server, but TDQS's flags, whose names are titles.
func TestIssueChecksHaveTitles(t *testing.T) {
	written := regexp.MustCompile(`'check': '([a-z_]+)'`)
	for _, name := range []string{"tool-safety", "toolset"} {
		src, err := rubrics.Source(name)
		if err != nil {
			t.Fatal(err)
		}
		titles := builtin(t, name).Tool.Titles
		for _, m := range written.FindAllSubmatch(src, -1) {
			if titles[string(m[1])] == "" {
				t.Errorf("%s: the check %s has no title", name, m[1])
			}
		}
	}
	flags := map[string]bool{"No Description": true, "Tautological Description": true, "Annotation Contradiction": true}
	for _, c := range []struct {
		rubric string
		rep    *report.Report
	}{
		{"tool-safety", poisoned(t)},
		{"tdqs", scoreUndescribed(t, "tdqs")},
		{"gradable", scoreUndescribed(t, "gradable")},
	} {
		n := 0
		for _, tool := range c.rep.Tools {
			for _, is := range tool.Issues {
				if _, check := tool.Check(is.Check); check || flags[is.Check] {
					continue
				}
				n++
				if is.Title == "" || tool.CheckTitle(is) != is.Title {
					t.Errorf("%s: tool %s: the issue of %s has the title %q", c.rubric, tool.Name, is.Check, is.Title)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no issue of its issues formula to look at", c.rubric)
		}
	}
}

// poisoned is tool-safety's report on the poisoned tools.
func poisoned(t *testing.T) *report.Report {
	t.Helper()
	rep, _ := gradeHeuristic(t, builtin(t, "tool-safety"), readSurface(t, filepath.Join("testdata", "fixes", "poisoned.tools.json")))
	rep.Target = "poisoned.tools.json"
	rep.Surface.Source = ""
	return rep
}

// TestToolSafetyFixListGolden: tool-safety's Markdown fix list on the
// poisoned tools names each check by its title.
func TestToolSafetyFixListGolden(t *testing.T) {
	var md bytes.Buffer
	if err := markdown.Write(&md, poisoned(t)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "fixes", "tool-safety-poisoned.md")
	if *update {
		if err := os.WriteFile(path, md.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(md.Bytes(), want) {
		t.Errorf("%s differs; if the change is intended, run go test -run ToolSafetyFixListGolden -update and review the diff\n--- got ---\n%s", path, md.Bytes())
	}
}
