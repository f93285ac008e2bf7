package scan_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/scan"
	"github.com/rubricmcp/rubric/internal/cputime"
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
// ways over the same scanner: a plain loop calling Do, the SQLite queue
// (River) and the in-process queue, one worker each. It runs
// RUBRIC_SCAN_BENCH_ROUNDS rounds (3 by default), each one of every way
// in turn (loop, sqlite, memory, loop, ...), so that the load of a
// shared machine falls on every way alike, and reports for each way the
// median over the rounds of its servers per second and of the process's
// CPU time a job (user and system, River's goroutines and SQLite
// included); for each queue, the medians of its CPU and wall time over
// the loop's of the same round (the queue's overhead) and of
// outside-ms/job, the wall time beyond the jobs' own a job (with one
// worker, what the queue adds to each: fetching it, recording it done,
// knowing the queue is drained). Each round is logged.
// RUBRIC_SCAN_BENCH_WAYS picks the ways ("loop,sqlite"), and
// RUBRIC_SCAN_BENCH_WORKERS gives the queues more workers (the loop
// stays one). Run:
// go test ./engine/scan -run '^$' -bench Scan -benchtime 1x
func BenchmarkScan(b *testing.B) {
	n, workers, rounds := 1000, 1, 3
	ways := []string{"loop", "sqlite", "memory"}
	for env, v := range map[string]*int{"RUBRIC_SCAN_BENCH_N": &n, "RUBRIC_SCAN_BENCH_WORKERS": &workers, "RUBRIC_SCAN_BENCH_ROUNDS": &rounds} {
		if s := os.Getenv(env); s != "" {
			i, err := strconv.Atoi(s)
			if err != nil || i < 1 {
				b.Fatalf("%s=%q: give a whole number of at least 1", env, s)
			}
			*v = i
		}
	}
	if s := os.Getenv("RUBRIC_SCAN_BENCH_WAYS"); s != "" {
		ways = strings.Split(s, ",")
	}
	if _, ok := cputime.Process(); !ok {
		b.Log("this platform does not tell the process's CPU time: cpu figures are left out")
	}
	src := benchCaptures(b, n)
	rs := builtins(b, "schema-quality", "tdqs")
	jobs, err := scan.ReadList(context.Background(), src, scan.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	scan.Key(jobs, rs)
	for range b.N {
		runs := map[string][]scanRun{}
		for r := range rounds {
			for _, way := range ways {
				run := scanOnce(b, way, workers, jobs, rs)
				runs[way] = append(runs[way], run)
				b.Logf("round %d %-6s %6.2f servers/s  wall %7.2f ms/job  cpu %7.2f ms/job  outside %6.2f ms/job",
					r+1, way, run.serversPerSecond(), ms(run.wall)/float64(run.jobs), ms(run.cpu)/float64(run.jobs), ms(run.outside())/float64(run.jobs))
			}
		}
		_, cpuKnown := cputime.Process()
		loop := runs["loop"]
		for _, way := range ways {
			b.ReportMetric(median(each(runs[way], scanRun.serversPerSecond)), way+"-servers/s")
			if cpuKnown {
				b.ReportMetric(median(each(runs[way], func(r scanRun) float64 { return ms(r.cpu) / float64(r.jobs) })), way+"-cpu-ms/job")
			}
			if way == "loop" {
				continue
			}
			b.ReportMetric(median(each(runs[way], func(r scanRun) float64 { return ms(r.outside()) / float64(r.jobs) })), way+"-outside-ms/job")
			if len(loop) == 0 {
				continue
			}
			// Against the loop of the same round: the two ran one after
			// the other, under much the same load.
			b.ReportMetric(median(overLoop(runs[way], loop, func(r scanRun) time.Duration { return r.wall })), way+"/loop-wall")
			if cpuKnown {
				b.ReportMetric(median(overLoop(runs[way], loop, func(r scanRun) time.Duration { return r.cpu })), way+"/loop-cpu")
			}
		}
	}
}

// scanRun is what one way's scan took.
type scanRun struct {
	jobs   int
	wall   time.Duration // from the first job enqueued to the queue drained
	cpu    time.Duration // the process's CPU time over the same span
	inJobs time.Duration // the wall time inside Scanner.Do, summed
}

func (r scanRun) serversPerSecond() float64 { return float64(r.jobs) / r.wall.Seconds() }

// outside is the wall time beyond the jobs' own.
func (r scanRun) outside() time.Duration { return r.wall - r.inJobs }

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// each is f of every run.
func each(runs []scanRun, f func(scanRun) float64) []float64 {
	v := make([]float64, len(runs))
	for i, r := range runs {
		v[i] = f(r)
	}
	return v
}

// overLoop is, round by round, of a queue's run over of the loop's.
func overLoop(runs, loop []scanRun, of func(scanRun) time.Duration) []float64 {
	var v []float64
	for i := range min(len(runs), len(loop)) {
		v = append(v, float64(of(runs[i]))/float64(of(loop[i])))
	}
	return v
}

// median is the middle value (the mean of the two middle ones for an
// even count).
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Sorted(slices.Values(v))
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// scanOnce scans jobs one way into a directory of its own, removed
// after, and says what it took.
func scanOnce(b *testing.B, way string, workers int, jobs []scan.Job, rs []*rubric.Rubric) scanRun {
	b.Helper()
	b.StopTimer()
	defer b.StartTimer()
	dir, err := os.MkdirTemp(b.TempDir(), way)
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s := scanner(b, &inProcess{}, dir, cache.Memory(), rs)
	s.Clock, s.Sleep = nil, nil
	var q scan.Queue
	switch way {
	case "loop":
	case "memory":
		q = &scan.Memory{}
	case "sqlite":
		jq, err := jobqueue.Open(context.Background(), "sqlite:"+filepath.Join(dir, "queue.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer jq.Close()
		q = scan.DB{Queue: jq, Drain: true}
	default:
		b.Fatalf("no way %q: RUBRIC_SCAN_BENCH_WAYS takes loop, sqlite and memory", way)
	}
	// Each job's own time, so that what the queue adds is the wall time
	// beyond the jobs' (the loop's is its bookkeeping).
	var inJobs atomic.Int64
	do := func(ctx context.Context, j scan.Job) error {
		t := time.Now()
		err := s.Do(ctx, j)
		inJobs.Add(int64(time.Since(t)))
		return err
	}
	// The garbage of the way before is collected before this one starts.
	runtime.GC()
	b.StartTimer()
	cpu0, _ := cputime.Process()
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
		if err := q.Work(context.Background(), workers, 0, do); err != nil {
			b.Fatal(err)
		}
	}
	run := scanRun{jobs: len(jobs), wall: time.Since(start), inJobs: time.Duration(inJobs.Load())}
	cpu1, _ := cputime.Process()
	run.cpu = cpu1 - cpu0
	b.StopTimer()
	done, _ := filepath.Glob(filepath.Join(dir, "jobs", "*.json"))
	if len(done) != len(jobs) {
		b.Fatalf("%s: %d of %d jobs done", way, len(done), len(jobs))
	}
	return run
}
