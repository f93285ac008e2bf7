package rubrictest

import (
	"encoding/json"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
)

// TestSame: an expected number meets a report's number, and its exact
// values written as strings ("1/2"), by value; an expected string meets
// only the same string.
func TestSame(t *testing.T) {
	num := func(s string) rubric.Expectation { return rubric.Expectation{Want: s, Number: true} }
	str := func(s string) rubric.Expectation { return rubric.Expectation{Want: s} }
	for _, tc := range []struct {
		name string
		want rubric.Expectation
		got  any
		same bool
	}{
		{"number and number", num("25"), json.Number("25.0"), true},
		{"number and another", num("25"), json.Number("25.1"), false},
		{"number and an exact fraction", num("0.5"), "1/2", true},
		{"number and an exact whole", num("20"), "20", true},
		{"number and another fraction", num("0.5"), "1/3", false},
		{"number and a word", num("1"), "A", false},
		{"number and null", num("0"), nil, false},
		{"string and string", str("D"), "D", true},
		{"string and a number", str("25"), json.Number("25"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := same(tc.want, tc.got); got != tc.same {
				t.Errorf("same(%+v, %#v) = %v, want %v", tc.want, tc.got, got, tc.same)
			}
		})
	}
}
