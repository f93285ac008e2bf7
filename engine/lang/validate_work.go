package lang

import (
	"net/url"
	"reflect"
	"strings"

	"github.com/rubricmcp/rubric/internal/jsonpointer"
)

// Validating a value can take time exponential in the size of its schema:
// each allOf, anyOf or oneOf applies every branch to the same value, and
// branches that $ref the same definition twice double the work at every
// level, so a 3 KB schema can keep a validator busy for ever. Before
// validating, schema_errors counts the steps the validator would take on
// this value (a step is one schema applied to one part of the value,
// every path through the applicators counted), cheaply, by counting each
// pair of a schema and a part of the value once; a schema whose count
// passes maxValidationSteps is not validated but counted as failed.

// maxValidationSteps bounds the work of one validation. Real tool schemas
// on real arguments take hundreds of steps.
const maxValidationSteps = 200_000

// maxValidationDepth bounds how deep the schema and the value may nest
// together, below any depth a validator would run out of stack at.
const maxValidationDepth = 256

// sameValue are the keywords whose subschemas apply to the value itself.
var sameValue = []string{"allOf", "anyOf", "oneOf", "not", "if", "then", "else"}

// inode is one part of the value, with its members and elements.
type inode struct {
	v     any
	keys  []string
	kids  []*inode // by keys, for an object; elements, for an array
	array bool
}

func valueTree(v any, depth int) (*inode, bool) {
	if depth > maxValidationDepth {
		return nil, false
	}
	n := &inode{v: v}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			c, ok := valueTree(e, depth+1)
			if !ok {
				return nil, false
			}
			n.keys = append(n.keys, k)
			n.kids = append(n.kids, c)
		}
	case []any:
		n.array = true
		for _, e := range x {
			c, ok := valueTree(e, depth+1)
			if !ok {
				return nil, false
			}
			n.kids = append(n.kids, c)
		}
	}
	return n, true
}

type workKey struct {
	schema uintptr
	value  *inode
}

// workCounter counts validation steps; it stops counting once over budget.
type workCounter struct {
	root    map[string]any
	ids     map[string]any // $id and $anchor names to their schemas
	memo    map[workKey]int
	pending map[workKey]bool
	total   int // memo entries made: the counter's own work
}

// validationSteps returns the steps validating value against schema takes,
// or more than maxValidationSteps when that is what it would take.
func validationSteps(schema, value any) int {
	root, _ := schema.(map[string]any)
	if root == nil {
		return 1
	}
	v, ok := valueTree(value, 0)
	if !ok {
		return maxValidationSteps + 1
	}
	w := &workCounter{root: root, ids: map[string]any{}, memo: map[workKey]int{}, pending: map[workKey]bool{}}
	if !w.index(root, 0) {
		return maxValidationSteps + 1
	}
	return w.steps(root, v, 0)
}

// index records every $id and $anchor of the schema.
func (w *workCounter) index(s any, depth int) bool {
	if depth > maxValidationDepth {
		return false
	}
	switch x := s.(type) {
	case map[string]any:
		for _, k := range []string{"$id", "id", "$anchor", "$dynamicAnchor"} {
			if name, ok := x[k].(string); ok && name != "" {
				if k == "$anchor" || k == "$dynamicAnchor" {
					name = "#" + name
				}
				w.ids[name] = x
			}
		}
		for _, e := range x {
			if !w.index(e, depth+1) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !w.index(e, depth+1) {
				return false
			}
		}
	}
	return true
}

func add(a, b int) int {
	if a+b > maxValidationSteps {
		return maxValidationSteps + 1
	}
	return a + b
}

func (w *workCounter) steps(s any, v *inode, depth int) int {
	m, ok := s.(map[string]any)
	if !ok {
		return 1 // a boolean schema, or no schema
	}
	if depth > maxValidationDepth || w.total > maxValidationSteps {
		return maxValidationSteps + 1
	}
	key := workKey{reflect.ValueOf(m).Pointer(), v}
	if n, ok := w.memo[key]; ok {
		return n
	}
	if w.pending[key] {
		return 1 // the same schema on the same value: the validator stops such a loop
	}
	w.pending[key] = true
	w.total++
	n := 1
	sub := func(s any, v *inode) { n = add(n, w.steps(s, v, depth+1)) }
	each := func(k string, v *inode) {
		switch bs := m[k].(type) {
		case []any:
			for _, b := range bs {
				sub(b, v)
			}
		case map[string]any:
			sub(bs, v)
		}
	}
	for _, k := range sameValue {
		each(k, v)
	}
	for _, k := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
		if ref, ok := m[k].(string); ok {
			if target := w.lookup(ref); target != nil {
				sub(target, v)
			}
		}
	}
	for _, k := range []string{"dependentSchemas", "dependencies"} {
		if ds, ok := m[k].(map[string]any); ok {
			for _, d := range ds {
				sub(d, v)
			}
		}
	}
	if len(v.kids) > 0 && !v.array {
		props, _ := m["properties"].(map[string]any)
		patterns, _ := m["patternProperties"].(map[string]any)
		for i, k := range v.keys {
			if p, ok := props[k]; ok {
				sub(p, v.kids[i])
			}
			for _, p := range patterns {
				sub(p, v.kids[i])
			}
			for _, kw := range []string{"additionalProperties", "unevaluatedProperties", "propertyNames"} {
				each(kw, v.kids[i])
			}
		}
	}
	if v.array {
		prefix, _ := m["prefixItems"].([]any)
		items := m["items"]
		if list, ok := items.([]any); ok { // before 2020-12, items as a list
			prefix, items = list, m["additionalItems"]
		}
		for i, e := range v.kids {
			if i < len(prefix) {
				sub(prefix[i], e)
			} else if items != nil {
				sub(items, e)
			}
			each("contains", e)
			each("unevaluatedItems", e)
		}
	}
	delete(w.pending, key)
	w.memo[key] = n
	return n
}

// lookup finds the schema a reference names inside the document: a JSON
// pointer, an anchor or an $id, each optionally after the document's own
// name. What it cannot find costs nothing more: the validator refuses to
// compile a schema whose references do not resolve.
func (w *workCounter) lookup(ref string) any {
	if t, ok := w.ids[ref]; ok {
		return t
	}
	base, frag, _ := strings.Cut(ref, "#")
	var doc any = w.root
	if base != "" {
		t, ok := w.ids[base]
		if !ok {
			if !strings.HasSuffix(base, "schema.json") {
				return nil
			}
			t = w.root
		}
		doc = t
	}
	if frag == "" {
		return doc
	}
	if !strings.HasPrefix(frag, "/") {
		return w.ids["#"+frag]
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil
	}
	v, _ := jsonpointer.Resolve(doc, frag)
	return v
}
