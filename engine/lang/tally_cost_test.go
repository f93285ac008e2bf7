package lang

import (
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestTallyEachInEstimateBoundsItsCharge: for each arity of
// tally_each_in, on data at the size bound (every list as long as the
// bound, every string as long, every pattern with the most tests, each
// charged the most reads), the cost the tracker charges stays within the
// static estimate for that bound: an estimate below it would let a
// formula run untracked past the cost limit. The labels' share is
// checked alone (the charge of the 7-argument call less that of the same
// call without labels), where the bound is reached exactly.
func TestTallyEachInEstimateBoundsItsCharge(t *testing.T) {
	heavytest.Later(t)
	const n = 32
	e, err := NewEnv(
		Var{"ss", cel.ListType(cel.StringType)}, Var{"res", cel.ListType(cel.StringType)},
		Var{"folds", cel.ListType(cel.StringType)}, Var{"tests", cel.ListType(cel.DynType)},
		Var{"labels", cel.ListType(cel.StringType)}, Var{"where", cel.ListType(cel.StringType)})
	if err != nil {
		t.Fatal(err)
	}
	vars := Vars(tallyAtTheBound(n))
	tests := vars["tests"]
	// charge is what the tracker charges src, its static estimate, and
	// what it charges for the groups and matches made.
	charge := func(src string) (actual, estimate, made uint64) {
		t.Helper()
		out, actual, estimate := trackedCharge(t, e, src, vars, n)
		got, err := Native(out)
		if err != nil {
			t.Fatal(err)
		}
		m := got.(map[string]any)
		return actual, estimate, uint64(len(m["groups"].([]any)) + len(m["matches"].([]any)))
	}
	for _, src := range []string{
		"tally_each_in(ss, res, tests, 0)",
		"tally_each_in(ss, res, folds, tests, 0)",
		"tally_each_in(ss, res, folds, tests, 0, labels, where)",
	} {
		actual, estimate, _ := charge(src)
		if actual > estimate {
			t.Errorf("%s: charged %d, above its static estimate %d", src, actual, estimate)
		}
		t.Logf("%s: charged %d of %d", src, actual, estimate)
	}
	// A before test is charged for looking back: each looking back the
	// farthest costs maxTallyTestReads reads of every string (folded
	// copies counted as long as they may be), where a test on the
	// match's text alone costs one.
	withBefore, _, _ := charge("tally_each_in(ss, res, folds, tests, 0)")
	vars["tests"] = sameTests(n, map[string]any{"matches": "y"})
	withMatches, _, _ := charge("tally_each_in(ss, res, folds, tests, 0)")
	vars["tests"] = tests
	perString := uint64(1 + n/10)
	if want := perString * n * maxFoldGrowth * n * maxTallyTests * (maxTallyTestReads - 1); withBefore-withMatches != want {
		t.Errorf("before tests charged %d more than tests on the match's text, want %d", withBefore-withMatches, want)
	}
	// The labels' share: the 7-argument call less the 5-argument one,
	// each without what it made (labels share groups across strings, so
	// it makes fewer) and the two more arguments read (one unit each).
	with, estWith, madeWith := charge("tally_each_in(ss, res, folds, tests, 0, labels, where)")
	without, estWithout, madeWithout := charge("tally_each_in(ss, res, folds, tests, 0)")
	share := (with - madeWith - 2) - (without - madeWithout)
	p, _ := e.Compile("tally_each_in(ss, res, folds, tests, 0, labels, where)", nil)
	var bound uint64
	if _, err := p.env.EstimateCost(p.checked, labelsProbe{sizeBound: sizeBound{max: n}, got: &bound}); err != nil {
		t.Fatal(err)
	}
	if estWith-estWithout != bound+2 {
		t.Errorf("the estimate with labels is %d above that without, want their bound %d and two arguments", estWith-estWithout, bound)
	}
	if share != bound {
		t.Errorf("labels charged %d, want their bound %d (n labels of n characters, read by %d expressions)", share, bound, maxTallyTests)
	}
}

// labelsProbe is the static estimate, noting the labels' share of the
// 7-argument tally_each_in it meets.
type labelsProbe struct {
	sizeBound
	got *uint64
}

func (l labelsProbe) EstimateCallCost(function, overload string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if function == "tally_each_in" && len(args) == 7 {
		*l.got = l.tallyLabelsCost(args[5], args[6])
	}
	return l.sizeBound.EstimateCallCost(function, overload, target, args)
}

// sameTests is a tests argument of n patterns, each with the most tests,
// each test t.
func sameTests(n int, t map[string]any) []any {
	out := make([]any, n)
	for i := range out {
		ts := make([]any, maxTallyTests)
		for k := range ts {
			ts[k] = t
		}
		out[i] = ts
	}
	return out
}

// TestDynListArgumentsEstimateBoundTheirCharge: a list the checker
// knows only as dyn (a signal's or a let's value, a field of an object)
// is estimated as the list it may be at the size bound, not as one
// value: n strings of n characters, n patterns, each pattern with the
// most tests, n labels. An estimate of one value (2n+n/10 units) is
// below what the tracker charges for reading n strings with n patterns,
// and let such a formula run untracked past the cost limit.
func TestDynListArgumentsEstimateBoundTheirCharge(t *testing.T) {
	heavytest.Later(t)
	const n = 32
	e, err := NewEnv(Var{"d", cel.DynType})
	if err != nil {
		t.Fatal(err)
	}
	d := tallyAtTheBound(n)
	d["s"] = strings.Repeat("x", n)
	for _, src := range []string{
		"find_all_in(d.ss, 'x')",
		"find_runs_in(d.ss, 'x', 1)",
		"skeletons(d.ss)",
		"find_all_each(d.s, d.res)",
		"find_all_each_in(d.ss, d.res)",
		"find_all_each_in(d.ss, d.res, d.folds)",
		"find_first_each_in(d.ss, d.res, 0)",
		"find_first_each_in(d.ss, d.res, d.folds, 0)",
		"fold(d.s, d.folds)",
		"tally_each_in(d.ss, d.res, d.tests, 0)",
		"tally_each_in(d.ss, d.res, d.folds, d.tests, 0)",
		"tally_each_in(d.ss, d.res, d.folds, d.tests, 0, d.labels, d.where)",
	} {
		if _, actual, est := trackedCharge(t, e, src, map[string]any{"d": d}, n); actual > est {
			t.Errorf("%s: charged %d, above its static estimate %d", src, actual, est)
		}
	}
}

// TestDynListArgumentsStayTracked: a formula over data no value of
// which is longer than its size bound, whose tracked cost is past the
// cost limit, is stopped by the limit on the path EvalSized takes; a
// tally of 256 strings of 256 characters with 256 patterns read
// through a dyn value was evaluated untracked, its estimate that of one
// string.
func TestDynListArgumentsStayTracked(t *testing.T) {
	const n = 256
	e, err := NewEnv(Var{"d", cel.DynType})
	if err != nil {
		t.Fatal(err)
	}
	ss, res := make([]any, n), make([]any, n)
	for i := range n {
		ss[i] = strings.Repeat("x", n)
		res[i] = "y"
	}
	d := map[string]any{"ss": ss, "res": res, "tests": sameTests(n, map[string]any{"matches": "z"})}
	for _, src := range []string{
		"tally_each_in(d.ss, d.res, d.tests, 0)",
		"find_all_each_in(d.ss, d.res)",
	} {
		p, ds := e.Compile(src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", src, ds)
		}
		if _, err := p.EvalSized(Vars{"d": d}, n); err == nil || !strings.Contains(err.Error(), "cost limit") {
			t.Errorf("%s on %d strings of %d characters, %d patterns: got error %v, want the cost limit (untracked: %v)", src, n, n, n, err, p.Untracked(n))
		}
	}
}

// TestTallyTestsReadsAlike: the tracker charges tests given as JSON data
// (read as Go values) what it charges the same tests written in a
// formula (read through their members).
func TestTallyTestsReadsAlike(t *testing.T) {
	e, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		"[[{'before': 'y', 'within': 32}, {'decodes': 'hex'}], [], [{'matches': 'x'}]]",
		"[[{'before': 'y', 'within': 5}]]",
		"[]",
	} {
		p, ds := e.Compile(src, nil)
		if ds != nil {
			t.Fatal(ds)
		}
		written, err := p.Eval(nil)
		if err != nil {
			t.Fatal(err)
		}
		data, err := Native(written)
		if err != nil {
			t.Fatal(err)
		}
		asData := Adapter.NativeToValue(data)
		if _, ok := asData.Value().([]any); !ok {
			t.Fatalf("%s as data is %T, want JSON data", src, asData.Value())
		}
		if got, want := tallyTestsReads(asData), tallyTestsReads(written); got != want {
			t.Errorf("%s: %d reads as data, %d as written", src, got, want)
		}
	}
}

// tallyAtTheBound is tally_each_in's data at size bound n, by argument:
// n strings of n characters (ss), each a match of every pattern at each
// character; n patterns (res), each with the most tests, each test one
// that is charged the most (a before test looking back the farthest); n
// labels of n characters, the most where expressions, and a fold.
func tallyAtTheBound(n int) map[string]any {
	ss, res, labels, where := make([]any, n), make([]any, n), make([]any, n), make([]any, maxTallyTests)
	for i := range n {
		ss[i] = strings.Repeat("x", n)
		labels[i] = strings.Repeat("/", n)
		res[i] = "x"
	}
	for k := range where {
		where[k] = "^/"
	}
	return map[string]any{
		"ss": ss, "res": res, "folds": []any{"nfkc"}, "labels": labels, "where": where,
		"tests": sameTests(n, map[string]any{"before": "y", "within": int64(maxTallyBefore)}),
	}
}
