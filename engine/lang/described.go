package lang

import (
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// Described reports whether a parameter's schema tells a model what the
// parameter means, as clients and models read schemas: the schema has a
// description with non-blank text; or it is a union (anyOf or oneOf)
// with at least one branch that admits more than null, and every such
// branch is described; or it is an intersection (allOf) one of whose
// branches is described. The null branches of a union are how schema
// libraries write an optional value (pydantic's Optional[T], zod's
// .nullable(): anyOf [{type: T, description: D}, {type: "null"}]): they
// need no words of their own, and the description on the other branch is
// what a model reads.
func Described(s any) bool { return described(s, 0) }

func described(s any, depth int) bool {
	m, ok := s.(map[string]any)
	if !ok || depth > 64 {
		return false
	}
	if d, ok := m["description"].(string); ok && strings.TrimSpace(d) != "" {
		return true
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		bs, ok := m[k].([]any)
		if !ok {
			continue
		}
		branches := 0
		all := true
		for _, b := range bs {
			if onlyNull(b) {
				continue
			}
			branches++
			if !described(b, depth+1) {
				all = false
				break
			}
		}
		if all && branches > 0 {
			return true
		}
	}
	if bs, ok := m["allOf"].([]any); ok {
		for _, b := range bs {
			if described(b, depth+1) {
				return true
			}
		}
	}
	return false
}

// onlyNull reports whether a schema admits null and nothing else: type
// "null" (or ["null"]), const null, or enum [null].
func onlyNull(s any) bool {
	m, ok := s.(map[string]any)
	if !ok {
		return false
	}
	switch t := m["type"].(type) {
	case string:
		return t == "null"
	case []any:
		return len(t) == 1 && t[0] == "null"
	}
	if c, ok := m["const"]; ok {
		return c == nil
	}
	if e, ok := m["enum"].([]any); ok {
		return len(e) == 1 && e[0] == nil
	}
	return false
}

func describedFunctions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("described", cel.Overload("described_dyn", []*cel.Type{cel.DynType}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				m, _ := nativeMap(v)
				return types.Bool(Described(m))
			}))),
	}
}
