package gate

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
)

// A gate's decision is a function of what its report records: the two
// sides' hashes and tool counts, the pairs' values, the rule, the lock's
// changes, the contract and whose settings decided. run decides through
// the functions here, and Check decides through them again, so that a
// saved report whose decision does not follow from its own record (one
// edited by hand, say) is not taken at its word.

// early is the decision that needs no scoring, from the two sides alone:
// unchanged definitions pass, a base without tools passes, a head
// without tools blocks; nil when the sides must be scored.
func early(base, head Side) *verdict {
	switch {
	case base.Hash == head.Hash:
		return &verdict{decision: Pass, reason: fmt.Sprintf("the tool definitions are unchanged (%s): nothing to score", report.ShortHash(head.Hash))}
	case base.ToolCount == 0:
		// Nothing the base has can get worse, and a rubric grades no
		// empty surface: the change that gives a server its first tools
		// passes, or no such change could ever merge.
		return &verdict{decision: Pass, reason: fmt.Sprintf("the base has no tools, so none can have got worse: the head adds %s (rubric score grades them)", report.Plural(head.ToolCount, "tool"))}
	case head.ToolCount == 0:
		// Every tool gone is as much worse as definitions get; a rubric
		// grades no empty surface, which would make it INVALID, as if
		// running again could help.
		return &verdict{decision: Block, reason: fmt.Sprintf("the head has no tools: it removes all %d of the base's; if the server failed to register them, fix its start", base.ToolCount)}
	}
	return nil
}

// ruling is the rule's verdict on the pairs rep records, read from each
// pair's exact values rounded as the rule says; more is set when the
// rule needs more pairs. Its base and head are those rounded values.
func (rep *Report) ruling() (verdict, error) {
	if len(rep.Pairs) == 0 {
		return verdict{}, fmt.Errorf("it records no pair of scores")
	}
	var base, head []num.Num
	var v verdict
	for i, p := range rep.Pairs {
		if p.N != i+1 {
			return verdict{}, fmt.Errorf("its pair %d is numbered %d", i+1, p.N)
		}
		b, err := p.Base.rounded(rep.Rule.Round)
		if err != nil {
			return verdict{}, fmt.Errorf("pair %d's base: %w", p.N, err)
		}
		h, err := p.Head.rounded(rep.Rule.Round)
		if err != nil {
			return verdict{}, fmt.Errorf("pair %d's head: %w", p.N, err)
		}
		if drop := h.Cmp(b) < 0; p.Drop != drop {
			return verdict{}, fmt.Errorf("pair %d says drop %t, but its head %s is %s its base %s", p.N, p.Drop, p.Head.Value, map[bool]string{true: "below", false: "not below"}[drop], p.Base.Value)
		}
		base, head = append(base, b), append(head, h)
		v = decide(rep.Rule.Title, rep.Rule.Round, rep.Rule.Confirm, base, head)
		if v.more == 0 && i < len(rep.Pairs)-1 {
			return verdict{}, fmt.Errorf("the rule decides after %d of its %d pairs", i+1, len(rep.Pairs))
		}
	}
	v.base, v.head = base, head
	return v, nil
}

// rounded reads v's exact value and rounds it to digits, checking that
// its rounded value says the same.
func (v Value) rounded(digits int) (num.Num, error) {
	n, err := num.Parse(v.Exact)
	if err != nil {
		return num.Num{}, fmt.Errorf("exact value: %w", err)
	}
	if want := value(n, digits).Value; v.Value != want {
		return num.Num{}, fmt.Errorf("value %s is not its exact %s rounded to %d digits (%s)", v.Value, v.Exact, digits, want)
	}
	return n.Round(digits), nil
}

// medians are the medians of a gate's rounded values over more than one
// pair; nil for one pair.
func medians(base, head []num.Num, digits int) *Medians {
	if len(base) < 2 {
		return nil
	}
	mb, mh := median(base), median(head)
	return &Medians{
		Base: json.Number(medianText(mb, digits)), Head: json.Number(medianText(mh, digits)),
		BaseExact: mb.Exact(), HeadExact: mh.Exact(),
	}
}

// recorded is the decision and reason rep's record gives, as run would
// have settled on them.
func (rep *Report) recorded() (Decision, string, error) {
	v := early(rep.Base, rep.Head)
	if v == nil {
		r, err := rep.ruling()
		if err != nil {
			return "", "", err
		}
		if r.more > 0 {
			return "", "", fmt.Errorf("it records %s, fewer than its rule needs to decide (%d more)", report.Plural(len(rep.Pairs), "pair"), r.more)
		}
		if got, want := rep.Medians, medians(r.base, r.head, rep.Rule.Round); !reflect.DeepEqual(got, want) {
			return "", "", fmt.Errorf("its medians are not those of its pairs")
		}
		v = &r
	}
	d, reason := rep.policed(v.decision, v.reason)
	return d, reason + rep.caveats(), nil
}

// holds says how rep, a saved report whose exports, rubric and judge
// match now's, disagrees with itself or with now; nil when it does not. An
// INVALID report holds: it decides nothing, and stays INVALID.
func (rep *Report) holds(now Current) error {
	if rep.Decision == Invalid {
		return nil
	}
	if want := rep.Decision.ExitCode(); rep.ExitCode != want {
		return fmt.Errorf("it says %s with exit code %d, where %s exits %d", rep.Decision, rep.ExitCode, rep.Decision, want)
	}
	if now.Rule != nil && *now.Rule != rep.Rule {
		return fmt.Errorf("its rule (%s) is not the rubric's (%s)", ruleText(rep.Rule), ruleText(*now.Rule))
	}
	if now.Asks && len(rep.Pairs) > 0 && rep.Judge == nil {
		return fmt.Errorf("the rubric asks a judge questions, but the report, which scored %s, names no judge", report.Plural(len(rep.Pairs), "pair"))
	}
	if len(now.Values) == 2 {
		for _, p := range rep.Pairs {
			for i, v := range []Value{p.Base, p.Head} {
				if v.Exact != now.Values[i].Exact() {
					name := [2]string{"base", "head"}[i]
					return fmt.Errorf("pair %d's %s scores %s, but the rubric, which asks no questions and so scores a side the same every time, gives today's %s %s",
						p.N, name, v.Exact, name, now.Values[i].Exact())
				}
			}
		}
	}
	if now.FailOnBreaking && rep.Contract != nil && !rep.Contract.FailOnBreaking {
		return fmt.Errorf("it was decided without failing on breaking changes, which today's settings ask for (fail-on-breaking)")
	}
	if now.Contract != nil {
		if rep.Contract == nil {
			return fmt.Errorf("it records no contract between the sides")
		}
		got, _ := json.Marshal(rep.Contract.Diff)
		want, _ := json.Marshal(now.Contract)
		if string(got) != string(want) {
			return fmt.Errorf("its contract (%s) is not the one today's exports give (%s)", countsText(&rep.Contract.Diff), countsText(now.Contract))
		}
	}
	d, reason, err := rep.recorded()
	if err != nil {
		return err
	}
	if d != rep.Decision {
		return fmt.Errorf("it says %s, but what it records (its pairs under its rule, its lock and its contract) gives %s: %s", rep.Decision, d, reason)
	}
	if reason != rep.Reason {
		return fmt.Errorf("its reason is not the one what it records gives (%q)", reason)
	}
	return nil
}

// ruleText is a rule as holds names it.
func ruleText(r Rule) string {
	return fmt.Sprintf("%s = %s, rounded to %s, %s", r.Title, r.Value, report.Plural(r.Round, "decimal"), report.Plural(r.Confirm, "confirming pair"))
}

// Values scores opt's two sides once with opt.Rubric, which asks no
// questions, and returns their exact compared values (base, then head),
// for Current.Values: such a rubric gives them again on every pair.
func Values(ctx context.Context, opt Options) ([]num.Num, error) {
	if len(opt.Rubric.Questions) > 0 {
		return nil, fmt.Errorf("rubric %s asks a judge questions: its values are the report's to give", opt.Rubric.Name)
	}
	g := opt.Rubric.GateRule()
	_, b, err := side(ctx, opt, opt.Base, nil, g, "base")
	if err != nil {
		return nil, err
	}
	_, h, err := side(ctx, opt, opt.Head, nil, g, "head")
	if err != nil {
		return nil, err
	}
	return []num.Num{b, h}, nil
}
