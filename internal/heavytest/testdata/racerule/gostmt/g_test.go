package gostmt

import "testing"

func TestSpawn(t *testing.T) {}
