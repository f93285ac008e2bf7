package report_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
)

func TestCause(t *testing.T) {
	cases := []struct {
		is   report.Issue
		want string
	}{
		{report.Issue{Message: "parameters without a description: path, pid", Params: []string{"path", "pid"}}, "parameters without a description"},
		{report.Issue{Message: "usage_guidelines scored 2: no cue says when to use the tool."}, "usage_guidelines scored 2: no cue says when to use the tool"},
		// Parameters the message does not list leave it whole.
		{report.Issue{Message: "inputSchema has no required list", Params: []string{"x"}}, "inputSchema has no required list"},
		// The last mention is the list, not a word the message shares.
		{report.Issue{Message: "path params lack types: path", Params: []string{"path"}}, "path params lack types"},
		// A parameter inside a Tool Safety pointer leaves the pointer whole,
		// and a short name inside a word ("enum") is not the parameter.
		{report.Issue{Message: `a cue (high) at /inputSchema/properties/q/description: "«x»"`, Params: []string{"q"}},
			`a cue (high) at /inputSchema/properties/*/description: "«x»"`},
		{report.Issue{Message: `a cue (high) at /inputSchema/properties/m/enum/1: "«x»"`, Params: []string{"m"}},
			`a cue (high) at /inputSchema/properties/*/enum/1: "«x»"`},
	}
	for _, c := range cases {
		if got := report.Cause(c.is); got != c.want {
			t.Errorf("Cause(%q) = %q, want %q", c.is.Message, got, c.want)
		}
	}
}

func TestGroupFixes(t *testing.T) {
	rep := reporttest.Capture(t, "desktop-commander.tools.json")
	fixes, err := rep.FixList()
	if err != nil {
		t.Fatal(err)
	}
	groups := report.GroupFixes(fixes)
	n := 0
	for i, g := range groups {
		n += len(g.Fixes)
		sum := g.Fixes[0].Gain.Sub(g.Fixes[0].Gain)
		for _, f := range g.Fixes {
			sum = sum.Add(f.Gain)
			if f.Issue.Check != g.Check || report.Cause(f.Issue) != g.Cause {
				t.Errorf("group %q holds %s's issue %q", g.Cause, f.Tool, f.Issue.Message)
			}
		}
		if sum.Cmp(g.Gain) != 0 {
			t.Errorf("group %q: gain %s, its fixes sum to %s", g.Cause, g.Gain.Exact(), sum.Exact())
		}
		if i > 0 && groups[i-1].Gain.Cmp(g.Gain) < 0 {
			t.Errorf("group %d (%s) gains more than the one before it", i, g.Cause)
		}
	}
	if n != len(fixes) {
		t.Errorf("the groups hold %d fixes, the list %d", n, len(fixes))
	}
	// The capture's repeated cause is one group, first: every tool with
	// parameters but no parameter descriptions.
	if len(groups) == 0 || groups[0].Cause != "parameters without a description" || len(groups[0].Fixes) < 10 {
		t.Fatalf("first group: %+v", groups[0])
	}
	var names []string
	for _, f := range groups[0].Fixes {
		names = append(names, f.Tool)
	}
	if !strings.Contains(strings.Join(names, " "), "edit_block") {
		t.Errorf("edit_block missing from %v", names)
	}
}

// TestGroupFixesSingleToolsByName: causes of one tool each, of the same
// gain and check, come in the order of their tools' names; they came in
// the order of their messages' text ("Add a comment…" for
// add_issue_comment, "Create a new GitHub repository…" for
// create_repository before "Create a new branch…" for create_branch).
func TestGroupFixesSingleToolsByName(t *testing.T) {
	fix := func(tool, msg string) report.Fix {
		return report.Fix{Tool: tool, Gain: num.Int(0), Issue: report.Issue{Check: "suggested_description", Message: msg}}
	}
	groups := report.GroupFixes([]report.Fix{
		fix("add_issue_comment", "Suggested description: \"Add a comment.\""),
		fix("create_repository", "Suggested description: \"Create a new GitHub repository.\""),
		fix("create_branch", "Suggested description: \"Create a new branch.\""),
	})
	var got []string
	for _, g := range groups {
		got = append(got, g.Fixes[0].Tool)
	}
	if want := []string{"add_issue_comment", "create_branch", "create_repository"}; !slices.Equal(got, want) {
		t.Errorf("groups in the order %q, want %q", got, want)
	}
}
