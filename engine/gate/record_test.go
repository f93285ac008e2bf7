package gate_test

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/contract"
	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/num"
)

// TestCheckRefusesForgedReports: --check takes a saved decision only
// when it is the one the report's own record gives. Each case edits a
// saved BLOCK (three pairs: the first dropped, the medians confirmed it)
// as someone making it pass might, and the check is INVALID, saying
// what does not hold; the unedited report keeps its BLOCK.
func TestCheckRefusesForgedReports(t *testing.T) {
	f, base, head, saved := savedGate(t)
	if saved.Decision != gate.Block || len(saved.Pairs) != 3 {
		t.Fatalf("the fixture gives %s after %d pairs, want BLOCK after 3", saved.Decision, len(saved.Pairs))
	}
	rule := gate.RuleOf(f.r)
	now := gate.Current{BaseHash: base.Hash(), HeadHash: head.Hash(), Rubric: saved.Rubric, Judge: saved.Judge,
		Rule: &rule, Asks: true, Contract: contract.Compare(base, head)}
	passing := func(r *gate.Report) {
		r.Decision, r.ExitCode, r.Reason = gate.Pass, 0, "the score holds: head 5.0, base 5.0"
	}
	for _, tc := range []struct {
		name string
		edit func(*gate.Report, *gate.Current)
		want string // "" when the check keeps the saved BLOCK
	}{
		{"unedited", func(*gate.Report, *gate.Current) {}, ""},
		{"the decision alone", func(r *gate.Report, _ *gate.Current) { passing(r) },
			"it says PASS, but what it records (its pairs under its rule, its lock and its contract) gives BLOCK: the mean rating drops: the head's median over 3 pairs is"},
		{"the exit code alone", func(r *gate.Report, _ *gate.Current) { r.ExitCode = 0 },
			"it says BLOCK with exit code 0, where BLOCK exits 1"},
		{"the reason alone", func(r *gate.Report, _ *gate.Current) { r.Reason = "all is well" },
			`its reason is not the one what it records gives ("the mean rating drops: the head's median over 3 pairs is 4.2, below the base's 5.0")`},
		{"one pair kept, and PASS", func(r *gate.Report, _ *gate.Current) {
			r.Pairs, r.Medians = r.Pairs[:1], nil
			passing(r)
		}, "it records 1 pair, fewer than its rule needs to decide (2 more)"},
		{"the first pair's drop undone", func(r *gate.Report, _ *gate.Current) {
			r.Pairs[0].Drop = false
		}, "pair 1 says drop false, but its head"},
		{"a head value raised but not its exact value", func(r *gate.Report, _ *gate.Current) {
			r.Pairs[0].Head.Value = r.Pairs[0].Base.Value
		}, "pair 1's head: value " + "5.0 is not its exact"},
		{"the medians", func(r *gate.Report, _ *gate.Current) {
			r.Medians.Head = r.Medians.Base
			r.Medians.HeadExact = r.Medians.BaseExact
		}, "its medians are not those of its pairs"},
		{"the rule's confirming pairs", func(r *gate.Report, _ *gate.Current) { r.Rule.Confirm = 0 },
			"its rule (mean rating = metrics.mean, rounded to 1 decimal, 0 confirming pairs) is not the rubric's (mean rating = metrics.mean, rounded to 1 decimal, 2 confirming pairs)"},
		{"the judge left out", func(r *gate.Report, c *gate.Current) { r.Judge, c.Judge = nil, nil },
			"the rubric asks a judge questions, but the report, which scored 3 pairs, names no judge"},
		{"a breaking change taken out", func(r *gate.Report, c *gate.Current) {
			c.Contract = &contract.Diff{Changes: []contract.Change{{Tool: "tool_00", Class: contract.Breaking, Message: "removed"}}, Breaking: 1}
		}, "its contract (0 breaking · 0 risky · 0 information · 1 compatible) is not the one today's exports give (1 breaking · 0 risky · 0 information · 0 compatible)"},
		{"fail-on-breaking asked for today", func(_ *gate.Report, c *gate.Current) { c.FailOnBreaking = true },
			"it was decided without failing on breaking changes, which today's settings ask for (fail-on-breaking)"},
		{"the values of a rubric that asks nothing", func(r *gate.Report, c *gate.Current) {
			c.Values = []num.Num{num.MustParse(r.Pairs[0].Base.Exact), num.MustParse("5")}
		}, "pair 1's head scores"},
		{"the values today's exports give, held", func(r *gate.Report, c *gate.Current) {
			r.Pairs, r.Medians = r.Pairs[:1], nil
			r.Rule.Confirm, c.Rule = 0, nil
			c.Values = []num.Num{num.MustParse(r.Pairs[0].Base.Exact), num.MustParse(r.Pairs[0].Head.Exact)}
			r.Reason = "the mean rating drops from 5.0 to 4.2 (one pair decides: the rubric's gate asks for no confirming pairs)"
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, n := savedAgain(t, saved), now
			tc.edit(r, &n)
			got := gate.Check(r, n)
			if tc.want == "" {
				if got.Decision != gate.Block || got.ExitCode != 1 {
					t.Fatalf("%s (exit %d): %s, want the saved BLOCK", got.Decision, got.ExitCode, got.Reason)
				}
				return
			}
			if got.Decision != gate.Invalid || got.ExitCode != 2 {
				t.Fatalf("%s (exit %d): %s, want INVALID", got.Decision, got.ExitCode, got.Reason)
			}
			if !strings.HasPrefix(got.Reason, "the saved report does not hold together: ") || !strings.Contains(got.Reason, tc.want) ||
				!strings.HasSuffix(got.Reason, "; run the gate again without --check") {
				t.Errorf("reason:\n%s\nwant it to contain:\n%s", got.Reason, tc.want)
			}
		})
	}
}
