package rubric

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
)

func TestThreshold(t *testing.T) {
	r := &Rubric{Name: "r", Grades: []Grade{{Letter: "A", Min: num.MustParse("90")}, {Letter: "B", Min: num.MustParse("75")}, {Letter: "F", Min: num.MustParse("0")}}}
	tests := []struct {
		in, min, label, err string
	}{
		{in: "", min: ""},
		{in: "b", min: "75", label: "grade B"},
		{in: "82.5", min: "165/2", label: "82.5"},
		{in: "C", err: `--fail-under "C" is neither a grade of r (A, B, F) nor a number`},
	}
	for _, tt := range tests {
		got, err := r.Threshold(tt.in)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: got %v, want %q", tt.in, err, tt.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tt.in, err)
		case tt.min == "":
			if got != nil {
				t.Errorf("%q: got %+v, want none", tt.in, got)
			}
		case got == nil || got.Min.Cmp(num.MustParse(tt.min)) != 0 || got.Label != tt.label:
			t.Errorf("%q: got %+v, want min %s label %q", tt.in, got, tt.min, tt.label)
		}
	}
}
