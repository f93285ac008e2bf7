package rubric

import (
	"strings"
	"testing"
)

// TestExpectedFractionIsExact: an expected value written as a fraction of
// two numbers (1/3, 10/2) is read exactly, where HCL would work it out in
// binary floating point and the test would want a fraction of 150 digits.
func TestExpectedFractionIsExact(t *testing.T) {
	// validRubric with one weight (its other is for the mistakes to
	// name) and a test before its closing brace.
	lines := strings.Split(validRubric, "\n")
	lines[2] = "  weights = { described = 20 }"
	src := []byte(strings.Join(lines[:13], "\n") + `
  grades = { A = 15, F = 0 }
  test "x" {
    surface = "[]"
    expect  = { score = 1/3, "tools.a.score" = 10/2 }
  }
}
`)
	r, err := Load("t.hcl", src)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range r.Tests[0].Expect {
		if !e.Number {
			t.Errorf("%s: not a number", e.Path)
		}
		got[e.Path] = e.Want
	}
	if got["score"] != "1/3" || got["tools.a.score"] != "5" {
		t.Errorf("expected %v, want score 1/3 and tools.a.score 5", got)
	}
}
