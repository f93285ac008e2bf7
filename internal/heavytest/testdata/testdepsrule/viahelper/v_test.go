package viahelper

import (
	"testing"

	"example.com/m/helper"
)

func TestValidate(t *testing.T) { _ = helper.Validator }
