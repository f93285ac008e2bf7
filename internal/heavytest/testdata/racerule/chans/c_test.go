package chans

import "testing"

func TestMake(t *testing.T) { _ = Make() }
