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
