package lang

import (
	"math"
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
	return []cel.EnvOption{
		tokenCountFunction(),
		stringFn("char_script", cel.StringType, firstRune(RuneScript)),
		stringFn("char_category", cel.StringType, firstRune(RuneCategory)),
		stringFn("scripts", cel.ListType(cel.StringType), func(s string) ref.Val { return stringList(Scripts(s)) }),
		stringFn("skeleton", cel.StringType, func(s string) ref.Val { return types.String(Skeleton(s)) }),
		stringFn("visible", cel.StringType, func(s string) ref.Val { return types.String(Visible(s)) }),
		stringFn("decode_base64", cel.DynType, textOrNull(DecodeBase64)),
		stringFn("decode_hex", cel.DynType, textOrNull(DecodeHex)),
		cel.Function("find_all", cel.Overload("find_all_string_string", []*cel.Type{cel.StringType, cel.StringType},
			cel.ListType(cel.MapType(cel.StringType, cel.DynType)),
			cel.BinaryBinding(func(s, pattern ref.Val) ref.Val {
				spans, err := FindAll(string(s.(types.String)), string(pattern.(types.String)))
				if err != nil {
					return types.NewErr("find_all: %v", err)
				}
				out := make([]ref.Val, len(spans))
				for i, sp := range spans {
					out[i] = types.NewStringInterfaceMap(Adapter, map[string]any{
						"start": int64(sp.Start), "end": int64(sp.End), "text": sp.Text})
				}
				return types.NewRefValList(Adapter, out)
			}))),
		cel.Function("find_all_each", cel.Overload("find_all_each_string_list", []*cel.Type{cel.StringType, cel.ListType(cel.StringType)},
			cel.ListType(cel.MapType(cel.StringType, cel.DynType)),
			cel.BinaryBinding(func(s, patterns ref.Val) ref.Val {
				l := patterns.(traits.Lister)
				ps := make([]string, 0, int(l.Size().(types.Int)))
				for it := l.Iterator(); it.HasNext() == types.True; {
					p, ok := it.Next().(types.String)
					if !ok {
						return types.NewErr("find_all_each: a pattern is not a string")
					}
					ps = append(ps, string(p))
				}
				spans, err := FindAllEach(string(s.(types.String)), ps)
				if err != nil {
					return types.NewErr("find_all_each: %v", err)
				}
				out := make([]ref.Val, len(spans))
				for i, sp := range spans {
					out[i] = types.NewStringInterfaceMap(Adapter, map[string]any{
						"pattern": int64(sp.Pattern), "start": int64(sp.Start), "end": int64(sp.End), "text": sp.Text})
				}
				return types.NewRefValList(Adapter, out)
			}))),
		cel.Function("find_runs", cel.Overload("find_runs_string_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType},
			cel.ListType(cel.MapType(cel.StringType, cel.DynType)),
			cel.FunctionBinding(func(args ...ref.Val) ref.Val {
				n := int64(args[2].(types.Int))
				if n < 1 {
					return types.NewErr("find_runs: a run is at least 1 character long, not %d", n)
				}
				spans := FindRuns(string(args[0].(types.String)), string(args[1].(types.String)), int(min(n, math.MaxInt32)))
				out := make([]ref.Val, len(spans))
				for i, sp := range spans {
					out[i] = types.NewStringInterfaceMap(Adapter, map[string]any{"start": int64(sp.Start), "end": int64(sp.End), "text": sp.Text})
				}
				return types.NewRefValList(Adapter, out)
			}))),
		cel.Function("texts", cel.Overload("texts_dyn", []*cel.Type{cel.DynType},
			cel.ListType(cel.MapType(cel.StringType, cel.DynType)),
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				n, err := Native(v)
				if err != nil {
					return types.NewErr("texts: %v", err)
				}
				ts := Texts(n)
				out := make([]ref.Val, len(ts))
				for i, t := range ts {
					out[i] = types.NewStringInterfaceMap(Adapter, map[string]any{"path": t.Path, "text": t.Text, "key": t.Key})
				}
				return types.NewRefValList(Adapter, out)
			}))),
	}
}

// textFunctionNames are the functions textLib declares, for the cost
// estimate.
var textFunctionNames = map[string]bool{
	"char_script": true, "char_category": true, "scripts": true, "skeleton": true, "visible": true,
	"decode_base64": true, "decode_hex": true, "find_all": true, "find_all_each": true, "find_runs": true, "texts": true,
	"token_count": true,
}

// stringCost is what reading s costs: one unit a call and a tenth of a
// unit a character.
func stringCost(s ref.Val) uint64 {
	str, ok := s.(types.String)
	if !ok {
		return 1
	}
	return 1 + uint64(utf8.RuneCountInString(string(str)))/10
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

func (textLib) ProgramOptions() []cel.ProgramOption {
	var opts []interpreter.CostTrackerOption
	for name := range textFunctionNames {
		id := name + "_string"
		switch name {
		case "find_all":
			id = "find_all_string_string"
		case "find_all_each":
			id = "find_all_each_string_list"
		case "find_runs":
			id = "find_runs_string_string_int"
		case "texts":
			id = "texts_dyn"
		case "token_count":
			id = "token_count_string_string"
		}
		opts = append(opts, interpreter.OverloadCostTracker(id, func(args []ref.Val, result ref.Val) *uint64 {
			c := stringCost(args[0]) + resultCost(result)
			if name == "find_all_each" {
				// Each pattern reads the string.
				c = stringCost(args[0])*uint64(max(1, resultCost(args[1]))) + resultCost(result)
			}
			if name == "texts" {
				// texts walks the whole value; what it returns is what it
				// found, and every string read is in the result.
				c = 1 + resultCost(result)
				for it := result.(traits.Lister).Iterator(); it.HasNext() == types.True; {
					if m, ok := it.Next().(traits.Mapper); ok {
						c += stringCost(m.Get(types.String("text")))
					}
				}
			}
			return &c
		}))
	}
	return []cel.ProgramOption{cel.CostTrackerOptions(opts...)}
}

// textCallEstimate bounds what a call of a text function costs and
// returns, for the static estimate: the argument is at most max long when
// it is a part of the data (or a value whose size the checker knows),
// and unbounded otherwise, which sends the formula to the tracked path.
func (b sizeBound) textCallEstimate(args []checker.AstNode) *checker.CallEstimate {
	size := uint64(math.MaxUint64)
	if len(args) > 0 {
		if cs := args[0].ComputedSize(); cs != nil {
			size = cs.Max
		} else if e := args[0].Expr(); isDataPath(e) && !b.computed[rootIdent(e)] {
			size = b.max
		}
	}
	if size >= math.MaxUint64/4 {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
	}
	// A string of size characters costs 1 + size/10 to read and yields at
	// most size+1 spans; texts yields at most one string a character of
	// its value's JSON and reads each once. find_all_each reads it once a
	// pattern.
	if len(args) == 2 && args[1].Type().Kind() == types.ListKind {
		n := b.max
		if cs := args[1].ComputedSize(); cs != nil {
			n = cs.Max
		}
		if n >= math.MaxUint32 || size >= math.MaxUint32 {
			return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
		}
		return &checker.CallEstimate{
			CostEstimate: checker.CostEstimate{Min: 1, Max: (2+size/10)*(n+1) + n*(size+1)},
			ResultSize:   &checker.SizeEstimate{Min: 0, Max: n * (size + 1)},
		}
	}
	return &checker.CallEstimate{
		CostEstimate: checker.CostEstimate{Min: 1, Max: 2 + size/10 + 2*size + 1},
		ResultSize:   &checker.SizeEstimate{Min: 0, Max: size + 1},
	}
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
