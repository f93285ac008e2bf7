package scan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWorkerLeaderboardSaysItsPart: a worker's directory (no list, its
// settings recorded) has a leaderboard that says it is one worker's
// part of a queue's scan, in JSON and Markdown; the merge of workers'
// directories, a scan's own directory and one an older rubric wrote
// (no settings) do not say so.
func TestWorkerLeaderboardSaysItsPart(t *testing.T) {
	settings := []Setting{{Flag: "judge", Value: "heuristic"}}
	for _, tt := range []struct {
		name  string
		meta  Meta
		merge bool
		want  bool
	}{
		{"a worker's own", Meta{Version: MetaVersion, Settings: settings}, false, true},
		{"the merge of a worker's", Meta{Version: MetaVersion, Settings: settings}, true, false},
		{"a whole scan", Meta{Version: MetaVersion, Settings: settings, List: &ListRecord{Digest: "sha256:x", Servers: 0, Shards: 1, Holds: []int{1}}}, false, false},
		{"an older rubric's", Meta{Version: MetaVersion}, false, false},
	} {
		dir := t.TempDir()
		if err := writeMeta(dir, &tt.meta); err != nil {
			t.Fatal(err)
		}
		out := dir
		var lb *Leaderboard
		var err error
		if tt.merge {
			out = t.TempDir()
			lb, err = Merge([]string{dir}, out, "test", MergeOptions{})
		} else {
			lb, err = Build(dir, "test")
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		md, err := os.ReadFile(filepath.Join(out, "leaderboard.md"))
		if err != nil {
			t.Fatal(err)
		}
		js, err := os.ReadFile(filepath.Join(out, "leaderboard.json"))
		if err != nil {
			t.Fatal(err)
		}
		if lb.Worker != tt.want || strings.Contains(string(md), WorkerSentence) != tt.want || strings.Contains(string(js), `"worker": true`) != tt.want {
			t.Errorf("%s: Worker %v, sentence in leaderboard.md %v, in leaderboard.json %v; want %v", tt.name, lb.Worker, strings.Contains(string(md), WorkerSentence), strings.Contains(string(js), `"worker": true`), tt.want)
		}
	}
}

// TestProgressOfAWorker: a worker knows no total (it reads no list), so
// its line counts the servers it did, with neither "N/0" nor a time
// left; a scan's line has its total.
func TestProgressOfAWorker(t *testing.T) {
	for _, tt := range []struct {
		p    Progress
		want string
	}{
		{Progress{Done: 6, Failed: 1, InFlight: 1}, "scan worker: 7 servers done · 1 failed · 1 in flight"},
		{Progress{Done: 1}, "scan worker: 1 server done · 0 failed · 0 in flight"},
		{Progress{Total: 7, Done: 3, InFlight: 2, ETA: 4 * time.Second}, "scan: 3/7 servers · 0 failed · 2 in flight · ETA 4s"},
	} {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.p, got, tt.want)
		}
	}
}
