package rubric

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
)

func TestThreshold(t *testing.T) {
	grades := []Grade{{Letter: "A", Min: num.MustParse("90")}, {Letter: "B", Min: num.MustParse("75")}, {Letter: "F", Min: num.MustParse("0")}}
	free := &Rubric{Name: "r", Grades: grades}
	hundred := &Rubric{Name: "r", Grades: grades, Scale: &Scale{Min: num.Int(0), Max: num.Int(100)}}
	five := &Rubric{Name: "t", Grades: []Grade{{Letter: "A", Min: num.MustParse("3.5")}, {Letter: "F", Min: num.Int(0)}}, Scale: &Scale{Min: num.Int(1), Max: num.Int(5)}}
	tests := []struct {
		r                   *Rubric
		in, min, label, err string
	}{
		{r: free, in: "", min: ""},
		{r: free, in: "b", min: "75", label: "grade B"},
		{r: free, in: "82.5", min: "165/2", label: "82.5"},
		{r: free, in: "101", min: "101", label: "101"},
		{r: free, in: "C", err: `--fail-under "C" is neither a grade of r (A, B, F) nor a number`},
		{r: hundred, in: "100", min: "100", label: "100"},
		{r: hundred, in: "0", min: "0", label: "0"},
		{r: hundred, in: "101", err: `--fail-under 101 is outside the scale of r, 0 to 100: give a score from 0 to 100, or a grade (A, B, F)`},
		{r: hundred, in: "-1", err: `--fail-under -1 is outside the scale of r, 0 to 100: give a score from 0 to 100, or a grade (A, B, F)`},
		{r: hundred, in: "C", err: `--fail-under "C" is neither a grade of r (A, B, F) nor a score from 0 to 100`},
		{r: five, in: "75", err: `--fail-under 75 is outside the scale of t, 1 to 5: give a score from 1 to 5, or a grade (A, F)`},
		{r: five, in: "0.5", err: `--fail-under 0.5 is outside the scale of t, 1 to 5: give a score from 1 to 5, or a grade (A, F)`},
		{r: five, in: "3.5", min: "7/2", label: "3.5"},
		{r: five, in: "a", min: "7/2", label: "grade A"},
		{r: five, in: "5", min: "5", label: "5"},
	}
	for _, tt := range tests {
		got, err := tt.r.Threshold(tt.in)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s %q: got %v, want %q", tt.r.Name, tt.in, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s %q: %v", tt.r.Name, tt.in, err)
		case tt.min == "":
			if got != nil {
				t.Errorf("%q: got %+v, want none", tt.in, got)
			}
		case got == nil || got.Min.Cmp(num.MustParse(tt.min)) != 0 || got.Label != tt.label:
			t.Errorf("%s %q: got %+v, want min %s label %q", tt.r.Name, tt.in, got, tt.min, tt.label)
		}
	}
}

// TestDoubt: a number in the lowest twentieth of the rubric's scale is
// doubted (3.5 under 0 to 100, which a 1 to 5 rubric's threshold would
// be); one above it, a grade, a rubric without a scale and no threshold
// are not.
func TestDoubt(t *testing.T) {
	grades := []Grade{{Letter: "A", Min: num.MustParse("90")}, {Letter: "F", Min: num.MustParse("0")}}
	hundred := &Rubric{Name: "r", Grades: grades, Scale: &Scale{Min: num.Int(0), Max: num.Int(100)}}
	five := &Rubric{Name: "t", Grades: grades, Scale: &Scale{Min: num.Int(1), Max: num.Int(5)}}
	free := &Rubric{Name: "f", Grades: grades}
	for _, tt := range []struct {
		r     *Rubric
		in    string
		doubt bool
	}{
		{hundred, "3.5", true},
		{hundred, "0", true},
		{hundred, "4.99", true},
		{hundred, "5", false},
		{hundred, "70", false},
		{hundred, "f", false},
		{five, "1.1", true},
		{five, "1.2", false},
		{five, "3.6", false},
		{free, "3.5", false},
		{hundred, "", false},
	} {
		th, err := tt.r.Threshold(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		got := tt.r.Doubt(th)
		if (got != "") != tt.doubt {
			t.Errorf("%s %q: doubt %q, want one: %v", tt.r.Name, tt.in, got, tt.doubt)
		}
	}
	want := "--fail-under 3.5 is in the lowest twentieth of the scale of r, 0 to 100, so almost every score passes it: if it was meant for a rubric of another scale, give one of this rubric's (a score from 0 to 100, or a grade)"
	th, _ := hundred.Threshold("3.5")
	if got := hundred.Doubt(th); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
