package viatestdep

import (
	"testing"

	"example.com/m/helper"
)

func TestV(t *testing.T) { helper.Background(func() {}) }
