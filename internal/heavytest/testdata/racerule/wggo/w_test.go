package wggo

import "testing"

func TestBoth(t *testing.T) {
	if a, b := Both(func() int { return 1 }); a != 1 || b != 1 {
		t.Errorf("Both = %d, %d", a, b)
	}
}
