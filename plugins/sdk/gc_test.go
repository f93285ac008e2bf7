package sdk

import (
	"testing"

	"github.com/rubricmcp/rubric/plugins/protocol"
)

// TestGCPercent: a built-in that asks for a collector target gets it
// unless GOGC sets one; one that asks for none keeps the default.
func TestGCPercent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pct    int
		gogc   string
		want   int
		wantOK bool
	}{
		{"asked, GOGC unset", 400, "", 400, true},
		{"asked, GOGC set", 400, "150", 0, false},
		{"asked, GOGC off", 400, "off", 0, false},
		{"not asked", 0, "", 0, false},
		{"not asked, GOGC set", 0, "200", 0, false},
	} {
		got, ok := gcPercent(protocol.Builtin{Name: "b", GCPercent: tc.pct}, tc.gogc)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: got %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.wantOK)
		}
	}
}

// TestMaxProcs: a built-in that asks for a number of processors gets it
// unless GOMAXPROCS sets one; one that asks for none keeps the runtime's.
func TestMaxProcs(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n          int
		gomaxprocs string
		want       int
		wantOK     bool
	}{
		{"asked, GOMAXPROCS unset", 1, "", 1, true},
		{"asked, GOMAXPROCS set", 1, "2", 0, false},
		{"not asked", 0, "", 0, false},
		{"not asked, GOMAXPROCS set", 0, "4", 0, false},
	} {
		got, ok := maxProcs(protocol.Builtin{Name: "b", MaxProcs: tc.n}, tc.gomaxprocs)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("%s: got %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.wantOK)
		}
	}
}
