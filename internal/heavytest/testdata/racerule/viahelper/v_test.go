package viahelper

import "testing"

func TestRun(t *testing.T) {}
