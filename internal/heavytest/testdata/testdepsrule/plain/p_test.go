package plain

import "testing"

func TestPlain(t *testing.T) {
	if Plain() != 1 {
		t.Fatal("servers")
	}
}
