package lang

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// maxTallyTests bounds the tests of one pattern of tally_each_in: each
// reads the pattern's matches again, and the static cost estimate counts
// on the bound.
const maxTallyTests = 16

// tallyTest is one test of tally_each_in on a match of its pattern:
// the match's text holds a match of re; or a match of tokens in it is
// one of the strings in; or (re and tokens nil) the match starts inside
// a match of the pattern inside, in the same string.
type tallyTest struct {
	re     *compiledRegexp
	tokens *compiledRegexp
	in     map[string]bool
	inside int
}

// tallyTestsOf reads the tests argument of tally_each_in: one list a
// pattern of the n patterns, each test a map: matches (an expression),
// tokens and in (an expression and a list of strings), or inside (the
// place of a pattern).
func tallyTestsOf(v ref.Val, n int, fn string) ([][]tallyTest, ref.Val) {
	raw, plain := v.Value().([]any)
	if plain {
		// Every tool's formula passes the same list (a surface signal):
		// read once, its expressions not hashed again for the cache. The
		// very same list is known at once, without reading a list of
		// in that may hold every tool's name.
		if last := lastTallyTests.Load(); last != nil && len(last.tests) == n && sameList(last.raw, raw) {
			return last.tests, nil
		}
	}
	out, err := readTallyTests(v, n, fn)
	if err == nil && plain {
		lastTallyTests.Store(&tallyTestList{raw: raw, tests: out})
	}
	return out, err
}

// lastTallyTests is the tests argument tallyTestsOf last read, held as
// Go values, and what it read.
var lastTallyTests atomic.Pointer[tallyTestList]

type tallyTestList struct {
	raw   []any
	tests [][]tallyTest
}

// sameList reports whether two lists of JSON data are equal: at once
// when they are the same list (JSON data is never written to once
// made), else item by item.
func sameList(a, b []any) bool {
	if len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) {
		return true
	}
	return sameJSON(a, b)
}

// sameJSON reports whether two values of JSON data are equal; strings
// that share their bytes compare in one step, as do lists that are the
// same list.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		if len(x) > 0 && &x[0] == &y[0] {
			return true
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			if f, ok := y[k]; !ok || !sameJSON(e, f) {
				return false
			}
		}
		return true
	case string, int64, uint64, bool, nil:
		return a == b
	}
	return false
}

// readTallyTests is tallyTestsOf without the cache.
func readTallyTests(v ref.Val, n int, fn string) ([][]tallyTest, ref.Val) {
	x, err := Native(v)
	if err != nil {
		return nil, types.NewErr("%s: %v", fn, err)
	}
	lists, _ := x.([]any)
	if len(lists) != n {
		return nil, types.NewErr("%s: tests holds %d lists, one a pattern: want %d, an empty list for a pattern without tests", fn, len(lists), n)
	}
	out := make([][]tallyTest, n)
	for i, l := range lists {
		tests, ok := l.([]any)
		if !ok {
			return nil, types.NewErr("%s: tests of pattern %d is not a list", fn, i)
		}
		if len(tests) > maxTallyTests {
			return nil, types.NewErr("%s: pattern %d has %d tests; give it at most %d, or split the pattern", fn, i, len(tests), maxTallyTests)
		}
		for k, t := range tests {
			tt, msg := tallyTestOf(t, n)
			if msg != "" {
				return nil, types.NewErr("%s: test %d of pattern %d %s", fn, k, i, msg)
			}
			out[i] = append(out[i], tt)
		}
	}
	return out, nil
}

// tallyTestOf reads one test, or says what is wrong with it.
func tallyTestOf(t any, patterns int) (tallyTest, string) {
	const want = "is not {'matches': expression}, {'tokens': expression, 'in': list of strings} or {'inside': place of a pattern}"
	m, ok := t.(map[string]any)
	if !ok {
		return tallyTest{}, want
	}
	if re, ok := m["tokens"]; ok {
		s, ok := re.(string)
		list, isList := m["in"].([]any)
		if !ok || !isList || len(m) != 2 {
			return tallyTest{}, want
		}
		c, err := compileCached(s)
		if err != nil {
			return tallyTest{}, fmt.Sprintf("does not compile: %v", err)
		}
		in := make(map[string]bool, len(list))
		for k, e := range list {
			str, ok := e.(string)
			if !ok {
				return tallyTest{}, fmt.Sprintf("has an item %d of in that is not a string", k)
			}
			in[str] = true
		}
		return tallyTest{tokens: c, in: in}, ""
	}
	if len(m) != 1 {
		return tallyTest{}, want
	}
	if re, ok := m["matches"]; ok {
		s, ok := re.(string)
		if !ok {
			return tallyTest{}, want
		}
		c, err := compileCached(s)
		if err != nil {
			return tallyTest{}, fmt.Sprintf("does not compile: %v", err)
		}
		return tallyTest{re: c}, ""
	}
	if p, ok := m["inside"]; ok {
		var j int64
		switch x := p.(type) {
		case int64:
			j = x
		case uint64:
			j = int64(min(x, uint64(patterns)))
		default:
			return tallyTest{}, want
		}
		if j < 0 || j >= int64(patterns) {
			return tallyTest{}, fmt.Sprintf("names pattern %d, past the %d patterns", j, patterns)
		}
		return tallyTest{inside: int(j)}, ""
	}
	return tallyTest{}, want
}

// passes reports whether sp, a match in a string whose matches of each
// pattern are byPattern, passes t.
func (t tallyTest) passes(sp PatternSpan, byPattern [][]PatternSpan) bool {
	if t.re != nil {
		return t.re.re.MatchString(sp.Text)
	}
	if t.tokens != nil {
		// The tokens find_all gives, each looked up once.
		for _, l := range t.tokens.re.FindAllStringIndex(sp.Text, -1) {
			if t.in[sp.Text[l[0]:l[1]]] {
				return true
			}
		}
		return false
	}
	// The matches of one pattern do not overlap and come in order: the
	// last one starting at or before sp is the only one that can hold it.
	others := byPattern[t.inside]
	i, _ := slices.BinarySearchFunc(others, sp.Start, func(o PatternSpan, start int) int {
		if o.Start <= start {
			return -1
		}
		return 1
	})
	return i > 0 && others[i-1].Start <= sp.Start && sp.Start < others[i-1].End
}

// tallyEachIn is tally_each_in: the matches find_all_each_in gives
// (folded when foldList is not nil), counted by string, pattern and the
// outcome of the pattern's tests, with the first n+1 matches of each of
// these groups made into values. A formula that weighs every match then
// goes through the groups, a few a string, however many matches a text
// holds, and one that lists them through at most n+1 a group.
func tallyEachIn(list, patterns, foldList, testList, limit ref.Val) ref.Val {
	const fn = "tally_each_in"
	n := int64(limit.(types.Int))
	if n < 0 {
		return types.NewErr("%s: n is the number of matches wanted past the first of each group, at least 0, not %d", fn, n)
	}
	ps, err := patternSetOf(patterns, fn)
	if err != nil {
		return err
	}
	tests, err := tallyTestsOf(testList, len(ps.res), fn)
	if err != nil {
		return err
	}
	find, err := spanFinder(ps, foldList, fn)
	if err != nil {
		return err
	}
	type group struct {
		index, pattern int
		passed         []any // of bool
		count, made    int64
	}
	var (
		groups    []*group
		listed    = []any{}
		spans     []PatternSpan
		byPattern = make([][]PatternSpan, len(ps.res))
		count     int64
		// byMask holds the groups of a string's current pattern, by the
		// outcome of its tests as bits.
		byMask = map[uint32]int{}
	)
	// The result is plain Go values, as JSON data is, so that a signal
	// holding it is recorded and read as any other.
	done := eachString(list, fn, func(out []ref.Val, i int, s string) []ref.Val {
		spans = find(s, spans[:0])
		if len(spans) == 0 {
			return out
		}
		count += int64(len(spans))
		// The matches come pattern by pattern, each pattern's in order.
		clear(byPattern)
		for from := 0; from < len(spans); {
			to := from + 1
			for to < len(spans) && spans[to].Pattern == spans[from].Pattern {
				to++
			}
			byPattern[spans[from].Pattern] = spans[from:to]
			from = to
		}
		pattern := -1
		for _, sp := range spans {
			if sp.Pattern != pattern {
				pattern = sp.Pattern
				clear(byMask)
			}
			mask := uint32(0)
			for k, t := range tests[sp.Pattern] {
				if t.passes(sp, byPattern) {
					mask |= 1 << k
				}
			}
			g, ok := byMask[mask]
			if !ok {
				g = len(groups)
				byMask[mask] = g
				passed := make([]any, len(tests[sp.Pattern]))
				for k := range passed {
					passed[k] = mask&(1<<k) != 0
				}
				groups = append(groups, &group{index: i, pattern: sp.Pattern, passed: passed})
			}
			gr := groups[g]
			gr.count++
			if gr.made <= n {
				gr.made++
				listed = append(listed, map[string]any{
					"index": int64(i), "pattern": int64(sp.Pattern), "start": int64(sp.Start), "end": int64(sp.End),
					"text": sp.Text, "passed": gr.passed, "group": int64(g),
				})
			}
		}
		return out
	})
	if types.IsError(done) {
		return done
	}
	gs := make([]any, len(groups))
	for k, g := range groups {
		gs[k] = map[string]any{"index": int64(g.index), "pattern": int64(g.pattern), "passed": g.passed, "count": g.count}
	}
	return types.NewStringInterfaceMap(Adapter, map[string]any{"count": count, "groups": gs, "matches": listed})
}
