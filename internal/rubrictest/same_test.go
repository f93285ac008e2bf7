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
		{"true and true", rubric.Expectation{Want: "true", Bool: true}, true, true},
		{"false and true", rubric.Expectation{Want: "false", Bool: true}, true, false},
		{"true and a string", rubric.Expectation{Want: "true", Bool: true}, "true", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := same(tc.want, tc.got); got != tc.same {
				t.Errorf("same(%+v, %#v) = %v, want %v", tc.want, tc.got, got, tc.same)
			}
		})
	}
}

// TestWantText: an expected string is written in quotes, as got is, and
// an expectation of another kind than the report's value says what to
// write: want 25, got 25.0 hid that the test wrote "25".
func TestWantText(t *testing.T) {
	for _, tc := range []struct {
		name       string
		want       rubric.Expectation
		got        any
		text, hint string
	}{
		{"number", rubric.Expectation{Want: "25", Number: true}, json.Number("24.0"), "25", ""},
		{"string", rubric.Expectation{Want: "D"}, "F", `"D"`, ""},
		{"a number in quotes", rubric.Expectation{Want: "25"}, json.Number("25.0"), `"25"`, " (a number: write the expected value without quotes)"},
		{"a word without quotes", rubric.Expectation{Want: "1", Number: true}, "A", "1", " (a string: write the expected value in quotes)"},
		{"an exact string", rubric.Expectation{Want: "1", Number: true}, "1/2", "1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := wantText(tc.want); got != tc.text {
				t.Errorf("wantText = %s, want %s", got, tc.text)
			}
			if got := kindHint(tc.want, tc.got); got != tc.hint {
				t.Errorf("kindHint = %q, want %q", got, tc.hint)
			}
		})
	}
}
