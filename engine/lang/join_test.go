package lang

import (
	"strings"
	"testing"
	"unicode"
)

// TestJoinSizedByItsStrings: cel-go's strings extension sizes the
// result of l.join(sep) by how many strings l holds, not how long they
// are ([s].join(sep) one character long), so a formula that reads a
// join of the data's strings was estimated as reading a string as long
// as the list and ran untracked past CostLimit: each row joins 512
// strings of 512 characters (a list written out, 64 of them) and
// matches 512 patterns that match nothing against the result. Sized as
// n strings of their bound and n-1 separators, each is tracked and
// stopped at the limit.
func TestJoinSizedByItsStrings(t *testing.T) {
	const n = 512
	e, act := unmatchedRange(t, n)
	for _, c := range []struct{ name, src string }{
		{"the data's strings", "find_all_each(names.join(''), res).size()"},
		{"a separator of the data", "find_all_each(names.join(names[0]), res).size()"},
		{"a list written out", "find_all_each([" + strings.Repeat("names[0], ", 63) + "names[0]].join(''), res).size()"},
		{"a mapped list", "find_all_each(names.map(s, s.trim()).join(','), res).size()"},
		{"a dyn list", "find_all_each(d.ss.join(''), res).size()"},
		{"in a macro", "[names].map(l, l.join('')).map(s, find_all_each(s, res).size())"},
		{"joined twice", "find_all_each([names.join(''), names[0]].join(''), res).size()"},
	} {
		wantStoppedAtLimit(t, e, c.src, act, n, c.name)
	}
}

// TestJoinKeepsItsBound: a join of strings bounded as the data's (the
// data's own, a list written of them and of literals, a map of them,
// the scripts a string mixes) has a bound, and what the tracker charges
// a formula that reads it with a function whose cost grows with its
// length stays within its static estimate.
func TestJoinKeepsItsBound(t *testing.T) {
	const n = 64
	e, act := unmatchedRange(t, n)
	act["names"] = append(act["names"].([]any), strings.Repeat("\u0430", n))
	for _, src := range []string{
		"find_all_each(names.join(''), res).size()",
		"find_all_each(names.join(names[0]), res).size()",
		"find_all_each(['(', names[0], ')'].join(', '), res).size()",
		"find_all_each(names.map(s, s.trim()).join(','), res).size()",
		"find_all_each(names.slice(0, 2).join(''), res).size()",
		"find_all_each(d.ss.join(''), res).size()",
		"find_all_each(scripts(names[0] + names[" + "64" + "]).join(', '), res).size()",
		"names.map(s, 'scripts: ' + scripts(s).join(', ')).map(s, find_all_each(s, res).size())",
	} {
		wantChargeWithin(t, e, src, act, n+1, src, true)
	}
}

// TestScriptsAtMostEveryScript: a string of a character of every
// script, and of one no script claims, has at most maxScripts scripts,
// none of a name longer than constantStrings says, as the estimate of
// a join of them takes it.
func TestScriptsAtMostEveryScript(t *testing.T) {
	var b strings.Builder
	for _, n := range scriptNames {
		table := unicode.Scripts[n]
		if len(table.R16) > 0 {
			b.WriteRune(rune(table.R16[0].Lo))
		} else {
			b.WriteRune(rune(table.R32[0].Lo))
		}
	}
	b.WriteRune(0x10FFFF) // a noncharacter: Unknown
	got := Scripts(b.String())
	if uint64(len(got)) > maxScripts {
		t.Errorf("%d scripts, above maxScripts %d", len(got), maxScripts)
	}
	for _, s := range append(got, scriptNames...) {
		if uint64(len(s)) > constantStrings["scripts"] {
			t.Errorf("the script %s is %d long, above %d", s, len(s), constantStrings["scripts"])
		}
	}
	if len(got) < len(scriptNames)-2 {
		t.Errorf("%d scripts of %d: the string does not hold one of each", len(got), len(scriptNames))
	}
}

// TestJoinEstimatedOnTheData: on wide data, the per-evaluation estimate
// bounds the strings of a list of the data a join reads by the longest
// string there (see dataBound.stringsSize), not by the data's bound, so
// a macro that joins such a list for each of its strings fits its limit
// where the static bound (strings as long as the data) does not; what
// the tracker charges stays within that estimate.
func TestJoinEstimatedOnTheData(t *testing.T) {
	e, err := NewEnv(wideVars...)
	if err != nil {
		t.Fatal(err)
	}
	ss := make([]any, 64)
	for i := range ss {
		ss[i] = strings.Repeat("s", 64)
	}
	act := Vars{"tool": ToolValue(map[string]any{"name": "t"}), "signals": map[string]any{"ss": ss, "inner": map[string]any{"ss": ss}}}
	const size = 1 << 16
	limit := LimitFor(CostLimit, size)
	for _, src := range []string{
		`signals.ss.all(x, signals.ss.join(x).size() > 0)`,
		`signals.ss.all(x, signals.ss.join().size() > 0)`,
		`signals.inner.ss.map(x, signals.inner.ss.join(', ')).all(s, s.size() > 0)`,
	} {
		p := compileAt(t, e, src, limit)
		_, charged, err := evalTracked(t, p, act)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		est := p.costOn(act, size)
		if charged > est {
			t.Errorf("%s: charged %d, above its estimate on the data %d", src, charged, est)
		}
		if est > limit {
			t.Errorf("%s: estimated at %d on the data, past its limit %d: the join's strings are bounded by the data's bound, not the longest there", src, est, limit)
		}
	}
}
