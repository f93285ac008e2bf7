package cache

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/cputime"
)

// BenchmarkPut writes 1,000 answers the size of a TDQS tool's (about
// 1.5 kB each) into a fresh cache on disk, as a run with a cold cache
// does after each answer. Besides wall time it reports the process's
// CPU seconds, system time included, an operation: most of a put is the
// file system's.
//
//	go test ./engine/cache -run '^$' -bench Put -benchmem
func BenchmarkPut(b *testing.B) {
	answer := json.RawMessage(`{"summary":"` + strings.Repeat("x", 1400) + `"}`)
	id := judge.Identity{Plugin: "heuristic", Version: "1"}
	start, ok := cputime.Process()
	for b.Loop() {
		b.StopTimer()
		s, err := Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for i := range 1000 {
			k := Key(id, "r", "q", fmt.Sprint(i))
			if err := s.Put(Entry{Key: k, Kind: "tdqs.tool", Subject: "t", Answer: answer, Model: "m"}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if end, _ := cputime.Process(); ok {
		b.ReportMetric((end-start).Seconds()/float64(b.N), "cpu-s/op")
	}
}
