package scan_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/scan"
	"github.com/rubricmcp/rubric/internal/jobqueue"
)

// benchCaptures writes n captures made from the corpus's, each server
// and each tool description marked with its number, so that every
// capture is a job of its own and every question a question of its own.
func benchCaptures(b *testing.B, n int) string {
	b.Helper()
	files, err := filepath.Glob(filepath.Join(corpus, "*.tools.json"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no captures in %s: %v", corpus, err)
	}
	dir := b.TempDir()
	for i := range n {
		data, err := os.ReadFile(files[i%len(files)])
		if err != nil {
			b.Fatal(err)
		}
		var c map[string]any
		if err := json.Unmarshal(data, &c); err != nil {
			b.Fatal(err)
		}
		tools, _ := c["tools"].([]any)
		for _, t := range tools {
			if m, ok := t.(map[string]any); ok {
				d, _ := m["description"].(string)
				m["description"] = d + " (copy " + strconv.Itoa(i) + ")"
			}
		}
		out, err := json.Marshal(c)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%05d.tools.json", i)), out, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkScan scans RUBRIC_SCAN_BENCH_N captures (1,000 by default)
// with Schema Quality and TDQS (the heuristic judge, in process) three
// ways over the same scanner: a plain loop calling Do, the in-process
// queue and the SQLite queue (River), one worker each; it reports
// servers per second. The queues' overhead is their time against the
// loop's, and, less open to a busy machine's noise, outside-ms/job: the
// wall time beyond the jobs' own (with one worker, what the queue adds
// to each job: fetching it, recording it done, knowing the queue is
// drained). RUBRIC_SCAN_BENCH_WORKERS gives the queues more workers (the
// loop stays one). Run: go test ./engine/scan -run '^$' -bench Scan -benchtime 1x
func BenchmarkScan(b *testing.B) {
	n, workers := 1000, 1
	if s := os.Getenv("RUBRIC_SCAN_BENCH_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("RUBRIC_SCAN_BENCH_WORKERS"); s != "" {
		workers, _ = strconv.Atoi(s)
	}
	src := benchCaptures(b, n)
	rs := builtins(b, "schema-quality", "tdqs")
	jobs, err := scan.ReadList(context.Background(), src, scan.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	scan.Key(jobs, rs)
	for _, way := range []string{"loop", "memory", "sqlite"} {
		b.Run(way, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				dir := b.TempDir()
				s := scanner(b, &inProcess{}, dir, cache.Memory(), rs)
				s.Clock, s.Sleep = nil, nil
				var q scan.Queue
				switch way {
				case "memory":
					q = &scan.Memory{}
				case "sqlite":
					jq, err := jobqueue.Open(context.Background(), "sqlite:"+filepath.Join(dir, "queue.db"))
					if err != nil {
						b.Fatal(err)
					}
					defer jq.Close()
					q = scan.DB{Queue: jq, Drain: true}
				}
				// Each job's own time, so that what the queue adds is the
				// wall time beyond the jobs' (the loop's is its bookkeeping).
				var inJobs atomic.Int64
				do := func(ctx context.Context, j scan.Job) error {
					t := time.Now()
					err := s.Do(ctx, j)
					inJobs.Add(int64(time.Since(t)))
					return err
				}
				b.StartTimer()
				start := time.Now()
				if err := s.WriteMeta(); err != nil {
					b.Fatal(err)
				}
				if q == nil {
					for _, j := range jobs {
						if err := do(context.Background(), j); err != nil {
							b.Fatal(err)
						}
					}
				} else {
					if err := q.Add(context.Background(), s.Pending(jobs)); err != nil {
						b.Fatal(err)
					}
					if err := q.Work(context.Background(), workers, do); err != nil {
						b.Fatal(err)
					}
				}
				took := time.Since(start)
				b.ReportMetric(float64(took-time.Duration(inJobs.Load()))/float64(len(jobs))/1e6, "outside-ms/job")
				b.ReportMetric(float64(len(jobs))/took.Seconds(), "servers/s")
				b.StopTimer()
				done, _ := filepath.Glob(filepath.Join(dir, "jobs", "*.json"))
				if len(done) != len(jobs) {
					b.Fatalf("%d of %d jobs done", len(done), len(jobs))
				}
				b.StartTimer()
			}
		})
	}
}
