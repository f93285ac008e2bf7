package main

import (
	"strings"
	"testing"
)

// TestLoopbackOnly: rubric mcp --http listens on this machine's loopback
// addresses; any other address, an empty host (every interface)
// included, needs --http-any-address.
func TestLoopbackOnly(t *testing.T) {
	for _, c := range []struct {
		addr    string
		anyAddr bool
		refused string // part of the error; "" when allowed
	}{
		{"127.0.0.1:8765", false, ""},
		{"127.0.0.1:0", false, ""},
		{"[::1]:8765", false, ""},
		{"localhost:8765", false, ""},
		{"0.0.0.0:8765", false, "other machines could reach it"},
		{":8765", false, "other machines could reach it"},
		{"192.0.2.7:8765", false, "--http-any-address"},
		{"0.0.0.0:8765", true, ""},
		{"8765", false, "give a host:port"},
	} {
		err := loopbackOnly(c.addr, c.anyAddr)
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s (any %v): %v, want it allowed", c.addr, c.anyAddr, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s (any %v): %v, want an error saying %q", c.addr, c.anyAddr, err, c.refused)
		}
	}
}
