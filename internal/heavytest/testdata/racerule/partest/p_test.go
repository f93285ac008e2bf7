package partest

import "testing"

func TestP(t *testing.T) { t.Parallel() }
