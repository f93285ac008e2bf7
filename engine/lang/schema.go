package lang

import (
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/internal/jsonpointer"
)

// JSON Schema functions of the rubric language. They read the JSON a server
// sent, so they never fail on odd shapes: a schema that is not an object
// simply has no parameters, no types, and is not typed.

// maxResolvedNodes bounds the work of inlining $refs for one parameter, so
// that a schema whose references fan out exponentially cannot stall a run.
const maxResolvedNodes = 20000

// Param is one top-level parameter of a tool's inputSchema.
type Param struct {
	Name     string
	Schema   any // the parameter's schema with local $refs inlined
	Required bool
}

// Params returns the entries of tool.inputSchema.properties, sorted by name,
// each schema with its local $refs (#/$defs/..., #/definitions/..., any JSON
// pointer into inputSchema) resolved through the chain. Keys beside a $ref
// override the target's. A $ref that loops back onto itself, points outside
// the document, or does not resolve is left in place.
func Params(tool map[string]any) []Param {
	root, _ := tool["inputSchema"].(map[string]any)
	props, _ := root["properties"].(map[string]any)
	if len(props) == 0 {
		return nil
	}
	required := map[string]bool{}
	if req, ok := root["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	names := slices.Sorted(maps.Keys(props))
	out := make([]Param, len(names))
	for i, n := range names {
		r := resolver{root: root, budget: maxResolvedNodes}
		schema, _ := r.resolve(props[n], nil)
		out[i] = Param{Name: n, Schema: schema, Required: required[n]}
	}
	return out
}

type resolver struct {
	root   map[string]any
	budget int
}

// resolve returns v with local $refs inlined, and whether anything changed;
// it copies only the containers on the way to a $ref.
func (r *resolver) resolve(v any, stack []string) (any, bool) {
	r.budget--
	if r.budget < 0 {
		return v, false
	}
	switch x := v.(type) {
	case []any:
		var out []any
		for i, e := range x {
			re, changed := r.resolve(e, stack)
			if changed && out == nil {
				out = append(make([]any, 0, len(x)), x[:i]...)
			}
			if out != nil {
				out = append(out, re)
			}
		}
		if out == nil {
			return x, false
		}
		return out, true
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok && !slices.Contains(stack, ref) {
			if target, ok := r.lookup(ref); ok {
				resolved, _ := r.resolve(target, append(stack, ref))
				base, _ := resolved.(map[string]any)
				if len(x) == 1 {
					return resolved, true
				}
				merged := make(map[string]any, len(base)+len(x))
				for k, v := range base {
					merged[k] = v
				}
				for k, v := range x {
					if k != "$ref" {
						merged[k], _ = r.resolve(v, stack)
					}
				}
				return merged, true
			}
		}
		var out map[string]any
		for k, e := range x {
			re, changed := r.resolve(e, stack)
			if changed && out == nil {
				out = make(map[string]any, len(x))
				for k2, v2 := range x {
					out[k2] = v2
				}
			}
			if out != nil {
				out[k] = re
			}
		}
		if out == nil {
			return x, false
		}
		return out, true
	}
	return v, false
}

// lookup follows a local JSON pointer ("#/$defs/Name") from the root.
func (r *resolver) lookup(ref string) (any, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, false
	}
	return jsonpointer.Resolve(r.root, frag)
}

// jsonTypes are the type names JSON Schema defines.
var jsonTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// schemaTypeLists are schema_types' lists for a schema whose "type" is one
// string: one list for each JSON type, and the empty list for any other
// string, made once and shared, since a list value never changes (most
// schemas name one type, and making the list was most of the function's
// cost).
var schemaTypeLists = sync.OnceValue(func() map[string]ref.Val {
	out := make(map[string]ref.Val, len(jsonTypes)+1)
	for _, t := range jsonTypes {
		out[t] = types.NewStringList(Adapter, []string{t})
	}
	out[""] = types.NewStringList(Adapter, []string{})
	return out
})

// schemaTypeList is schema_types of a schema whose "type" is t: what
// SchemaTypes gives, as a shared list.
func schemaTypeList(t string) ref.Val {
	lists := schemaTypeLists()
	if l, ok := lists[t]; ok {
		return l
	}
	return lists[""]
}

// SchemaTypes returns the JSON Schema type names in a schema's "type"
// keyword: one for a string, those of an array (each once, in order).
// Anything that is not a type name is left out, so the list has at most
// seven entries.
func SchemaTypes(s any) []string {
	m, _ := s.(map[string]any)
	var names []any
	switch t := m["type"].(type) {
	case string:
		names = []any{t}
	case []any:
		names = t
	}
	var out []string
	for _, n := range names {
		name, ok := n.(string)
		if ok && slices.Contains(jsonTypes, name) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// Typed reports whether a schema pins the type of its value: a "type" that
// is a string or a non-empty array of strings, a "const", a non-empty
// "enum", or an "anyOf"/"oneOf" whose every branch is typed.
func Typed(s any) bool {
	return typed(s, 0)
}

func typed(s any, depth int) bool {
	m, ok := s.(map[string]any)
	if !ok || depth > 64 {
		return false
	}
	switch t := m["type"].(type) {
	case string:
		return true
	case []any:
		if len(t) > 0 && allStrings(t) {
			return true
		}
	}
	if _, ok := m["const"]; ok {
		return true
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return true
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if bs, ok := m[k].([]any); ok && len(bs) > 0 {
			all := true
			for _, b := range bs {
				if !typed(b, depth+1) {
					all = false
					break
				}
			}
			if all {
				return true
			}
		}
	}
	return false
}

func allStrings(xs []any) bool {
	for _, x := range xs {
		if _, ok := x.(string); !ok {
			return false
		}
	}
	return true
}

func schemaFunctions() []cel.EnvOption {
	dyn := cel.DynType
	return []cel.EnvOption{
		cel.Function("params", cel.Overload("params_dyn", []*cel.Type{dyn}, cel.ListType(cel.MapType(cel.StringType, dyn)),
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				if tv, ok := v.(*toolValue); ok {
					tv.once.Do(func() { tv.params = paramsValue(tv.def) })
					return tv.params
				}
				tool, _ := nativeMap(v)
				return paramsValue(tool)
			}))),
		cel.Function("schema_types", cel.Overload("schema_types_dyn", []*cel.Type{dyn}, cel.ListType(cel.StringType),
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				m, _ := nativeMap(v)
				if t, ok := m["type"].(string); ok {
					return schemaTypeList(t)
				}
				return types.NewStringList(Adapter, SchemaTypes(m))
			}))),
		cel.Function("typed", cel.Overload("typed_dyn", []*cel.Type{dyn}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				m, _ := nativeMap(v)
				return types.Bool(Typed(m))
			}))),
	}
}

// nativeMap returns the Go map behind a CEL map built from JSON.
func nativeMap(v ref.Val) (map[string]any, bool) {
	if m, ok := v.Value().(map[string]any); ok {
		return m, true
	}
	if v.Type() != types.MapType {
		return nil, false
	}
	n, err := Native(v)
	if err != nil {
		return nil, false
	}
	m, ok := n.(map[string]any)
	return m, ok
}

// toolValue is a tool definition as formulas see it: the map itself, plus
// the parameters params() resolved for it, computed once however many
// checks ask.
type toolValue struct {
	traits.Mapper
	def    map[string]any
	once   sync.Once
	params ref.Val
	// fields are the definition's own fields as formula values, made
	// once, when a formula first reads one (see Find).
	fieldsOnce sync.Once
	fields     []toolField
}

// toolField is a field of a definition as a formula value.
type toolField struct {
	name string
	val  ref.Val
}

// maxToolFields is how many fields a definition may have for its
// fields to be kept as formula values: a longer one is looked up in
// its map, each read adapted afresh.
const maxToolFields = 16

// Find implements traits.Mapper as the map of Go values it wraps does,
// with each field's formula value made once: TDQS's forty formulas a
// tool read its name, title and description a few dozen times, and
// each read made a new string value.
func (t *toolValue) Find(key ref.Val) (ref.Val, bool) {
	s, ok := key.(types.String)
	if !ok || len(t.def) > maxToolFields {
		return t.Mapper.Find(key)
	}
	t.fieldsOnce.Do(func() {
		t.fields = make([]toolField, 0, len(t.def))
		for k, v := range t.def {
			t.fields = append(t.fields, toolField{k, Adapter.NativeToValue(v)})
		}
	})
	for _, f := range t.fields {
		if f.name == string(s) {
			return f.val, true
		}
	}
	return nil, false
}

// Get implements traits.Indexer through Find, as cel-go's map does.
func (t *toolValue) Get(key ref.Val) ref.Val {
	v, found := t.Find(key)
	if !found {
		return types.ValOrErr(v, "no such key: %v", key)
	}
	return v
}

// Contains implements traits.Container through Find, as cel-go's map
// does.
func (t *toolValue) Contains(key ref.Val) ref.Val {
	_, found := t.Find(key)
	return types.Bool(found)
}

// ToolValue wraps a decoded tool definition for evaluation. Use one value
// for every formula evaluated on the same tool, and do not change the
// definition once wrapped.
func ToolValue(def map[string]any) ref.Val {
	return &toolValue{Mapper: types.NewStringInterfaceMap(Adapter, def), def: def}
}

// ToolDefinition returns the definition v wraps when v is a ToolValue;
// ok is false for any other value.
func ToolDefinition(v any) (def map[string]any, ok bool) {
	t, ok := v.(*toolValue)
	if !ok {
		return nil, false
	}
	return t.def, true
}

// paramKeys are the fields of a parameter as formulas see it.
var paramKeys = []string{"name", "schema", "required"}

func paramsValue(tool map[string]any) ref.Val {
	ps := Params(tool)
	out := make([]ref.Val, len(ps))
	for i, p := range ps {
		out[i] = RecordOf(paramKeys, []ref.Val{types.String(p.Name), Adapter.NativeToValue(p.Schema), types.Bool(p.Required)})
	}
	return types.NewRefValList(Adapter, out)
}
