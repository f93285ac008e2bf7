package report

import "testing"

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
