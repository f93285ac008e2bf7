package usesowncode

import (
	"testing"

	"example.com/m/owncode"
)

func TestUses(t *testing.T) { _ = owncode.Bin(t.TempDir()) }
