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

// TestTooLarge: objects are counted wherever they stand (members, list
// items, lists of lists); lists and scalars are not objects; the bound
// itself is allowed.
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
	}
	for _, tt := range tests {
		if got := TooLarge(tt.doc); got != tt.want {
			t.Errorf("%s: TooLarge %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestTooLargeDeep: a schema nested a million levels is counted without
// recursion, and stops at the bound.
func TestTooLargeDeep(t *testing.T) {
	var doc any = map[string]any{}
	for range 1_000_000 {
		doc = map[string]any{"items": doc}
	}
	if !TooLarge(doc) {
		t.Error("a million nested objects: not too large")
	}
}
