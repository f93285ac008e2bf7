package jobqueue

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/internal/cputime"
)

// BenchmarkWork measures what the queue itself costs a job: it enqueues
// JOBQUEUE_BENCH_N jobs (200 by default) and drains them with one worker
// whose handler does nothing but JOBQUEUE_BENCH_WORK SHA-256 passes over
// 64 KiB (0 by default; about 1,000 make a job of some 50 ms here), a
// stand-in for a job's own work, so the time the drain takes beyond the
// handler's is the queue's: fetching, completing, and knowing the queue
// is drained. It reports milliseconds of queue per job, and the
// process's CPU time a job: with no work all of it the queue's (River's
// goroutines and SQLite), with work the hashing's too. Run:
// go test ./internal/jobqueue -run '^$' -bench Work -benchtime 1x
func BenchmarkWork(b *testing.B) {
	n, work := 200, 0
	if s := os.Getenv("JOBQUEUE_BENCH_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("JOBQUEUE_BENCH_WORK"); s != "" {
		work, _ = strconv.Atoi(s)
	}
	jobs := make([]Job, n)
	for i := range jobs {
		jobs[i] = Job{Key: fmt.Sprintf("job-%05d", i), Payload: []byte(strconv.Itoa(i))}
	}
	for _, way := range []string{"one", "ahead"} {
		b.Run(way, func(b *testing.B) { benchWork(b, jobs, work, way == "ahead") })
	}
}

func benchWork(b *testing.B, jobs []Job, work int, ahead bool) {
	n := len(jobs)
	block := make([]byte, 64<<10)
	for range b.N {
		b.StopTimer()
		ctx := context.Background()
		q, err := Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "queue.db"))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := q.Enqueue(ctx, jobs); err != nil {
			b.Fatal(err)
		}
		ran, inHandler := 0, time.Duration(0)
		b.StartTimer()
		cpu0, cpuKnown := cputime.Process()
		start := time.Now()
		err = q.Work(ctx, Options{Workers: 1, Drain: true, Ahead: ahead}, func(ctx context.Context, j Job) error {
			ran++
			if work > 0 {
				// The job's own work, simulated by hashing: a handler
				// that takes a while, during which a worker holding a job
				// ahead has it ready. Its time is measured and taken out
				// of queue-ms/job.
				t := time.Now()
				for range work {
					sha256.Sum256(block)
				}
				inHandler += time.Since(t)
			}
			return nil
		})
		took := time.Since(start)
		cpu1, _ := cputime.Process()
		b.StopTimer()
		if err != nil || ran != n {
			b.Fatalf("Work = %v after %d of %d jobs", err, ran, n)
		}
		b.ReportMetric(float64(took-inHandler)/float64(n)/1e6, "queue-ms/job")
		if cpuKnown {
			b.ReportMetric(float64(cpu1-cpu0)/float64(n)/1e6, "cpu-ms/job")
		}
		q.Close()
		b.StartTimer()
	}
}
