package lang

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// The required subtree of an input schema is what a caller must build for
// the smallest valid call: the schema's required properties, theirs in
// turn, and the branches of the unions on the way. Its size says how much
// work a call is, as opposed to how well the tool is described.

// maxSubtreeDepth is the deepest level of a required subtree that is
// walked: deeper levels are not counted, so that a schema nested without
// end (or recursive through $refs) costs a bounded walk.
const maxSubtreeDepth = 10

// Subtree measures the required subtree of a JSON Schema.
type Subtree struct {
	// Fields counts the required properties met, a container once for
	// itself and again for each of its own required properties; of the
	// branches of a oneOf or anyOf only the one with the most fields
	// counts, and the branches of an allOf add up.
	Fields int
	// Depth is how many objects deep the subtree goes: 1 for an object
	// of scalars, one more for each required object (or array of
	// objects) inside it; the deepest branch of allOf, oneOf, anyOf and
	// not counts. At most maxSubtreeDepth.
	Depth int
	// Unions sums, over every oneOf and anyOf in the subtree, its
	// branches less one; a union with one branch beside null branches
	// (the way schema libraries write an optional value) is no choice.
	Unions int
}

// RequiredSubtree measures the required subtree of schema, an input
// schema: zero everywhere when it is not an object or has no properties.
// Local $refs are followed; a $ref met again on the same path counts as a
// scalar, so recursive schemas end.
func RequiredSubtree(schema any) Subtree {
	root, ok := schema.(map[string]any)
	if !ok {
		return Subtree{}
	}
	w := subtreeWalk{r: resolver{root: root, budget: maxResolvedNodes}}
	top, _ := w.deref(root, nil)
	props, _ := top["properties"].(map[string]any)
	if len(props) == 0 {
		return Subtree{}
	}
	return w.walk(root, 0, nil)
}

type subtreeWalk struct {
	r resolver
}

// deref follows node's $ref chain, returning the schema it lands on and
// the path of $refs followed; a $ref already on path, or one that does not
// resolve, stops the chain (nil when it loops).
func (w *subtreeWalk) deref(node map[string]any, path []string) (map[string]any, []string) {
	for {
		ref, ok := node["$ref"].(string)
		if !ok {
			return node, path
		}
		for _, p := range path {
			if p == ref {
				return nil, path
			}
		}
		target, ok := w.r.lookup(ref)
		m, isMap := target.(map[string]any)
		if !ok || !isMap {
			return node, path
		}
		path = append(path[:len(path):len(path)], ref)
		node = m
	}
}

// walk measures the subtree rooted at v, met level levels deep (the top
// object is level 0).
func (w *subtreeWalk) walk(v any, level int, path []string) Subtree {
	node, ok := v.(map[string]any)
	if !ok || level >= maxSubtreeDepth {
		return Subtree{}
	}
	if node, path = w.deref(node, path); node == nil {
		return Subtree{}
	}
	var out Subtree
	// An object: one level for itself, the deepest required property
	// below it.
	if props, isObject := node["properties"].(map[string]any); isObject || hasType(node, "object") {
		below := 0
		req, _ := node["required"].([]any)
		seen := map[string]bool{}
		for _, r := range req {
			name, ok := r.(string)
			if !ok || seen[name] {
				continue
			}
			seen[name] = true
			sub := w.walk(props[name], level+1, path)
			out.Fields += 1 + sub.Fields
			out.Unions += sub.Unions
			below = max(below, sub.Depth)
		}
		out.Depth = 1 + below
	}
	// An array of objects counts as deep as its items.
	if items, ok := node["items"].(map[string]any); ok && (hasType(node, "array") || node["type"] == nil) {
		sub := w.walk(items, level, path)
		out.Fields += sub.Fields
		out.Unions += sub.Unions
		out.Depth = max(out.Depth, sub.Depth)
	}
	if bs, ok := node["allOf"].([]any); ok {
		for _, b := range bs {
			sub := w.walk(b, level, path)
			out.Fields += sub.Fields
			out.Unions += sub.Unions
			out.Depth = max(out.Depth, sub.Depth)
		}
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		bs, ok := node[k].([]any)
		if !ok {
			continue
		}
		widest, choices := 0, 0
		for _, b := range bs {
			sub := w.walk(b, level, path)
			widest = max(widest, sub.Fields)
			out.Unions += sub.Unions
			out.Depth = max(out.Depth, sub.Depth)
			if !onlyNull(b) {
				choices++
			}
		}
		out.Fields += widest
		if choices > 1 {
			out.Unions += len(bs) - 1
		}
	}
	if not, ok := node["not"].(map[string]any); ok {
		out.Depth = max(out.Depth, w.walk(not, level, path).Depth)
	}
	out.Depth = min(out.Depth, maxSubtreeDepth)
	return out
}

// hasType reports whether the schema's type is t or an array naming t.
func hasType(node map[string]any, t string) bool {
	for _, n := range SchemaTypes(node) {
		if n == t {
			return true
		}
	}
	return false
}

// subtreeKeys are the fields of required_subtree's value.
var subtreeKeys = []string{"fields", "depth", "unions"}

func subtreeFunctions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("required_subtree", cel.Overload("required_subtree_dyn", []*cel.Type{cel.DynType}, cel.MapType(cel.StringType, cel.IntType),
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				m, _ := nativeMap(v)
				s := RequiredSubtree(m)
				return RecordOf(subtreeKeys, []ref.Val{types.Int(s.Fields), types.Int(s.Depth), types.Int(s.Unions)})
			}))),
		cel.Function("byte_size", cel.Overload("byte_size_string", []*cel.Type{cel.StringType}, cel.IntType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return types.Int(len(v.(types.String))) }))),
	}
}
