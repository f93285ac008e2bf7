package afterfunc

import "testing"

func TestLater(t *testing.T) {
	var v int
	Later(nil, &v, 1<<62)
	if v != 0 {
		t.Errorf("v = %d before the time", v)
	}
}
