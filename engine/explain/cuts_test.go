package explain

import (
	"strings"
	"testing"

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
