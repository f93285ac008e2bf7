package lang

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// maxTallyTests bounds the tests of one pattern of tally_each_in: each
// reads the pattern's matches again, and the static cost estimate counts
// on the bound.
const maxTallyTests = 16

// maxTallyBefore bounds the characters a before test looks back from a
// match: each match reads them again, so the test costs each string
// read at most 1 + 2*maxTallyBefore/10 times (see tallyTestReads), a
// bound the static cost estimate counts on.
const maxTallyBefore = 32

// maxTallyTestReads is the most reads of its string that one test of
// tally_each_in is charged (see tallyTestReads).
const maxTallyTestReads = 1 + 2*maxTallyBefore/10

// tallyTest is one test of tally_each_in on a match of its pattern:
// the match's text holds a match of re; or a match of tokens in it is
// one of the strings in; or (decode set) the match's text decodes as hex
// or base64 to text, which holds a match of re when re is set; or
// (before above 0) the before characters of its string ahead of the
// match hold a match of re; or (re, tokens and decode nil) the match
// starts inside a match of the pattern inside, in the same string.
type tallyTest struct {
	re     *compiledRegexp
	tokens *compiledRegexp
	in     map[string]bool
	inside int
	decode func(string) (string, bool)
	before int
}

// tallyTestReads is how many reads of a string the cost tracker charges
// a test for (see ProgramOptions): one for a test that reads each
// match's text once (matches of one pattern do not overlap), two for one
// that decodes it and reads what it decodes to, and for a before test
// one plus a tenth of twice the characters it looks back, which it walks
// back over and matches for each match.
func tallyTestReads(t any) uint64 {
	m, ok := t.(map[string]any)
	if !ok {
		return 1
	}
	if _, ok := m["decodes"]; ok {
		return 2
	}
	if w, ok := m["within"].(int64); ok && w > 0 {
		return 1 + 2*uint64(min(w, maxTallyBefore))/10
	}
	return 1
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
		// in that may hold every tool's name. A rubric may call
		// tally_each_in in several formulas, each with its own list, so
		// the last few lists are kept.
		for k := range lastTallyTests {
			if last := lastTallyTests[k].Load(); last != nil && len(last.tests) == n && sameList(last.raw, raw) {
				return last.tests, nil
			}
		}
	}
	out, err := readTallyTests(v, n, fn)
	if err == nil && plain {
		k := nextTallyTests.Add(1) % uint32(len(lastTallyTests))
		lastTallyTests[k].Store(&tallyTestList{raw: raw, tests: out})
	}
	return out, err
}

// lastTallyTests are the tests arguments tallyTestsOf last read, held as
// Go values, and what each read; nextTallyTests turns to the slot the
// next one goes to.
var (
	lastTallyTests [8]atomic.Pointer[tallyTestList]
	nextTallyTests atomic.Uint32
)

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
	const want = "is not {'matches': expression}, {'tokens': expression, 'in': list of strings}, {'inside': place of a pattern}, {'before': expression, 'within': characters} or {'decodes': 'hex' or 'base64'} with or without 'matches' (an expression or a list of them)"
	m, ok := t.(map[string]any)
	if !ok || len(m) == 0 {
		return tallyTest{}, want
	}
	if d, ok := m["decodes"]; ok {
		var out tallyTest
		switch d {
		case "hex":
			out.decode = DecodeHex
		case "base64":
			out.decode = DecodeBase64
		default:
			return tallyTest{}, want
		}
		if len(m) == 1 {
			return out, ""
		}
		re, ok := matchesOf(m["matches"])
		if !ok || len(m) != 2 {
			return tallyTest{}, want
		}
		c, err := compileCached(re)
		if err != nil {
			return tallyTest{}, fmt.Sprintf("does not compile: %v", err)
		}
		out.re = c
		return out, ""
	}
	if re, ok := m["before"]; ok {
		s, ok := re.(string)
		w, wok := m["within"].(int64)
		if !ok || !wok || len(m) != 2 {
			return tallyTest{}, want
		}
		if w < 1 || w > maxTallyBefore {
			return tallyTest{}, fmt.Sprintf("looks within %d characters before a match: give 1 to %d", w, maxTallyBefore)
		}
		c, err := compileCached(s)
		if err != nil {
			return tallyTest{}, fmt.Sprintf("does not compile: %v", err)
		}
		return tallyTest{re: c, before: int(w)}, ""
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
		s, ok := matchesOf(re)
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

// matchesOf is the expression of a test's matches: an expression, or a
// list of them, any of which may match (each in a group of its own, so
// that its flags stay its own). A long list is written here, once a
// tests list is read, not in a signal whose length would bound every
// formula that reads it.
func matchesOf(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []any:
		var b strings.Builder
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return "", false
			}
			if i > 0 {
				b.WriteByte('|')
			}
			b.WriteString("(?:" + s + ")")
		}
		if len(x) == 0 {
			b.WriteString(`[^\x00-\x{10FFFF}]`) // none: never matches
		}
		return b.String(), true
	}
	return "", false
}

// passes reports whether sp, a match in the string at whose matches of
// each pattern are byPattern, passes t.
func (t tallyTest) passes(sp PatternSpan, byPattern [][]PatternSpan, at *charCursor) bool {
	if t.decode != nil {
		d, ok := t.decode(sp.Text)
		return ok && (t.re == nil || t.re.re.MatchString(d))
	}
	if t.before > 0 {
		end := at.byteOf(sp.Start)
		from := end
		for k := 0; k < t.before && from > 0; k++ {
			_, w := utf8.DecodeLastRuneInString(at.s[:from])
			from -= w
		}
		return t.re.re.MatchString(at.s[from:end])
	}
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

// charCursor finds the byte offset of a character offset of s, reading on
// from the last one asked when the next is not before it: a string's
// matches of one pattern come in order, so reading them all reads s once
// a pattern.
type charCursor struct {
	s            string
	char, byteAt int
}

func (c *charCursor) byteOf(char int) int {
	if char < c.char {
		c.char, c.byteAt = 0, 0
	}
	for c.char < char && c.byteAt < len(c.s) {
		_, w := utf8.DecodeRuneInString(c.s[c.byteAt:])
		c.byteAt += w
		c.char++
	}
	return c.byteAt
}

// tallyWhere is the labels and where arguments of tally_each_in: a label
// a string (labels[i] of ss[i]) and expressions on them; the strings
// whose labels match the same expressions share their groups.
type tallyWhere struct {
	labels []string
	tests  []*compiledRegexp
}

// tallyWhereOf reads the labels and where arguments for a list of n
// strings.
func tallyWhereOf(labelList, whereList ref.Val, n int, fn string) (*tallyWhere, ref.Val) {
	labels, err := stringsOf(labelList, fn)
	if err != nil {
		return nil, err
	}
	if len(labels) != n {
		return nil, types.NewErr("%s: labels holds %d strings for %d in ss: give one label a string", fn, len(labels), n)
	}
	tests, err := stringsOf(whereList, fn)
	if err != nil {
		return nil, err
	}
	if len(tests) > maxTallyTests {
		return nil, types.NewErr("%s: where holds %d expressions; give at most %d", fn, len(tests), maxTallyTests)
	}
	out := &tallyWhere{labels: labels}
	for i, t := range tests {
		c, cerr := compileCached(t)
		if cerr != nil {
			return nil, types.NewErr("%s: expression %d of where does not compile: %v", fn, i, cerr)
		}
		out.tests = append(out.tests, c)
	}
	return out, nil
}

// tallyEachIn is tally_each_in: the matches find_all_each_in gives
// (folded when foldList is not nil), counted by string, pattern and the
// outcome of the pattern's tests, with the first n+1 matches of each of
// these groups made into values. A formula that weighs every match then
// goes through the groups, a few a string, however many matches a text
// holds, and one that lists them through at most n+1 a group. With
// labelList and whereList (nil otherwise), the strings whose labels
// match the same expressions of where share their groups: tens of
// thousands of strings with a match each are a few groups.
func tallyEachIn(list, patterns, foldList, testList, limit, labelList, whereList ref.Val) ref.Val {
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
	var where *tallyWhere
	if labelList != nil {
		l, ok := list.(traits.Lister)
		if !ok {
			return types.NewErr("%s: want a list of strings, got %s", fn, list.Type().TypeName())
		}
		if where, err = tallyWhereOf(labelList, whereList, int(l.Size().(types.Int)), fn); err != nil {
			return err
		}
	}
	type group struct {
		index, pattern int
		passed, where  []any // of bool
		count, made    int64
	}
	// With where, a group is found by its pattern, the outcome of the
	// label's tests and of the pattern's, across strings.
	type groupKey struct {
		pattern     int
		where, mask uint32
	}
	var (
		groups    []*group
		listed    = []any{}
		spans     []PatternSpan
		byPattern = make([][]PatternSpan, len(ps.res))
		count     int64
		// byMask holds the groups of a string's current pattern, by the
		// outcome of its tests as bits; shared those of every string
		// (with where).
		byMask = map[uint32]int{}
		shared = map[groupKey]int{}
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
		// The outcome of the label's tests, as bits, and as values.
		var (
			whereMask uint32
			whereList []any
		)
		if where != nil {
			whereList = make([]any, len(where.tests))
			for k, t := range where.tests {
				ok := t.re.MatchString(where.labels[i])
				if ok {
					whereMask |= 1 << k
				}
				whereList[k] = ok
			}
		}
		pattern := -1
		at := charCursor{s: s}
		for _, sp := range spans {
			if sp.Pattern != pattern {
				pattern = sp.Pattern
				clear(byMask)
			}
			mask := uint32(0)
			for k, t := range tests[sp.Pattern] {
				if t.passes(sp, byPattern, &at) {
					mask |= 1 << k
				}
			}
			var (
				g  int
				ok bool
			)
			if where != nil {
				g, ok = shared[groupKey{sp.Pattern, whereMask, mask}]
			} else {
				g, ok = byMask[mask]
			}
			if !ok {
				g = len(groups)
				if where != nil {
					shared[groupKey{sp.Pattern, whereMask, mask}] = g
				} else {
					byMask[mask] = g
				}
				passed := make([]any, len(tests[sp.Pattern]))
				for k := range passed {
					passed[k] = mask&(1<<k) != 0
				}
				groups = append(groups, &group{index: i, pattern: sp.Pattern, passed: passed, where: whereList})
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
		m := map[string]any{"index": int64(g.index), "pattern": int64(g.pattern), "passed": g.passed, "count": g.count}
		if where != nil {
			m["where"] = g.where
		}
		gs[k] = m
	}
	return types.NewStringInterfaceMap(Adapter, map[string]any{"count": count, "groups": gs, "matches": listed})
}
