package owncode

import "testing"

func TestBin(t *testing.T) {
	if Bin("d") == "" {
		t.Fatal("empty")
	}
}
