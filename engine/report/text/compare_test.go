package text

import "testing"

func TestDelta(t *testing.T) {
	tests := []struct {
		old, cur string
		digits   int
		want     string
	}{
		{"70", "70", 1, "0"},
		{"70", "85/2", 1, "-27.5"},
		{"3", "7/2", 1, "+0.5"},
		{"1/3", "2/3", 2, "+0.33"},
		{"1/3", "1/3", 0, "0"},
		{"", "3", 1, "n/a"},
		{"3", "x", 1, "n/a"},
	}
	for _, tt := range tests {
		if got := delta(tt.old, tt.cur, tt.digits); got != tt.want {
			t.Errorf("delta(%s, %s, %d) = %q, want %q", tt.old, tt.cur, tt.digits, got, tt.want)
		}
	}
}
