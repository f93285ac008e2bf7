package main

import (
	"bytes"
	"testing"

	"github.com/rubricmcp/rubric/engine/scan"
)

// TestPlurals: what rubric prints counts one thing in the singular (a
// shard of one server printed "1 servers: ... · 1 tools · 1 judge calls").
func TestPlurals(t *testing.T) {
	for _, tc := range []struct {
		totals scan.Totals
		want   string
	}{
		{scan.Totals{Servers: 1, Scored: 1, Tools: 1, Calls: 1}, "merged 1 shard, whose runs made: 1 server: 1 scored, 0 failed · 1 tool · 1 judge call, 0 from the cache\n"},
		{scan.Totals{Servers: 2, Scored: 1, Failed: 1, Tools: 3, Calls: 0}, "merged 1 shard, whose runs made: 2 servers: 1 scored, 1 failed · 3 tools · 0 judge calls, 0 from the cache\n"},
	} {
		var out bytes.Buffer
		a := &app{stdout: &out}
		if err := a.scanSummary(&scan.Leaderboard{Totals: tc.totals}, 1, "out"); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := bytes.Cut(out.Bytes(), []byte("leaderboard:")); string(got) != tc.want {
			t.Errorf("scan summary %q, want %q", got, tc.want)
		}
	}
	for n, want := range map[int]string{1: "1 server differs", 2: "2 servers differ"} {
		if got := serversDiffer(n); got != want {
			t.Errorf("serversDiffer(%d) = %q, want %q", n, got, want)
		}
	}
}
