package report

import (
	"encoding/json"
	"testing"
)

func TestSameNumber(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"80.0", "80", true}, {"91.5", "183/2", true}, {"91.5", "1373/15", false}, {"x", "x", false}, {"0.10", "1/10", true},
	} {
		if got := SameNumber(tt.a, tt.b); got != tt.same {
			t.Errorf("SameNumber(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

func TestUnscored(t *testing.T) {
	score := "91.5"
	n := json.Number(score)
	for _, tt := range []struct {
		r    Report
		want string
	}{
		{Report{Complete: true, Score: &n}, ""},
		{Report{Complete: false}, "scoring did not finish"},
		{Report{Complete: true, NoScore: "the surface has no tools."}, "the surface has no tools"},
		{Report{Complete: true}, "the report gives none"},
	} {
		if got := tt.r.Unscored(); got != tt.want {
			t.Errorf("Unscored() = %q, want %q", got, tt.want)
		}
	}
}

// TestReadable writes a fraction a report holds as a decimal, with the
// fraction beside it only when it is short: Gradable's HTML runs table
// showed avgTokenCostPerTask as 345160/39.
func TestReadable(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"345160/39", "8850.256410256410"},
		{"92446/13", "7111.230769230769"},
		{"32/39", "0.820512820513 (exactly 32/39)"},
		{"-1/3", "-0.333333333333 (exactly -1/3)"},
		{"16.41", "16.41"},
		{"30", "30"},
		{"create_issue", "create_issue"},
		{"1/2/3", "1/2/3"},
	} {
		if got := Readable(tt.in); got != tt.want {
			t.Errorf("Readable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
