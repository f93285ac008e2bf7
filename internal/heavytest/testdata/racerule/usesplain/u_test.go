package usesplain

import "testing"

func TestFour(t *testing.T) { _ = Four() }
