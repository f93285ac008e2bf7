package lang

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// TestReplaceLeaves: the leaves of the type asked for are replaced, in
// lists and maps at any depth and at the top, the lists and maps in
// place; other leaves are left as they are; f's first error ends it.
func TestReplaceLeaves(t *testing.T) {
	double := func(n json.Number) (any, error) {
		if n == "0" {
			return nil, errors.New("zero")
		}
		return string(n) + string(n), nil
	}
	for _, tt := range []struct {
		name    string
		in      any
		want    any
		wantErr bool
	}{
		{"a leaf of the type", json.Number("7"), "77", false},
		{"a leaf of another type", "7", "7", false},
		{"nil", nil, nil, false},
		{"a list", []any{json.Number("1"), "1", true}, []any{"11", "1", true}, false},
		{"a map", map[string]any{"a": json.Number("2"), "b": "2"}, map[string]any{"a": "22", "b": "2"}, false},
		{"nested", map[string]any{"l": []any{map[string]any{"n": json.Number("3")}, []any{json.Number("4")}}},
			map[string]any{"l": []any{map[string]any{"n": "33"}, []any{"44"}}}, false},
		{"an error deep down", []any{map[string]any{"n": json.Number("0")}}, nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReplaceLeaves(tt.in, double)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want one: %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v, want %#v", got, tt.want)
			}
			// Lists and maps are changed in place: the value passed in
			// is the value returned.
			switch tt.in.(type) {
			case []any, map[string]any:
				if !reflect.DeepEqual(tt.in, tt.want) {
					t.Fatalf("in place: %#v, want %#v", tt.in, tt.want)
				}
			}
		})
	}
}
