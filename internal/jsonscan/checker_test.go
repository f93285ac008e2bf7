package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCheckerSkip: Skip steps over exactly the value at the cursor and
// takes it when Decode does; with Floats set it also refuses a number
// that encoding/json cannot decode into an any, and takes every other.
func TestCheckerSkip(t *testing.T) {
	long := "1" + strings.Repeat("0", 299)
	for _, tc := range []struct {
		doc            string
		floats, wantOK bool
	}{
		{`{"a": [1, -2.5e3, "x\n", {"b": null}], "c": true}`, false, true},
		{`{"a": [1, -2.5e3, "x\n", {"b": null}], "c": true}`, true, true},
		{`[1e400]`, false, true},
		{`[1e400]`, true, false},
		{`{"a": -1e309}`, true, false},
		{`{"a": 1e308, "b": 1e-400, "c": 0.5E+3, "d": "1e999"}`, true, true},
		{`[` + long + `]`, true, true},            // 1e299, parsed: 300 bytes
		{`[` + long + `0]`, true, true},           // 1e300
		{`[1` + long + `000000000]`, true, false}, // 1e309
		{`["\ud83d\ude00"]`, false, false},
		{`{"a": tru}`, false, false},
		{`[1, 2`, false, false},
	} {
		c := Checker{Cursor: Cursor{B: []byte(tc.doc)}, Floats: tc.floats}
		ok := c.Skip(0)
		if ok != tc.wantOK {
			t.Errorf("Skip(%.40q) with Floats %v = %v, want %v", tc.doc, tc.floats, ok, tc.wantOK)
		}
		if ok && c.I != len(tc.doc) {
			t.Errorf("Skip(%.40q) stopped at %d of %d", tc.doc, c.I, len(tc.doc))
		}
		if !tc.floats {
			continue
		}
		// With Floats, what Skip takes encoding/json decodes.
		var v any
		if err := json.Unmarshal([]byte(tc.doc), &v); ok && err != nil {
			t.Errorf("Skip(%.40q) took what encoding/json refuses: %v", tc.doc, err)
		}
	}
}
