package lang

import (
	"math"
	"slices"
	"sync/atomic"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// textLib declares the Unicode and span functions (unicode.go, spans.go)
// to CEL, with what each call costs: unlike most of the language's
// functions, their work grows with the string they read, so the cost
// tracker charges each call for its length (a tenth of a unit per
// character, as CEL charges its own string functions) plus what it
// returns, and the static estimate (textCallEstimate) charges at least
// as much.
type textLib struct{}

// textFunctions are the text functions as a CEL library.
func textFunctions() cel.EnvOption { return cel.Lib(textLib{}) }

func (textLib) LibraryName() string { return "rubric.text" }

// stringFn declares a one-string function.
func stringFn(name string, out *cel.Type, impl func(string) ref.Val) cel.EnvOption {
	return cel.Function(name, cel.Overload(name+"_string", []*cel.Type{cel.StringType}, out,
		cel.UnaryBinding(func(v ref.Val) ref.Val { return impl(string(v.(types.String))) })))
}

func stringList(ss []string) ref.Val {
	if ss == nil {
		ss = []string{}
	}
	return types.NewStringList(Adapter, ss)
}

// firstRune applies f to the first character of s; "" for an empty s.
func firstRune(f func(rune) string) func(string) ref.Val {
	return func(s string) ref.Val {
		if s == "" {
			return types.String("")
		}
		r, _ := utf8.DecodeRuneInString(s)
		return types.String(f(r))
	}
}

// textOrNull is a decoded text, or null when it is not text.
func textOrNull(decode func(string) (string, bool)) func(string) ref.Val {
	return func(s string) ref.Val {
		if t, ok := decode(s); ok {
			return types.String(t)
		}
		return types.NullValue
	}
}

func (textLib) CompileOptions() []cel.EnvOption {
	return append(contextFunctions(),
		tokenCountFunction(),
		stringFn("char_script", cel.StringType, firstRune(RuneScript)),
		stringFn("char_category", cel.StringType, firstRune(RuneCategory)),
		stringFn("scripts", cel.ListType(cel.StringType), func(s string) ref.Val { return stringList(Scripts(s)) }),
		stringFn("skeleton", cel.StringType, func(s string) ref.Val { return types.String(Skeleton(s)) }),
		cel.Function("skeletons",
			cel.Overload("skeletons_list", []*cel.Type{cel.ListType(cel.StringType)}, cel.ListType(cel.StringType),
				cel.UnaryBinding(func(list ref.Val) ref.Val {
					return mapStrings(list, "skeletons", Skeleton)
				}))),
		stringFn("visible", cel.StringType, func(s string) ref.Val { return types.String(Visible(s)) }),
		stringFn("decode_base64", cel.DynType, textOrNull(DecodeBase64)),
		stringFn("decode_hex", cel.DynType, textOrNull(DecodeHex)),
		cel.Function("find_all",
			cel.Overload("find_all_string_string", []*cel.Type{cel.StringType, cel.StringType}, spanList,
				cel.BinaryBinding(func(s, pattern ref.Val) ref.Val {
					c, err := compileCached(string(pattern.(types.String)))
					if err != nil {
						return types.NewErr("find_all: %v", err)
					}
					return spanMaps(c.find(string(s.(types.String))))
				}))),
		cel.Function("find_all_in",
			cel.Overload("find_all_in_list_string", []*cel.Type{cel.ListType(cel.StringType), cel.StringType}, spanList,
				cel.FunctionBinding(findAllIn)),
			// The maps are declared dyn: cel-go checks a map argument
			// against a declared map type at run time by going through
			// all of its entries, each call, and a map of a surface's
			// names, read for each of its tools, would cost the square of
			// the tools. findAllIn refuses a value that is no map.
			cel.Overload("find_all_in_list_string_dyn", []*cel.Type{cel.ListType(cel.StringType), cel.StringType, cel.DynType}, spanList,
				cel.FunctionBinding(findAllIn)),
			cel.Overload("find_all_in_list_string_dyn_dyn", []*cel.Type{cel.ListType(cel.StringType), cel.StringType, cel.DynType, cel.DynType}, spanList,
				cel.FunctionBinding(findAllIn))),
		cel.Function("find_all_each",
			cel.Overload("find_all_each_string_list", []*cel.Type{cel.StringType, cel.ListType(cel.StringType)}, spanList,
				cel.BinaryBinding(func(s, patterns ref.Val) ref.Val {
					ps, err := patternSetOf(patterns, "find_all_each")
					if err != nil {
						return err
					}
					spans := ps.find(string(s.(types.String)), ps.scratch(), nil)
					return types.NewRefValList(Adapter, appendPatternSpanMaps(make([]ref.Val, 0, len(spans)), -1, spans))
				}))),
		cel.Function("find_all_each_in",
			cel.Overload("find_all_each_in_list_list", []*cel.Type{cel.ListType(cel.StringType), cel.ListType(cel.StringType)}, spanList,
				cel.BinaryBinding(func(list, patterns ref.Val) ref.Val {
					ps, err := patternSetOf(patterns, "find_all_each_in")
					if err != nil {
						return err
					}
					sc := ps.scratch()
					var spans []PatternSpan
					return eachString(list, "find_all_each_in", func(out []ref.Val, i int, s string) []ref.Val {
						spans = ps.find(s, sc, spans[:0])
						return appendPatternSpanMaps(out, i, spans)
					})
				}))),
		cel.Function("find_all_each_in",
			cel.Overload("find_all_each_in_list_list_list", []*cel.Type{cel.ListType(cel.StringType), cel.ListType(cel.StringType), cel.ListType(cel.StringType)}, spanList,
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					ps, err := patternSetOf(args[1], "find_all_each_in")
					if err != nil {
						return err
					}
					find, err := spanFinder(ps, args[2], "find_all_each_in")
					if err != nil {
						return err
					}
					var spans []PatternSpan
					return eachString(args[0], "find_all_each_in", func(out []ref.Val, i int, s string) []ref.Val {
						spans = find(s, spans[:0])
						return appendPatternSpanMaps(out, i, spans)
					})
				}))),
		cel.Function("find_first_each_in",
			cel.Overload("find_first_each_in_list_list_int", []*cel.Type{cel.ListType(cel.StringType), cel.ListType(cel.StringType), cel.IntType}, firstMatches,
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					return findFirstEachIn(args[0], args[1], nil, args[2])
				})),
			cel.Overload("find_first_each_in_list_list_list_int", []*cel.Type{cel.ListType(cel.StringType), cel.ListType(cel.StringType), cel.ListType(cel.StringType), cel.IntType}, firstMatches,
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					return findFirstEachIn(args[0], args[1], args[2], args[3])
				}))),
		cel.Function("tally_each_in",
			cel.Overload("tally_each_in_list_list_list_int", []*cel.Type{cel.ListType(cel.StringType), cel.ListType(cel.StringType), cel.ListType(cel.DynType), cel.IntType}, firstMatches,
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					return tallyEachIn(args[0], args[1], nil, args[2], args[3], nil, nil)
				})),
			cel.Overload("tally_each_in_list_list_list_list_int", []*cel.Type{cel.ListType(cel.StringType), cel.ListType(cel.StringType), cel.ListType(cel.StringType), cel.ListType(cel.DynType), cel.IntType}, firstMatches,
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					return tallyEachIn(args[0], args[1], args[2], args[3], args[4], nil, nil)
				})),
			cel.Overload("tally_each_in_list_list_list_list_int_list_list", []*cel.Type{cel.ListType(cel.StringType), cel.ListType(cel.StringType), cel.ListType(cel.StringType), cel.ListType(cel.DynType), cel.IntType, cel.ListType(cel.StringType), cel.ListType(cel.StringType)}, firstMatches,
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					return tallyEachIn(args[0], args[1], args[2], args[3], args[4], args[5], args[6])
				}))),
		cel.Function("fold",
			cel.Overload("fold_string_list", []*cel.Type{cel.StringType, cel.ListType(cel.StringType)}, cel.StringType,
				cel.BinaryBinding(func(s, list ref.Val) ref.Val {
					folds, err := stringsOf(list, "fold")
					if err != nil {
						return err
					}
					f, e := Fold(string(s.(types.String)), folds)
					if e != nil {
						return types.NewErr("fold: %v", e)
					}
					return types.String(f.Text)
				}))),
		cel.Function("find_runs",
			cel.Overload("find_runs_string_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType}, spanList,
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					n, err := runLength(args[2], "find_runs")
					if err != nil {
						return err
					}
					return spanMaps(FindRuns(string(args[0].(types.String)), string(args[1].(types.String)), n))
				}))),
		cel.Function("find_runs_in",
			cel.Overload("find_runs_in_list_string_int", []*cel.Type{cel.ListType(cel.StringType), cel.StringType, cel.IntType}, spanList,
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					n, err := runLength(args[2], "find_runs_in")
					if err != nil {
						return err
					}
					chars := string(args[1].(types.String))
					return eachString(args[0], "find_runs_in", func(out []ref.Val, i int, s string) []ref.Val {
						return appendSpanMaps(out, i, FindRuns(s, chars, n))
					})
				}))),
		cel.Function("texts",
			cel.Overload("texts_dyn", []*cel.Type{cel.DynType}, textList,
				cel.UnaryBinding(func(v ref.Val) ref.Val { return textMaps(v, true) })),
			cel.Overload("texts_dyn_bool", []*cel.Type{cel.DynType, cel.BoolType}, textList,
				cel.BinaryBinding(func(v, keys ref.Val) ref.Val { return textMaps(v, bool(keys.(types.Bool))) }))),
		cel.Function("string_values", cel.Overload("string_values_dyn", []*cel.Type{cel.DynType}, cel.ListType(cel.StringType),
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				n, err := Native(v)
				if err != nil {
					return types.NewErr("string_values: %v", err)
				}
				return stringList(StringValues(n))
			}))),
	)
}

// spanList and textList are the types of what the span functions and
// texts return; firstMatches what find_first_each_in returns.
var (
	spanList     = cel.ListType(cel.MapType(cel.StringType, cel.DynType))
	textList     = spanList
	firstMatches = cel.MapType(cel.StringType, cel.DynType)
)

// spanFinder reads the folds argument of an *_each_in function, nil
// when the call has none, and returns what finds the matches of ps in
// one string, appending them to spans: on a folded copy when folds were
// given, as the string is otherwise.
func spanFinder(ps *patternSet, foldList ref.Val, fn string) (func(s string, spans []PatternSpan) []PatternSpan, ref.Val) {
	sc := ps.scratch()
	if foldList == nil {
		return func(s string, spans []PatternSpan) []PatternSpan { return ps.find(s, sc, spans) }, nil
	}
	folds, err := stringsOf(foldList, fn)
	if err != nil {
		return nil, err
	}
	if e := checkFolds(folds); e != nil {
		return nil, types.NewErr("%s: %v", fn, e)
	}
	if len(folds) == 0 {
		// Nothing to fold: matched as it is, without a folded copy.
		return func(s string, spans []PatternSpan) []PatternSpan { return ps.find(s, sc, spans) }, nil
	}
	return func(s string, spans []PatternSpan) []PatternSpan {
		spans, _ = findFolded(ps, sc, s, folds, spans)
		return spans
	}, nil
}

// findFirstEachIn is find_first_each_in: the matches find_all_each_in
// gives (folded when folds is not nil), of which only the first n+1 are
// made into values, and how many there are in all. A formula that goes
// through the matches then goes through at most n+1 of them, however
// many a text holds, and can still tell "more than n" and count them.
func findFirstEachIn(list, patterns, foldList, limit ref.Val) ref.Val {
	const fn = "find_first_each_in"
	n := int64(limit.(types.Int))
	if n < 0 {
		return types.NewErr("%s: n is the number of matches wanted past the first, at least 0, not %d", fn, n)
	}
	ps, err := patternSetOf(patterns, fn)
	if err != nil {
		return err
	}
	find, err := spanFinder(ps, foldList, fn)
	if err != nil {
		return err
	}
	var spans []PatternSpan
	count := int64(0)
	matches := eachString(list, fn, func(out []ref.Val, i int, s string) []ref.Val {
		spans = find(s, spans[:0])
		count += int64(len(spans))
		if room := n + 1 - int64(len(out)); room > 0 {
			out = appendPatternSpanMaps(out, i, spans[:min(room, int64(len(spans)))])
		}
		return out
	})
	if types.IsError(matches) {
		return matches
	}
	return types.NewStringInterfaceMap(Adapter, map[string]any{"count": count, "matches": matches})
}

// appendSpanMaps appends a map for each span to out: {start, end,
// text}, with index when it is not negative (the string's place in a
// list).
func appendSpanMaps(out []ref.Val, index int, spans []Span) []ref.Val {
	for _, sp := range spans {
		m := map[string]any{"start": int64(sp.Start), "end": int64(sp.End), "text": sp.Text}
		if index >= 0 {
			m["index"] = int64(index)
		}
		out = append(out, types.NewStringInterfaceMap(Adapter, m))
	}
	return out
}

// appendPatternSpanMaps is appendSpanMaps of matches of several
// patterns, each map with its pattern.
func appendPatternSpanMaps(out []ref.Val, index int, spans []PatternSpan) []ref.Val {
	for _, sp := range spans {
		m := map[string]any{"pattern": int64(sp.Pattern), "start": int64(sp.Start), "end": int64(sp.End), "text": sp.Text}
		if index >= 0 {
			m["index"] = int64(index)
		}
		out = append(out, types.NewStringInterfaceMap(Adapter, m))
	}
	return out
}

// spanMaps is the list of appendSpanMaps of spans of one string.
func spanMaps(spans []Span) ref.Val {
	return types.NewRefValList(Adapter, appendSpanMaps(make([]ref.Val, 0, len(spans)), -1, spans))
}

// findAllIn is find_all_in(ss, re[, names[, except]]): the matches of
// re in each string of ss, only those whose text is a key of the map
// names when it is given, and not a key of the map except when that is.
func findAllIn(args ...ref.Val) ref.Val {
	c, err := compileCached(string(args[1].(types.String)))
	if err != nil {
		return types.NewErr("find_all_in: %v", err)
	}
	var maps []traits.Mapper
	for _, a := range args[2:] {
		m, ok := a.(traits.Mapper)
		if !ok {
			return types.NewErr("find_all_in: want a map of names, got %s", a.Type().TypeName())
		}
		maps = append(maps, m)
	}
	var kept []Span
	return eachString(args[0], "find_all_in", func(out []ref.Val, i int, s string) []ref.Val {
		if len(maps) == 0 {
			return appendSpanMaps(out, i, c.find(s))
		}
		kept = kept[:0]
		for _, sp := range c.find(s) {
			key := types.String(sp.Text)
			if _, in := maps[0].Find(key); !in {
				continue
			}
			if len(maps) > 1 {
				if _, excepted := maps[1].Find(key); excepted {
					continue
				}
			}
			kept = append(kept, sp)
		}
		return appendSpanMaps(out, i, kept)
	})
}

// eachString calls f with each string of list and its index, f
// appending its results to out, and returns all of them in one list. A
// list held as Go values (a signal's value) is read without making each
// element a CEL value first.
func eachString(list ref.Val, fn string, f func(out []ref.Val, i int, s string) []ref.Val) ref.Val {
	out := []ref.Val{}
	switch x := list.Value().(type) {
	case []string:
		for i, s := range x {
			out = f(out, i, s)
		}
		return types.NewRefValList(Adapter, out)
	case []any:
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return types.NewErr("%s: element %d of the list is not a string", fn, i)
			}
			out = f(out, i, s)
		}
		return types.NewRefValList(Adapter, out)
	}
	l, ok := list.(traits.Lister)
	if !ok {
		return types.NewErr("%s: want a list of strings, got %s", fn, list.Type().TypeName())
	}
	n := int(l.Size().(types.Int))
	for i := range n {
		s, ok := l.Get(types.Int(i)).(types.String)
		if !ok {
			return types.NewErr("%s: element %d of the list is not a string", fn, i)
		}
		out = f(out, i, string(s))
	}
	return types.NewRefValList(Adapter, out)
}

// mapStrings is the list of f of each string of list, in order: a
// list held as Go values (a signal's value) is read without making each
// element a CEL value first.
func mapStrings(list ref.Val, fn string, f func(string) string) ref.Val {
	var out []string
	switch x := list.Value().(type) {
	case []string:
		out = make([]string, len(x))
		for i, s := range x {
			out[i] = f(s)
		}
		return stringList(out)
	case []any:
		out = make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return types.NewErr("%s: element %d of the list is not a string", fn, i)
			}
			out[i] = f(s)
		}
		return stringList(out)
	}
	l, ok := list.(traits.Lister)
	if !ok {
		return types.NewErr("%s: want a list of strings, got %s", fn, list.Type().TypeName())
	}
	out = make([]string, int(l.Size().(types.Int)))
	for i := range out {
		s, ok := l.Get(types.Int(i)).(types.String)
		if !ok {
			return types.NewErr("%s: element %d of the list is not a string", fn, i)
		}
		out[i] = f(string(s))
	}
	return stringList(out)
}

// lastPatternList is the list of patterns held as Go values that
// patternSetOf was last given, and its set: every tool's formula passes
// the same list (a surface signal), and comparing its strings, the same
// strings, so that each comparison is of a pointer, costs less than
// hashing their text for patternSetFor.
var lastPatternList atomic.Pointer[patternListSet]

type patternListSet struct {
	list []string
	set  *patternSet
}

// holds reports whether the list x holds the strings of l.
func (l *patternListSet) holds(x []any) bool {
	if len(l.list) != len(x) {
		return false
	}
	for i, e := range x {
		if s, ok := e.(string); !ok || s != l.list[i] {
			return false
		}
	}
	return true
}

// stringsOf is the strings of a CEL list of strings.
func stringsOf(list ref.Val, fn string) ([]string, ref.Val) {
	var out []string
	if e := eachString(list, fn, func(o []ref.Val, _ int, s string) []ref.Val {
		out = append(out, s)
		return o
	}); types.IsError(e) {
		return nil, e
	}
	return out, nil
}

// patternSetOf is the compiled set of a list of patterns, given to the
// function fn, which an error names.
func patternSetOf(patterns ref.Val, fn string) (*patternSet, ref.Val) {
	var ps []string
	switch x := patterns.Value().(type) {
	case []string:
		ps = x
	case []any:
		if last := lastPatternList.Load(); last != nil && last.holds(x) {
			return last.set, nil
		}
		ps = make([]string, len(x))
		for i, e := range x {
			p, ok := e.(string)
			if !ok {
				return nil, types.NewErr("%s: a pattern is not a string", fn)
			}
			ps[i] = p
		}
		set, err := patternSetFor(ps)
		if err != nil {
			return nil, types.NewErr("%s: %v", fn, err)
		}
		lastPatternList.Store(&patternListSet{list: ps, set: set})
		return set, nil
	default:
		l := patterns.(traits.Lister)
		ps = make([]string, 0, int(l.Size().(types.Int)))
		for it := l.Iterator(); it.HasNext() == types.True; {
			p, ok := it.Next().(types.String)
			if !ok {
				return nil, types.NewErr("%s: a pattern is not a string", fn)
			}
			ps = append(ps, string(p))
		}
	}
	set, err := patternSetFor(ps)
	if err != nil {
		return nil, types.NewErr("%s: %v", fn, err)
	}
	return set, nil
}

// runLength is the least run of find_runs or find_runs_in (fn, which an
// error names), at least 1.
func runLength(v ref.Val, fn string) (int, ref.Val) {
	n := int64(v.(types.Int))
	if n < 1 {
		return 0, types.NewErr("%s: a run is at least 1 character long, not %d", fn, n)
	}
	return int(min(n, math.MaxInt32)), nil
}

// textMaps is texts(v) as CEL maps {path, text, key}, object keys among
// them when keys is true.
func textMaps(v ref.Val, keys bool) ref.Val {
	n, err := Native(v)
	if err != nil {
		return types.NewErr("texts: %v", err)
	}
	ts := TextsOf(n, keys)
	out := make([]ref.Val, len(ts))
	for i, t := range ts {
		out[i] = types.NewStringInterfaceMap(Adapter, map[string]any{"path": t.Path, "text": t.Text, "key": t.Key})
	}
	return types.NewRefValList(Adapter, out)
}

// textFunctionNames are the functions textLib declares, for the cost
// estimate.
var textFunctionNames = map[string]bool{
	"char_script": true, "char_category": true, "scripts": true, "skeleton": true, "skeletons": true, "visible": true,
	"decode_base64": true, "decode_hex": true, "find_all": true, "find_all_each": true, "find_runs": true, "texts": true,
	"string_values": true, "find_all_in": true, "find_all_each_in": true, "find_runs_in": true, "fold": true,
	"find_first_each_in": true, "tally_each_in": true, "context_before": true, "context_after": true,
	"token_count": true,
}

// stringCost is what reading s costs: one unit a call and a tenth of a
// unit a character; a list of strings costs what reading each of them
// does, as the calls on each one would.
func stringCost(s ref.Val) uint64 {
	switch x := s.(type) {
	case types.String:
		return 1 + uint64(utf8.RuneCountInString(string(x)))/10
	case traits.Lister:
		c := uint64(0)
		switch v := x.Value().(type) {
		case []any:
			for _, e := range v {
				if str, ok := e.(string); ok {
					c += 1 + uint64(utf8.RuneCountInString(str))/10
				} else {
					c++
				}
			}
			return max(c, 1)
		case []string:
			for _, str := range v {
				c += 1 + uint64(utf8.RuneCountInString(str))/10
			}
			return max(c, 1)
		}
		for it := x.Iterator(); it.HasNext() == types.True; {
			c += stringCost(it.Next())
		}
		return max(c, 1)
	}
	return 1
}

// tallyTestsReads is what the tests argument of tally_each_in is charged
// in reads of its strings (see tallyTestReads). Tests that are JSON data
// (a signal, as a rubric passes them to every tool) are read as the Go
// values they are, without a formula value made of each test at each
// call; others through their members.
func tallyTestsReads(v ref.Val) uint64 {
	var reads uint64
	if raw, ok := v.Value().([]any); ok {
		for _, l := range raw {
			ts, ok := l.([]any)
			if !ok {
				reads += patternTestsReads(Adapter.NativeToValue(l))
				continue
			}
			for _, t := range ts {
				if _, plain := t.(map[string]any); !plain {
					t, _ = Native(Adapter.NativeToValue(t))
				}
				reads += tallyTestReads(t)
			}
		}
		return reads
	}
	if l, ok := v.(traits.Lister); ok {
		for it := l.Iterator(); it.HasNext() == types.True; {
			reads += patternTestsReads(it.Next())
		}
	}
	return reads
}

// patternTestsReads is tallyTestsReads of one pattern's tests, read
// through their members.
func patternTestsReads(v ref.Val) uint64 {
	var reads uint64
	if ts, ok := v.(traits.Lister); ok {
		for jt := ts.Iterator(); jt.HasNext() == types.True; {
			t, _ := Native(jt.Next())
			reads += tallyTestReads(t)
		}
	}
	return reads
}

// resultCost is the length of a list result, or 0.
func resultCost(v ref.Val) uint64 {
	if l, ok := v.(traits.Sizer); ok && v.Type() == types.ListType {
		if n, ok := l.Size().(types.Int); ok && n > 0 {
			return uint64(n)
		}
	}
	return 0
}

// textOverloads are the overloads of textLib's functions by the function
// each belongs to, for the cost tracker.
var textOverloads = map[string][]string{
	"find_all":           {"find_all_string_string"},
	"find_all_in":        {"find_all_in_list_string", "find_all_in_list_string_dyn", "find_all_in_list_string_dyn_dyn"},
	"find_all_each":      {"find_all_each_string_list"},
	"find_all_each_in":   {"find_all_each_in_list_list", "find_all_each_in_list_list_list"},
	"find_first_each_in": {"find_first_each_in_list_list_int", "find_first_each_in_list_list_list_int"},
	"tally_each_in":      {"tally_each_in_list_list_list_int", "tally_each_in_list_list_list_list_int", "tally_each_in_list_list_list_list_int_list_list"},
	"fold":               {"fold_string_list"},
	"find_runs":          {"find_runs_string_string_int"},
	"find_runs_in":       {"find_runs_in_list_string_int"},
	"skeletons":          {"skeletons_list"},
	"texts":              {"texts_dyn", "texts_dyn_bool"},
	"string_values":      {"string_values_dyn"},
	"token_count":        {"token_count_string_string"},
}

func (textLib) ProgramOptions() []cel.ProgramOption {
	var opts []interpreter.CostTrackerOption
	for name := range textFunctionNames {
		ids, ok := textOverloads[name]
		if !ok {
			ids = []string{name + "_string"}
		}
		for _, id := range ids {
			opts = append(opts, interpreter.OverloadCostTracker(id, func(args []ref.Val, result ref.Val) *uint64 {
				var c uint64
				switch name {
				case "find_all_each", "find_all_each_in":
					// Each pattern reads the string; a folded copy may be
					// longer than the original.
					c = stringCost(args[0])*uint64(max(1, resultCost(args[1]))) + resultCost(result)
					if len(args) == 3 {
						c *= maxFoldGrowth
					}
				case "find_first_each_in":
					// As find_all_each_in, but only the matches made are
					// what it returns.
					c = stringCost(args[0]) * uint64(max(1, resultCost(args[1])))
					if len(args) == 4 {
						c *= maxFoldGrowth
					}
					if m, ok := result.(traits.Mapper); ok {
						c += resultCost(m.Get(types.String("matches")))
					}
				case "tally_each_in":
					// As find_first_each_in, each test reading its pattern's
					// matches again (together no longer than the string;
					// see tallyTestReads), and the groups made too.
					tests := 2 // tally_each_in(ss, res, tests, n)
					if len(args) >= 5 {
						tests = 3 // (ss, res, folds, tests, n[, labels, where])
					}
					reads := uint64(max(1, resultCost(args[1]))) + tallyTestsReads(args[tests])
					c = stringCost(args[0]) * reads
					if len(args) >= 5 {
						c *= maxFoldGrowth
					}
					if len(args) == 7 {
						// Each expression of where reads the labels once (a
						// call with more than maxTallyTests reads none).
						c += stringCost(args[5]) * uint64(max(1, min(resultCost(args[6]), maxTallyTests)))
					}
					if m, ok := result.(traits.Mapper); ok {
						c += resultCost(m.Get(types.String("matches"))) + resultCost(m.Get(types.String("groups")))
					}
				case "fold":
					c = stringCost(args[0]) + stringCost(result)
				case "texts", "string_values":
					// It walks the whole value; what it returns is what it
					// found, and every string read is in the result.
					c = 1 + resultCost(result)
					l, ok := result.(traits.Lister)
					if !ok {
						break
					}
					for it := l.Iterator(); it.HasNext() == types.True; {
						switch e := it.Next().(type) {
						case traits.Mapper:
							c += stringCost(e.Get(types.String("text")))
						case types.String:
							c += stringCost(e)
						}
					}
				default:
					c = stringCost(args[0]) + resultCost(result)
				}
				return &c
			}))
		}
	}
	return []cel.ProgramOption{cel.CostTrackerOptions(opts...)}
}

// textCallEstimate bounds what a call of a text function costs and
// returns, for the static estimate: the argument is at most max long when
// it is a part of the data (or a value whose size the checker knows),
// and unbounded otherwise, which sends the formula to the tracked path.
// A list of strings from the data holds at most max strings of at most
// max characters, and costs what a call on each would.
//
// An argument the checker knows only as dyn (a signal, a let, a field
// of an object) is, where the function takes a list (see listParams),
// estimated as the list it may be: every value of the data is at most
// max long, so a dyn value may be max strings of max characters each,
// not one string of max; read as one value, find_all_each_in(d.ss,
// d.res) on 32 strings of 32 characters and 32 patterns was estimated
// at 72 units and charged 36,868, and formulas ran untracked past the
// cost limit (TestDynListArgumentsStayTracked). Where the function
// takes a string, a dyn argument is one (a list finds no overload).
// These bounds are sound for every variable a formula reads, not only
// the tool: each function reads strings, or a flat list of strings
// (eachString fails on any other member), and the engine's size bound
// is at least the longest string, list or map of every variable, let
// and metric (see eval.ValueSize and Scope.eval). texts and
// string_values, which walk a whole value, are estimated apart (see
// walkBounded).
func (b sizeBound) textCallEstimate(function string, args []checker.AstNode) *checker.CallEstimate {
	unbounded := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
	if (function == "texts" || function == "string_values") && !b.walkBounded(args[0]) {
		return unbounded
	}
	if function == "texts" && b.walksTool(args[0]) {
		// Each text of the tool, key or value, is a string of its
		// canonical JSON, quotes and all: at most one for every two of
		// its bytes, half the engine's bound for the tool's formulas
		// (TestTextsOfTheToolWithinTheirBound). A macro over them goes
		// through no more, each holding a path up to twice that bound
		// (see shapes.of): a formula that matches every path of the
		// tool is estimated as it was when its paths were taken to be
		// no longer than the bound.
		est := b.stringCallEstimate(function, b.max, args)
		if est.ResultSize != nil {
			est.ResultSize = &checker.SizeEstimate{Min: 0, Max: b.max/2 + 1}
		}
		return est
	}
	if len(args) > 0 && isListArg(function, args, 0) {
		if !b.isData(args[0].Expr()) {
			return unbounded // its strings may be longer than the data's
		}
		items := b.max
		if cs := args[0].ComputedSize(); cs != nil {
			items = min(items, cs.Max)
		}
		one := b.stringCallEstimate(function, b.max, args)
		if items >= math.MaxUint32 || one.ResultSize == nil || one.CostEstimate.Max >= math.MaxUint64/(items+1) || one.ResultSize.Max >= math.MaxUint64/(items+1) {
			return unbounded
		}
		return &checker.CallEstimate{
			CostEstimate: checker.CostEstimate{Min: 1, Max: one.CostEstimate.Max * (items + 1)},
			ResultSize:   &checker.SizeEstimate{Min: 0, Max: one.ResultSize.Max * (items + 1)},
		}
	}
	size := uint64(math.MaxUint64)
	if len(args) > 0 {
		if cs := args[0].ComputedSize(); cs != nil {
			size = cs.Max
		} else if b.isData(args[0].Expr()) {
			size = b.max
		}
	}
	return b.stringCallEstimate(function, size, args)
}

// walkBounded reports whether the whole length of a value that texts or
// string_values walks (every string, key and member in it, its Weight)
// is bounded as textCallEstimate then bounds it. The engine's size
// bound (max here) bounds the longest string, list or map of each
// variable, not its whole length, but for the tool itself, so only:
//
//   - a path into the tool variable (texts(tool),
//     string_values(tool.inputSchema); see toolIdents): the engine's
//     bound for a tool's formulas is at least the tool's canonical JSON
//     (eval.SizeOf), longer than its Weight, and a part
//     of it weighs no more; a walk of it yields at most max strings of
//     max characters in all, estimated as one value of max.
//   - a string: one value of at most max (or of its known size).
//   - a list of strings that is a path into the data: at most max
//     strings of at most max characters, estimated as a call on each
//     (textCallEstimate's list case).
//
// Anything else (a signal, a let, a metric, a computed value, an item
// the checker knows only as dyn, a map or a list of lists) has no bound
// in max: a list of n copies of a description of n characters has
// ValueSize n and Weight about n*n, and nested lists of lists multiply
// again, so texts(signals.rep) was estimated at about 2n and charged
// about n*n/10, untracked past the cost limit
// (TestWalkOfRepeatsStaysTracked, TestWalkEstimateBoundsItsCharge). Such
// a formula is tracked.
func (b sizeBound) walkBounded(arg checker.AstNode) bool {
	t := arg.Type()
	switch t.Kind() {
	case types.StringKind:
		return true
	case types.ListKind:
		return len(t.Parameters()) == 1 && t.Parameters()[0].Kind() == types.StringKind
	}
	return b.intoTool(arg.Expr())
}

// walksTool reports whether arg is the tool or a part of it that is
// neither a string nor a list of strings (see walkBounded): a value
// whose canonical JSON is no longer than the tool's.
func (b sizeBound) walksTool(arg checker.AstNode) bool {
	switch arg.Type().Kind() {
	case types.StringKind, types.ListKind:
		return false
	}
	return b.intoTool(arg.Expr())
}

// intoTool reports whether e is a path into the tool variable (see
// toolIdents) that no macro or cel.bind of the formula rebinds, or
// omit(x, keys) of one: x without some of its keys, whose canonical
// JSON and texts are some of x's (texts(omit(tool, ['x'])) walks no more
// than texts(tool)).
func (b sizeBound) intoTool(e celast.Expr) bool {
	if e.Kind() == celast.CallKind {
		if c := e.AsCall(); c.FunctionName() == "omit" && !c.IsMemberFunction() && len(c.Args()) == 2 {
			return b.intoTool(c.Args()[0])
		}
	}
	return b.isData(e) && b.tools[pathRoot(e).ID()]
}

// stringCallEstimate is textCallEstimate of a call on a string of at most
// size characters.
func (b sizeBound) stringCallEstimate(function string, size uint64, args []checker.AstNode) *checker.CallEstimate {
	unbounded := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
	if size >= math.MaxUint64/4 {
		return unbounded
	}
	// A string of size characters costs 1 + size/10 to read and yields at
	// most size+1 spans; texts yields at most one string a character of
	// its value's JSON and reads each once. find_all_each reads it once a
	// pattern.
	if len(args) >= 3 && isListArg(function, args, 2) {
		// A folded copy is at most maxFoldGrowth times as long: folds are
		// the third argument of find_all_each_in(ss, res, folds) and of
		// find_first_each_in(ss, res, folds, n) alike.
		size *= maxFoldGrowth
		if size >= math.MaxUint32 {
			return unbounded
		}
	}
	if len(args) >= 2 && isListArg(function, args, 1) {
		n := b.max
		if cs := args[1].ComputedSize(); cs != nil {
			n = cs.Max
		}
		if n >= math.MaxUint32 || size >= math.MaxUint32 {
			return unbounded
		}
		return &checker.CallEstimate{
			CostEstimate: checker.CostEstimate{Min: 1, Max: (2+size/10)*(n+1) + n*(size+1)},
			ResultSize:   &checker.SizeEstimate{Min: 0, Max: n * (size + 1)},
		}
	}
	out := size + 1
	if function == "skeleton" || function == "visible" {
		// They rewrite each character as up to maxRewriteGrowth: what
		// reads their result (a concatenation, a match, a text
		// function) reads a string that much longer than the data's.
		out = maxRewriteGrowth*size + 1
	}
	if function == "scripts" {
		// Distinct scripts: no more than there are, whatever the
		// string's length (TestScriptsAtMostEveryScript), each name no
		// longer than the longest (see constantStrings): what a join of
		// them holds does not grow with the data.
		out = min(out, maxScripts)
	}
	return &checker.CallEstimate{
		CostEstimate: checker.CostEstimate{Min: 1, Max: 2 + size/10 + 2*size + 1},
		ResultSize:   &checker.SizeEstimate{Min: 0, Max: out},
	}
}

// maxRewriteGrowth bounds how many characters skeleton and visible write
// for one character (or one byte that is not UTF-8) of their string:
// TR39's skeleton of U+FDFA is 18, visible writes U+E0041 as \u{E0041},
// 9 (TestRewriteGrowthBound). The static estimate once took their result
// to be no longer than their argument.
const maxRewriteGrowth = 18

// listParams are, for each text function that takes a list, the places
// of its lists by the number of arguments of the overload: tally_each_in
// of 7 arguments takes lists at 0 (ss), 1 (res), 2 (folds), 3 (tests),
// 5 (labels) and 6 (where).
var listParams = map[string]map[int][]int{
	"skeletons":          {1: {0}},
	"find_all_in":        {2: {0}},
	"find_runs_in":       {3: {0}},
	"find_all_each":      {2: {1}},
	"fold":               {2: {1}},
	"find_all_each_in":   {2: {0, 1}, 3: {0, 1, 2}},
	"find_first_each_in": {3: {0, 1}, 4: {0, 1, 2}},
	"tally_each_in":      {4: {0, 1, 2}, 5: {0, 1, 2, 3}, 7: {0, 1, 2, 3, 5, 6}},
}

// isListArg reports whether args[i] of a call of function is to be
// estimated as a list: it is one, or it is dyn where the function takes
// a list.
func isListArg(function string, args []checker.AstNode, i int) bool {
	switch args[i].Type().Kind() {
	case types.ListKind:
		return true
	case types.DynKind, types.AnyKind:
		return slices.Contains(listParams[function][len(args)], i)
	}
	return false
}

// rootIdent is the variable a chain of selections starts from.
func rootIdent(e celast.Expr) string {
	for e.Kind() == celast.SelectKind {
		e = e.AsSelect().Operand()
	}
	if e.Kind() == celast.IdentKind {
		return e.AsIdent()
	}
	return ""
}
