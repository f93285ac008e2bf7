package explain

import (
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/report"
)

// TestWholeErrorsAndSubjects: a check's error and an answer's subject
// are written whole, on one line, up to maxValue characters, then cut
// saying how many were left out; they were cut at 80 and 60 characters,
// and a rubric's author read half of the error to mend.
func TestWholeErrorsAndSubjects(t *testing.T) {
	long := "no such key: " + strings.Repeat("k", 150)
	huge := strings.Repeat("e", maxValue+300)
	for _, c := range []struct {
		name, got, want string
	}{
		{"a short error", checkNote(report.Check{Error: "division by zero"}), "error: division by zero"},
		{"an error past 80 characters", checkNote(report.Check{Error: long}), "error: " + long},
		{"an error on lines", checkNote(report.Check{Error: "no such key:\n  tools"}), "error: no such key: tools"},
		{"an error past the bound", checkNote(report.Check{Error: huge}), "error: " + huge[:maxValue-len("error: ")] + "… (307 more characters left out)"},
		{"a subject past 60 characters", subjectText(long), long},
		{"a subject past the bound", subjectText(huge), huge[:maxValue] + "… (300 more characters left out)"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}

// TestWholeValueNotANumber: a check's points or credit, or a score's
// exact value, that is not a number is written whole, quoted, up to
// maxValue characters, then cut saying how many were left out; it was
// cut at 40, and the author of a formula that gave a string where a
// number was expected could not read the string.
func TestWholeValueNotANumber(t *testing.T) {
	long := "the parameter " + strings.Repeat("p", 60) + " has no description"
	huge := strings.Repeat("s", maxValue+25)
	for _, c := range []struct {
		name, in, want string
	}{
		{"a number", "7/2", "3.5"},
		{"a short string", "seven", `"seven" (not a number)`},
		{"a string past 40 characters", long, `"` + long + `" (not a number)`},
		{"a string on lines", "one\ntwo", `"one\ntwo" (not a number)`},
		{"a string past the bound", huge, `"` + huge[:maxValue] + `… (25 more characters left out)" (not a number)`},
	} {
		if got := exactText(c.in); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestItemLabels: an item of a comprehension is named by its value. A
// string is written whole up to maxValue characters, since the label is
// what tells two items apart (cut at 40, two keys that differ past it
// read as one); a list or map is written short, as an operand is, and
// keeps its closing bracket (a further cut at 40 lost it).
func TestItemLabels(t *testing.T) {
	long := "the key " + strings.Repeat("k", 50) + " ends here"
	huge := strings.Repeat("w", maxValue+9)
	list := types.DefaultTypeAdapter.NativeToValue([]string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"})
	tool := types.DefaultTypeAdapter.NativeToValue(map[string]any{"name": "query " + strings.Repeat("q", 50)})
	for _, c := range []struct {
		name          string
		v             ref.Val
		label, header string
	}{
		{"a short string", types.String("city"), "city", "k"},
		{"a string with a quote", types.String("it's"), `it\'s`, "k"},
		{"a string past 40 characters", types.String(long), long, "k"},
		{"a string on lines", types.String("one\n two"), "one two", "k"},
		{"a string past the bound", types.String(huge), huge[:maxValue] + "… (9 more characters left out)", "k"},
		{"a number", types.Int(7), "7", "k"},
		{"a long list", list, short(list), "k"},
		{"a record with a name", tool, "query " + strings.Repeat("q", 50), "k.name"},
	} {
		label, header := itemLabel([]lang.Binding{{Name: "k", Value: c.v}})
		if label != c.label || header != c.header {
			t.Errorf("%s: got %q, %q, want %q, %q", c.name, label, header, c.label, c.header)
		}
	}
	if s := short(list); !strings.HasSuffix(s, "items in all]") {
		t.Errorf("a long list written short is %q, want it to end in its count and bracket", s)
	}
}
