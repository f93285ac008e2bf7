package schemasize

import (
	"fmt"
	"testing"
)

// nested is a schema of n objects: an object whose properties are n-2
// objects of one member each.
func nested(n int) map[string]any {
	props := map[string]any{}
	for i := range n - 2 {
		props[fmt.Sprint("p", i)] = map[string]any{"type": "string"}
	}
	return map[string]any{"type": "object", "properties": props}
}

// TestTooLarge: objects and booleans are counted wherever they stand
// (members, list items, lists of lists, values); lists and other
// scalars are not; the bound itself is allowed.
func TestTooLarge(t *testing.T) {
	many := make([]any, MaxObjects+1)
	for i := range many {
		many[i] = []any{map[string]any{}}
	}
	tests := []struct {
		name string
		doc  any
		want bool
	}{
		{"nil", nil, false},
		{"a scalar", "string", false},
		{"an empty object", map[string]any{}, false},
		{"at the bound", nested(MaxObjects), false},
		{"one past it", nested(MaxObjects + 1), true},
		{"objects in lists of lists", map[string]any{"anyOf": many}, true},
		{"at the bound in lists", map[string]any{"anyOf": many[:MaxObjects-1]}, false},
		{"lists are not objects", []any{make([]any, 2*MaxObjects), []any{[]any{}}}, false},
		// true and false are schemas, which compile as objects do (found
		// by the review of h59rev: 20,000 properties of true compiled as
		// slowly as 20,000 of {}).
		{"properties of true", map[string]any{"type": "object", "properties": trues(MaxObjects)}, true},
		{"items of false in a list", map[string]any{"prefixItems": falses(MaxObjects)}, true},
		{"booleans at the bound", map[string]any{"prefixItems": falses(MaxObjects - 1)}, false},
		// A value's objects count too: a $ref into an enum makes its
		// value a subschema.
		{"an enum of objects", map[string]any{"enum": objects(MaxObjects)}, true},
	}
	for _, tt := range tests {
		if got := TooLarge(tt.doc); got != tt.want {
			t.Errorf("%s: TooLarge %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestTooLargeDeep: a schema nested deeper than the bound is too large,
// and one nested to the bound is not: depth counts as width does.
func TestTooLargeDeep(t *testing.T) {
	nest := func(levels int) any {
		var doc any = map[string]any{}
		for range levels - 1 {
			doc = map[string]any{"items": doc}
		}
		return doc
	}
	if !TooLarge(nest(MaxObjects + 1)) {
		t.Errorf("%d nested objects: not too large", MaxObjects+1)
	}
	if TooLarge(nest(MaxObjects)) {
		t.Errorf("%d nested objects: too large", MaxObjects)
	}
}

// trues is a properties map of n schemas true.
func trues(n int) map[string]any {
	m := map[string]any{}
	for i := range n {
		m[fmt.Sprint("p", i)] = true
	}
	return m
}

// falses is a list of n schemas false.
func falses(n int) []any {
	l := make([]any, n)
	for i := range l {
		l[i] = false
	}
	return l
}

// objects is a list of n objects.
func objects(n int) []any {
	l := make([]any, n)
	for i := range l {
		l[i] = map[string]any{"id": i}
	}
	return l
}
