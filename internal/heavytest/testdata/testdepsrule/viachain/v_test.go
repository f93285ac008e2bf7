package viachain

import (
	"testing"

	"example.com/m/chain"
)

func TestValidate(t *testing.T) { _ = chain.Path }
