// Package gate compares the tool definitions of a base with those of a
// head, for CI: PASS, BLOCK or INVALID, with a report that says why.
//
// The rubric declares the rule (rubric.Gate): the value compared, the
// digits it is rounded to once, and how many more pairs confirm a drop.
// Equal surface hashes pass with nothing scored. Otherwise the gate
// scores the base and then the head (a pair), through one asker and one
// cache, so that a question whose input is the same on both sides is
// asked once and its answer serves both. The first pair decides unless
// the head's value is below the base's; then the confirming pairs are
// made, each asking afresh only what differs between the sides (see
// Salt), and the head blocks when its median over all pairs is below the
// base's. A run that cannot be scored completely (a judge that fails or
// answers with another model, an unreadable answer, a tool left unscored
// by a rubric that rolls up the tools it could score) is INVALID.
//
// Beside the quality, the gate reports the contract diff of the two
// surfaces (package contract): what the head breaks for the agents that
// call the tools, what it makes risky, what it adds. It is computed
// from the definitions alone, before any scoring, so an INVALID report
// carries it too. It decides only when Options.FailOnBreaking is set,
// and then a breaking change blocks whatever the quality says.
//
// Given a lock file (package lock, written by rubric lock), the gate
// also verifies the head's tools against it: a tool added, removed or
// changed since it was locked blocks whatever the quality says, so a
// change to the definitions needs the lock approved in the same change.
//
// Nothing here knows a rubric: the value, the dimensions and their
// justifications are named by the rubric's gate block.
package gate

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/contract"
	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
)

// Input is one side to compare: where it came from and its surface.
type Input struct {
	// Side names the revision; Run fills its Hash and ToolCount from
	// Surface, whatever the caller set.
	Side Side
	// Target is what was read, as a report records it.
	Target  string
	Surface *surface.Surface
}

// Options say what a gate compares and how it asks.
type Options struct {
	Rubric     *rubric.Rubric
	Base, Head Input
	// Version is rubric's version, recorded in the reports.
	Version string
	// Workers bounds the tools scored in parallel (see score.Options).
	Workers int
	// Asker starts the judge and returns an asker for the rubric and the
	// record of who answers. It is called at most once, and only when
	// the definitions differ and the rubric asks questions, so an
	// unchanged surface starts no judge. Its Salt is the gate's to set.
	Asker func(context.Context) (*ask.Asker, *report.Judge, error)
	// OnPair, when set, is called after each pair.
	OnPair func(Pair)
	// FailOnBreaking makes a breaking change to the tools' contract
	// block, whatever the quality says.
	FailOnBreaking bool
	// Lock, when set, is a lock file (rubric lock) that the head's tools
	// must match: a tool added, removed or changed since blocks,
	// whatever the quality says. LockFile names it in the reports.
	Lock     *lock.File
	LockFile string
	// RubricChange, when set, says that the head's rubric differs from
	// the base's and whose Rubric is; it is recorded in the report, and
	// when the head's scores both sides the decision's reason says so.
	RubricChange *RubricChange
	// JudgeChange, when set, says that the head's judge settings differ
	// from the base's and whose answered both sides; it is recorded in
	// the report, and when the head's did the decision's reason says so.
	JudgeChange *JudgeChange
	// PolicyChange, when set, says that the head's fail-on-breaking or
	// lock setting differs from the one the gate used, for the report.
	PolicyChange *PolicyChange
	// CacheChange, when set, says that the head changes answers of a
	// cache directory the repository holds, which the gate did not read,
	// for the report.
	CacheChange *CacheChange
	// PluginChange, when set, says that the head's plugins differ from
	// the base's, and whose the gate started; when the head's did, the
	// decision's reason says so.
	PluginChange *PolicyChange
}

// Run compares the base with the head. The report is never nil: on a
// failure it is INVALID, says why, keeps the pairs made so far and every
// call asked, and the failure is returned too.
//
// The surface hashes that decide "unchanged" are computed here, from the
// surfaces compared, never taken from the caller.
func Run(ctx context.Context, opt Options) (*Report, error) {
	rep, err := run(ctx, opt)
	rep.RubricChange = opt.RubricChange
	rep.PolicyChange = opt.PolicyChange
	rep.CacheChange = opt.CacheChange
	rep.PluginChange = opt.PluginChange
	rep.JudgeChange = opt.JudgeChange
	if err == nil {
		rep.Reason += rep.caveats()
	}
	return rep, err
}

// caveats is what a decision's reason adds when the head chose what
// decided it (its own rubric, plugins, policy or judge settings, or
// recorded answers of its own), said where every reader of the decision
// sees it, not only in the report's details; "" when it chose none.
func (rep *Report) caveats() string {
	var s string
	if c := rep.RubricChange; c != nil && c.Used == "head" {
		s += "; but with the head's own rubric, which the base does not have: review the rubric before merging"
	}
	if c := rep.PluginChange; c != nil && c.Used == "head" {
		s += "; but with the head's own plugins, as the base's could not be read: review them before merging"
	}
	if c := rep.PolicyChange; c != nil && c.Used == "head" {
		s += "; but with the head's own fail-on-breaking and lock settings, as the base's could not be read: review them before merging"
	}
	if c := rep.JudgeChange; c != nil {
		switch {
		case c.Used == "head":
			s += "; but with the head's own judge settings, as the base's could not be read: review them before merging"
		case c.HeadAnswers():
			s += "; but with recorded answers of the head's own, which the base does not have: review them before merging"
		}
	}
	return s
}

func run(ctx context.Context, opt Options) (*Report, error) {
	r := opt.Rubric
	g := r.GateRule()
	base, head := opt.Base.Surface, opt.Head.Surface
	bs, hs := opt.Base.Side, opt.Head.Side
	bs.Hash, bs.ToolCount = base.Hash(), len(base.Tools)
	hs.Hash, hs.ToolCount = head.Hash(), len(head.Tools)
	rep := New(r, bs, hs, opt.Version)
	rep.Sizes = measure(base, head)
	rep.Contract = &Contract{FailOnBreaking: opt.FailOnBreaking, Diff: *contract.Compare(base, head)}
	if opt.Lock != nil {
		changes, err := lock.Diff(opt.Lock, head)
		if err != nil {
			return rep.fail(fmt.Errorf("%s: %w", opt.LockFile, err))
		}
		rep.Lock = &Lock{File: opt.LockFile, Hash: opt.Lock.Hash, Changes: append([]lock.Change{}, changes...)}
	}
	if rep.Base.Hash != rep.Head.Hash {
		rep.Added, rep.Removed = added(base, head), added(head, base)
	}
	if v := early(rep.Base, rep.Head); v != nil {
		rep.decide(v.decision, v.reason)
		return rep, nil
	}
	var asker *ask.Asker
	fail := func(err error) (*Report, error) {
		if asker != nil {
			rep.Calls = asker.Stats().Report(ask.Stats{})
		}
		return rep.fail(err)
	}
	if len(r.Questions) > 0 {
		if opt.Asker == nil {
			return fail(fmt.Errorf("rubric %s asks a judge questions: choose a judge", r.Name))
		}
		var err error
		if asker, rep.Judge, err = opt.Asker(ctx); err != nil {
			asker = nil
			return fail(err)
		}
		asker.Salt = nil
	}
	var shared map[string]bool
	for k := 1; ; k++ {
		if asker != nil && k > 1 {
			asker.Salt = pairSalt(k, shared)
		}
		var before ask.Stats
		if asker != nil {
			before = asker.Stats()
		}
		br, bv, err := side(ctx, opt, opt.Base, asker, g, "base")
		if err != nil {
			return fail(err)
		}
		hr, hv, err := side(ctx, opt, opt.Head, asker, g, "head")
		if err != nil {
			return fail(err)
		}
		p := Pair{N: k, Base: value(bv, g.Round), Head: value(hv, g.Round), Drop: hv.Round(g.Round).Cmp(bv.Round(g.Round)) < 0}
		if asker != nil {
			p.Calls = asker.Stats().Report(before)
		}
		rep.Pairs = append(rep.Pairs, p)
		if opt.OnPair != nil {
			opt.OnPair(p)
		}
		if k == 1 {
			shared = sharedQuestions(br, hr)
			if p.Drop {
				rep.Fallen = fallen(g, br, hr)
				rep.AddedBelow = addedBelow(br, hr)
				rep.Information = information(r, br, hr)
			}
		}
		v, err := rep.ruling()
		if err != nil {
			return fail(err)
		}
		if v.more > 0 {
			continue
		}
		rep.Medians = medians(v.base, v.head, g.Round)
		if asker != nil {
			rep.Calls = asker.Stats().Report(ask.Stats{})
		}
		rep.decide(v.decision, v.reason)
		return rep, nil
	}
}

// New is a report of a gate between base and head with r, before
// anything is decided: the start of every gate report, and of one that
// fails before it could score (a server that does not export).
func New(r *rubric.Rubric, base, head Side, version string) *Report {
	if version == "" {
		version = "dev"
	}
	return &Report{
		GateVersion: Version,
		Generator:   report.Generator{Name: "rubric", Version: version},
		Rubric:      score.RubricOf(r),
		Rule:        RuleOf(r),
		Base:        base,
		Head:        head,
		Pairs:       []Pair{},
		Warnings:    []string{},
	}
}

// RuleOf is r's gate rule as a report records it.
func RuleOf(r *rubric.Rubric) Rule {
	g := r.GateRule()
	rule := Rule{Title: g.Title, Value: "score", Round: g.Round, Confirm: g.Confirm, Declared: g.Declared}
	if g.Value != nil {
		rule.Value = g.Value.Source
	}
	return rule
}

// Usage is the INVALID report of a gate that could not begin because
// its command line was wrong (an unknown flag, a value that does not
// parse, a setting refused): err says why. No rubric was loaded and no
// side read, so it names none; CI reads its decision and reason as it
// reads any other gate's.
func Usage(version string, err error) *Report {
	if version == "" {
		version = "dev"
	}
	rep := &Report{
		GateVersion: Version,
		Generator:   report.Generator{Name: "rubric", Version: version},
		Pairs:       []Pair{},
		Warnings:    []string{},
	}
	rep.settle(Invalid, err.Error())
	return rep
}

// Fail makes rep INVALID because of err and returns err.
func (rep *Report) Fail(err error) error {
	rep.settle(Invalid, err.Error())
	return err
}

// decide settles rep on the quality's decision d, unless something
// else blocks: a lock the head's tools no longer match, or, when the
// gate fails on breaking changes, a breaking change to the contract.
// Then it blocks, and the reason gives the quality's too.
func (rep *Report) decide(d Decision, reason string) {
	rep.settle(rep.policed(d, reason))
}

// policed is the decision and reason rep settles on when the quality's
// decision is d (see decide).
func (rep *Report) policed(d Decision, reason string) (Decision, string) {
	var why []string
	if l := rep.Lock; l != nil && len(l.Changes) > 0 {
		why = append(why, fmt.Sprintf("the head's tools differ from the lock %s (%s): if the change is meant, approve it: run %s with the gate's server or target, and commit %s",
			l.File, lock.Summary(l.Changes, 3), l.Approve(), l.File))
	}
	if c := rep.Contract; c != nil && c.FailOnBreaking && c.Breaking > 0 {
		why = append(why, breakingText(c))
	}
	switch {
	case len(why) == 0 || d == Invalid:
		return d, reason
	case d == Block:
		return Block, reason + "; and " + strings.Join(why, "; and ")
	default:
		return Block, strings.Join(why, "; and ") + "; the quality alone passes: " + reason
	}
}

// breakingText says why breaking changes block, naming the first three.
func breakingText(c *Contract) string {
	var first []string
	for _, ch := range c.Changes {
		if ch.Class == contract.Breaking && len(first) < 3 {
			if strings.Contains(ch.Message, strconv.Quote(ch.Tool)) {
				first = append(first, ch.Message)
			} else {
				first = append(first, ch.Tool+": "+ch.Message)
			}
		}
	}
	more := ""
	if c.Breaking > len(first) {
		more = fmt.Sprintf("; and %d more", c.Breaking-len(first))
	}
	return fmt.Sprintf("%s to the tools' contract, and the gate fails on breaking changes (%s%s)",
		report.Plural(c.Breaking, "breaking change"), strings.Join(first, "; "), more)
}

func (rep *Report) fail(err error) (*Report, error) { return rep, rep.Fail(err) }

func (rep *Report) settle(d Decision, reason string) {
	rep.Decision, rep.ExitCode, rep.Reason = d, d.ExitCode(), reason
}

// side scores one side and returns its report and its exact compared
// value.
func side(ctx context.Context, opt Options, in Input, asker *ask.Asker, g rubric.Gate, name string) (*report.Report, num.Num, error) {
	so := score.Options{Target: in.Target, Version: opt.Version, Workers: opt.Workers}
	if asker != nil {
		so.Asker = asker
	}
	rep, err := score.Run(ctx, opt.Rubric, in.Surface, so)
	if err != nil {
		return nil, num.Num{}, fmt.Errorf("scoring the %s: %w", name, err)
	}
	if u := rep.UnscoredTools; len(u) > 0 {
		// A rubric may roll up the tools it could score, but a gate
		// decides on every tool or not at all.
		names := make([]string, len(u))
		for i, t := range u {
			names[i] = t.Name
		}
		return nil, num.Num{}, fmt.Errorf("scoring the %s: %d of its %s could not be scored (%s): %s; the gate decides only when every tool is scored: do what the reason says, or, when the judge's answer was unreadable by chance, run the gate again",
			name, len(u), report.Plural(rep.Surface.ToolCount, "tool"), strings.Join(names, ", "), u[0].Reason)
	}
	if rep.Gate == nil {
		var why string
		switch {
		case g.Value != nil:
			why = fmt.Sprintf("the gate's value formula %q gave null for the %s", g.Value.Source, name)
		case rep.NoScore != "":
			why = rep.NoScore
		default:
			why = fmt.Sprintf("the rubric's score formula gave null for the %s", name)
		}
		return nil, num.Num{}, fmt.Errorf("the rubric gives the %s no %s to compare: %s", name, g.Title, why)
	}
	v, err := num.Parse(*rep.Gate)
	if err != nil {
		return nil, num.Num{}, fmt.Errorf("the %s's %s: %w", name, g.Title, err)
	}
	return rep, v, nil
}

func value(n num.Num, digits int) Value {
	return Value{Value: json.Number(n.Decimal(digits)), Exact: n.Exact()}
}

// questionKey names a question about an input: what makes two requests
// the same question, whatever side asks it.
func questionKey(digest, inputHash string) string { return digest + " " + inputHash }

// sharedQuestions are the questions the first pair asked of both sides
// with the same input.
func sharedQuestions(base, head *report.Report) map[string]bool {
	seen := map[string]bool{}
	for o := range base.Observations() {
		seen[questionKey(o.QuestionDigest, o.InputHash)] = true
	}
	shared := map[string]bool{}
	for o := range head.Observations() {
		if k := questionKey(o.QuestionDigest, o.InputHash); seen[k] {
			shared[k] = true
		}
	}
	return shared
}

// pairSalt is the salt of pair k (k >= 2): none for a question both sides
// asked alike in the first pair, whose cached answer serves every pair
// (it weighs the same on both sides, so asking it again could only add
// noise to the difference), and the pair's own for everything else,
// which is then asked afresh.
func pairSalt(k int, shared map[string]bool) func(ask.Request) string {
	salt := fmt.Sprintf("gate pair %d", k)
	return func(r ask.Request) string {
		if shared[questionKey(r.Question.Digest, r.InputHash)] {
			return ""
		}
		return salt
	}
}

// added lists the tools of b that a does not have, sorted.
func added(a, b *surface.Surface) []string {
	var out []string
	for _, t := range b.Tools {
		if _, ok := a.Tool(t.Name); !ok {
			out = append(out, t.Name)
		}
	}
	slices.Sort(out)
	return out
}

// Current is what a saved report is checked against: today's exports,
// the rubric given now and, when one is named, the judge.
type Current struct {
	BaseHash, HeadHash string
	Rubric             report.Rubric
	// Judge is the judge named now; nil when none is named, and then the
	// report's judge is taken as given.
	Judge *report.Judge
	// Rule is the gate rule of the rubric given now (RuleOf); nil leaves
	// the report's unchecked.
	Rule *Rule
	// Asks says that the rubric given now asks a judge questions, so
	// that a report of pairs must name the judge that answered.
	Asks bool
	// Contract is the contract between today's exports; nil leaves the
	// report's unchecked.
	Contract *contract.Diff
	// Values, for a rubric that asks no questions, are the exact values
	// it gives today's base and head (Values): every pair of the report
	// must hold them. Nil leaves the pairs' values unchecked.
	Values []num.Num
	// FailOnBreaking says that today's settings (the environment, a
	// config file) ask the gate to fail on breaking changes: a report
	// decided without that policy does not stand. Settings that do not
	// ask for it leave the report's policy as it was recorded.
	FailOnBreaking bool
}

// Check compares a saved gate report with what is current: when the
// exports, the rubric's digest and the judge all match, and the report
// holds together (its decision is the one its record gives: its pairs
// under its rule, its lock's changes, its contract, which today's
// exports must give again, and, for a rubric that asks no questions,
// the values today's exports give), the saved decision stands; when any
// of them moved, or the report does not hold together, the check is
// INVALID and says why. A saved INVALID stays INVALID.
func Check(saved *Report, now Current) *Report {
	out := *saved
	moved := saved.moved(now)
	if len(moved) == 0 {
		if err := saved.holds(now); err != nil {
			out.settle(Invalid, "the saved report does not hold together: "+err.Error()+"; run the gate again without --check")
			return &out
		}
		out.settle(saved.Decision, "the exports match the report: "+saved.Reason)
		return &out
	}
	reason := moved[0]
	for i, m := range moved[1:] {
		if i == len(moved)-2 {
			reason += " and " + m
		} else {
			reason += ", " + m
		}
	}
	out.settle(Invalid, "the saved report no longer matches: "+reason+"; run the gate again without --check")
	return &out
}

// Matches reports whether what rep was made from is what now has:
// the two sides' exports, the rubric's digest and, when now names one,
// the judge. Check takes nothing else from a report that does not match.
func (rep *Report) Matches(now Current) bool { return len(rep.moved(now)) == 0 }

// moved says what of rep's exports, rubric and judge differs now.
func (rep *Report) moved(now Current) []string {
	var moved []string
	if now.BaseHash != rep.Base.Hash {
		moved = append(moved, fmt.Sprintf("the base's tool definitions moved (%s in the report, %s now)", report.ShortHash(rep.Base.Hash), report.ShortHash(now.BaseHash)))
	}
	if now.HeadHash != rep.Head.Hash {
		moved = append(moved, fmt.Sprintf("the head's tool definitions moved (%s in the report, %s now)", report.ShortHash(rep.Head.Hash), report.ShortHash(now.HeadHash)))
	}
	if now.Rubric.Digest != rep.Rubric.Digest {
		moved = append(moved, fmt.Sprintf("the rubric differs (the report was made with %s, the rubric given now is %s)", rubricText(rep.Rubric), rubricText(now.Rubric)))
	}
	if now.Judge != nil && rep.Judge != nil {
		if differ := judgeDiffers(*rep.Judge, *now.Judge); len(differ) > 0 {
			moved = append(moved, fmt.Sprintf("the judge differs (the report was judged by %s, the judge named now is %s; they differ in %s)",
				judgeText(rep.Judge), judgeText(now.Judge), strings.Join(differ, ", ")))
		}
	}
	return moved
}

func rubricText(r report.Rubric) string {
	return fmt.Sprintf("%s %s (%s)", r.Name, r.Version, report.ShortHash(r.Digest))
}

func judgeText(j *report.Judge) string {
	s := j.Plugin + " " + j.Version
	if j.Model != "" {
		s += " model " + j.Model
	}
	return s
}

// judgeDiffers names the members in which two judge blocks differ: the
// whole identity, as a cache key reads it (plugin, version, provider,
// model, each parameter, heuristic, the command line and its version),
// and an external plugin's binary. Parameters are compared as JSON, so
// that a number read back from a saved report (a float64) equals the
// judge's own (an int). Two replays of different answer files
// (params.answers_sha256), or a judge run at another temperature, are
// different judges, as their answers are.
func judgeDiffers(a, b report.Judge) []string {
	var out []string
	for _, m := range []struct {
		name string
		a, b string
	}{
		{"plugin", a.Plugin, b.Plugin}, {"version", a.Version, b.Version}, {"provider", a.Provider, b.Provider},
		{"model", a.Model, b.Model}, {"heuristic", strconv.FormatBool(a.Heuristic), strconv.FormatBool(b.Heuristic)},
		{"cli", a.CLI, b.CLI}, {"cli_version", a.CLIVersion, b.CLIVersion}, {"sha256", a.SHA256, b.SHA256},
	} {
		if m.a != m.b {
			out = append(out, m.name)
		}
	}
	keys := maps.Collect(maps.All(a.Params))
	maps.Copy(keys, b.Params)
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if paramJSON(a.Params, k) != paramJSON(b.Params, k) {
			out = append(out, "params."+k)
		}
	}
	return out
}

// paramJSON is parameter k of params as JSON text, empty when absent.
func paramJSON(params map[string]any, k string) string {
	v, ok := params[k]
	if !ok {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}
