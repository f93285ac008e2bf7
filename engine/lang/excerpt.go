package lang

import (
	"unicode"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// Ellipsis marks where an excerpt's context was cut.
const Ellipsis = "…"

// ContextBefore is at most n characters of s before the character
// offset start, for an excerpt around a match that starts there: when
// the text goes on further back, the cut falls between two words (the
// first word that would be cut in half is left out) and is marked with
// an ellipsis; a window with no space in it is cut at the character.
func ContextBefore(s string, start, n int) string {
	r := []rune(s)
	start = clampOffset(start, len(r))
	from := max(start-max(n, 0), 0)
	if from == 0 {
		return string(r[:start])
	}
	if !unicode.IsSpace(r[from-1]) && !unicode.IsSpace(r[from]) {
		for i := from; i < start; i++ {
			if unicode.IsSpace(r[i]) {
				from = i
				break
			}
		}
	}
	for from < start && unicode.IsSpace(r[from]) {
		from++
	}
	return Ellipsis + string(r[from:start])
}

// ContextAfter is at most n characters of s from the character offset
// end on, for an excerpt around a match that ends there: when the text
// goes on further, the cut falls between two words (the last word that
// would be cut in half is left out) and is marked with an ellipsis; a
// window with no space in it is cut at the character.
func ContextAfter(s string, end, n int) string {
	r := []rune(s)
	end = clampOffset(end, len(r))
	to := min(end+max(n, 0), len(r))
	if to == len(r) {
		return string(r[end:])
	}
	if !unicode.IsSpace(r[to-1]) && !unicode.IsSpace(r[to]) {
		for i := to - 1; i >= end; i-- {
			if unicode.IsSpace(r[i]) {
				to = i
				break
			}
		}
	}
	for to > end && unicode.IsSpace(r[to-1]) {
		to--
	}
	return string(r[end:to]) + Ellipsis
}

func clampOffset(i, n int) int { return min(max(i, 0), n) }

// contextFunctions declares context_before and context_after to CEL.
func contextFunctions() []cel.EnvOption {
	fn := func(name string, impl func(string, int, int) string) cel.EnvOption {
		return cel.Function(name, cel.Overload(name+"_string_int_int", []*cel.Type{cel.StringType, cel.IntType, cel.IntType}, cel.StringType,
			cel.FunctionBinding(func(args ...ref.Val) ref.Val {
				s, ok1 := args[0].(types.String)
				i, ok2 := args[1].(types.Int)
				n, ok3 := args[2].(types.Int)
				if !ok1 || !ok2 || !ok3 {
					return types.NewErr("%s: want (string, int, int)", name)
				}
				return types.String(impl(string(s), int(i), int(n)))
			})))
	}
	return []cel.EnvOption{fn("context_before", ContextBefore), fn("context_after", ContextAfter)}
}
