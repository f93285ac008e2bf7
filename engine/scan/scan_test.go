package scan_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/scan"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/jobqueue"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/plugins/host"
	"github.com/rubricmcp/rubric/plugins/transports/file"
	"github.com/rubricmcp/rubric/rubrics"
)

// corpus holds real servers' captures.
const corpus = "../score/testdata/corpus"

// inProcess starts the heuristic judge, counting the questions it is
// asked, and the file transport, in this process; "flaky" is a
// transport whose first fails exports fail.
type inProcess struct {
	asked  atomic.Int64
	fails  atomic.Int64
	panics atomic.Int64 // calls of the "panicking" transport
	tries  sync.Map     // exports of the "erring" transport, by location
	files  sync.Map     // exports of the file transport, by location
	// script, when set, is each export of the "scripted" transport,
	// given the try's number (1 for the first).
	script   func(ctx context.Context, try int) (*surface.Surface, error)
	scripted atomic.Int64
	// answer, when set, answers every question in the judge's place.
	answer func(ctx context.Context, q judge.Question) (judge.Answer, error)
}

// scripted is a transport whose every export is its test's script.
type scripted struct {
	fileTransport
	p *inProcess
}

func (s scripted) Export(ctx context.Context, _ transport.Target) (*surface.Surface, error) {
	return s.p.script(ctx, int(s.p.scripted.Add(1)))
}

type countingJudge struct {
	judge.Judge
	asked  *atomic.Int64
	id     judge.Identity
	answer func(ctx context.Context, q judge.Question) (judge.Answer, error)
}

func (c countingJudge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	c.asked.Add(1)
	if c.answer != nil {
		return c.answer(ctx, q)
	}
	return c.Judge.Ask(ctx, q)
}
func (c countingJudge) Name() string             { return "heuristic" }
func (c countingJudge) Identity() judge.Identity { return c.id }
func (c countingJudge) SHA256() string           { return "" }
func (c countingJudge) Close()                   {}

type fileTransport struct{ file.Transport }

func (fileTransport) Close() {}

// countingFiles is the file transport, counting the exports of each
// location.
type countingFiles struct {
	fileTransport
	tries *sync.Map
}

func (c countingFiles) Export(ctx context.Context, t transport.Target) (*surface.Surface, error) {
	n, _ := c.tries.LoadOrStore(t.Location, new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
	return c.fileTransport.Export(ctx, t)
}

// tries is how often m counted location.
func tries(m *sync.Map, location string) int64 {
	n, ok := m.Load(location)
	if !ok {
		return 0
	}
	return n.(*atomic.Int64).Load()
}

type flaky struct {
	fileTransport
	fails *atomic.Int64
}

func (f flaky) Export(ctx context.Context, t transport.Target) (*surface.Surface, error) {
	if f.fails.Add(-1) >= 0 {
		return nil, errors.New("the server exited before it answered initialize")
	}
	return f.fileTransport.Export(ctx, t)
}

// panicking is a transport that panics, counting its calls: a bug in
// rubric, not a failure of the server.
type panicking struct {
	fileTransport
	calls *atomic.Int64
}

func (p panicking) Export(context.Context, transport.Target) (*surface.Surface, error) {
	p.calls.Add(1)
	panic("index out of range [3] with length 3")
}

// erring is a transport that fails each export with the error its
// target's location names, counting the exports of each location.
type erring struct {
	fileTransport
	tries *sync.Map // location → *atomic.Int64
}

// erringErrors are the failures erring gives, by location.
var erringErrors = map[string]error{
	"unparsable": &surface.Error{File: "tools.json", Line: 1, Col: 2, Msg: "invalid JSON"},
	"flooding":   transport.Permanent(errors.New("server wrote something other than JSON-RPC on stdout: \"[debug] ...\" and 100 more lines")),
	"lying":      fmt.Errorf("tools/list page 2: %w", transport.Permanent(errors.New("server repeated the tools/list cursor \"c1\"; following it would list the same page again"))),
	"rubric":     &rubric.Error{Diagnostics: []rubric.Diagnostic{{File: "mine.hcl", Line: 3, Col: 1, Msg: "unknown check"}}},
	"exited":     errors.New("server exited with status 1 before answering initialize"),
	"timeout":    errors.New("no answer to initialize within 1s"),
}

func (e erring) Export(_ context.Context, t transport.Target) (*surface.Surface, error) {
	n, _ := e.tries.LoadOrStore(t.Location, new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
	return nil, erringErrors[t.Location]
}

// hang is a server that never answers.
type hang struct{ fileTransport }

func (hang) Export(ctx context.Context, _ transport.Target) (*surface.Surface, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func (p *inProcess) Judge(ctx context.Context, ref string, cfg judge.Config) (run.Judge, error) {
	j := heuristic.New()
	id, err := j.Configure(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return countingJudge{Judge: j, asked: &p.asked, id: id, answer: p.answer}, nil
}

func (p *inProcess) Transport(_ context.Context, name string) (run.Transport, error) {
	switch name {
	case "file":
		return countingFiles{tries: &p.files}, nil
	case "flaky":
		return flaky{fails: &p.fails}, nil
	case "hang":
		return hang{}, nil
	case "panicking":
		return panicking{calls: &p.panics}, nil
	case "erring":
		return erring{tries: &p.tries}, nil
	case "scripted":
		return scripted{p: p}, nil
	}
	return nil, fmt.Errorf("no transport plugin %q", name)
}

func builtins(t testing.TB, names ...string) []*rubric.Rubric {
	t.Helper()
	var out []*rubric.Rubric
	for _, n := range names {
		r, err := rubrics.Find(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// scanner is a scanner of dir with the in-process plugins, an answer
// cache shared by its sessions, no wait between tries and a clock that
// moves a second each time it is read.
func scanner(t testing.TB, p *inProcess, dir string, store *cache.Store, rs []*rubric.Rubric) *scan.Scanner {
	var tick atomic.Int64
	s := &scan.Scanner{
		Out: dir, Rubrics: rs,
		NewSession: func() *run.Session { return run.New(run.Options{Plugins: p, Cache: store, Version: "test"}) },
		Attempts:   3, Backoff: time.Second,
		Sleep: func(context.Context, time.Duration) error { return nil },
		Clock: func() time.Time { return time.Unix(tick.Add(1), 0) },
	}
	t.Cleanup(s.Close)
	return s
}

func captures(t testing.TB, rs []*rubric.Rubric) []scan.Job {
	t.Helper()
	jobs, err := scan.ReadList(context.Background(), corpus, scan.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	scan.Key(jobs, rs)
	return jobs
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

// TestScanResumes: a scan stopped after some jobs, run again, does only
// the rest, and the judge is asked no question twice; the leaderboard
// equals that of a scan run at once.
func TestScanResumes(t *testing.T) {
	rs := builtins(t, "schema-quality", "tdqs")
	jobs := captures(t, rs)
	if len(jobs) < 10 {
		t.Fatalf("%d captures in %s", len(jobs), corpus)
	}
	// At once.
	once := &inProcess{}
	whole := t.TempDir()
	if err := scanner(t, once, whole, cache.Memory(), rs).Run(context.Background(), &scan.Memory{}, jobs, 3); err != nil {
		t.Fatal(err)
	}
	// Stopped as the fifth job starts, then resumed with the same cache.
	p := &inProcess{}
	dir := t.TempDir()
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	s := scanner(t, p, dir, store, rs)
	var started atomic.Int64
	s.Started = func(scan.Job) {
		if started.Add(1) == 5 {
			stop()
		}
	}
	if err := s.Run(ctx, &scan.Memory{}, jobs, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped scan: %v, want context.Canceled", err)
	}
	done, _ := filepath.Glob(filepath.Join(dir, "jobs", "*.json"))
	if len(done) == 0 || len(done) >= len(jobs) {
		t.Fatalf("%d of %d jobs done when the scan was stopped", len(done), len(jobs))
	}
	again := scanner(t, p, dir, store, rs)
	var redone []string
	again.Started = func(j scan.Job) { redone = append(redone, j.Name) }
	askedBefore := p.asked.Load()
	if err := again.Run(context.Background(), &scan.Memory{}, jobs, 1); err != nil {
		t.Fatal(err)
	}
	if len(redone) != len(jobs)-len(done) {
		t.Errorf("the resumed scan did %d jobs, want the %d left", len(redone), len(jobs)-len(done))
	}
	// What the resumed run did is its own, not the scan's totals.
	ran := again.Ran()
	if ran.Kept != len(done) || ran.Scored+ran.Failed != len(redone) || ran.Servers != len(jobs) || int64(ran.Calls) != p.asked.Load()-askedBefore {
		t.Errorf("the resumed run: %+v; want %d kept, %d done, %d servers, %d calls", ran, len(done), len(redone), len(jobs), p.asked.Load()-askedBefore)
	}
	// Run once more: everything is kept, nothing is asked.
	third := scanner(t, p, dir, store, rs)
	if err := third.Run(context.Background(), &scan.Memory{}, jobs, 1); err != nil {
		t.Fatal(err)
	}
	if ran := third.Ran(); ran.Kept != len(jobs) || ran.Servers != len(jobs) || ran.Scored+ran.Failed+ran.Tools+ran.Calls+ran.CacheHits != 0 {
		t.Errorf("a run of a finished scan: %+v; want %d kept and nothing else", ran, len(jobs))
	}
	if got, want := p.asked.Load(), once.asked.Load(); got != want {
		t.Errorf("stopped and resumed, the judge was asked %d questions; at once, %d", got, want)
	}
	a, b := board(t, whole), board(t, dir)
	if !bytes.Equal(a, b) {
		t.Errorf("resumed leaderboard differs from the one of a scan at once:\n%s\n----\n%s", b, a)
	}
}

// board builds dir's leaderboard and returns it without its time
// fields.
func board(t *testing.T, dir string) []byte {
	t.Helper()
	if _, err := scan.Build(dir, "test"); err != nil {
		t.Fatal(err)
	}
	var lb map[string]any
	readJSON(t, filepath.Join(dir, "leaderboard.json"), &lb)
	for _, f := range scan.TimeFields {
		parent, key, _ := strings.Cut(f, ".")
		delete(lb[parent].(map[string]any), key)
	}
	out, err := json.MarshalIndent(lb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestShardsMerge: the shards of a scan are disjoint, cover the list, and
// merged give the leaderboard of the whole scan.
func TestShardsMerge(t *testing.T) {
	rs := builtins(t, "schema-quality")
	jobs := captures(t, rs)
	whole := t.TempDir()
	if err := scanner(t, &inProcess{}, whole, cache.Memory(), rs).Run(context.Background(), &scan.Memory{}, jobs, 2); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		part := scan.Shard{I: i, N: 3}.Pick(jobs)
		for _, j := range part {
			seen[j.Key]++
		}
		dir := t.TempDir()
		if err := scanner(t, &inProcess{}, dir, cache.Memory(), rs).Run(context.Background(), &scan.Memory{}, part, 2); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	for _, j := range jobs {
		if seen[j.Key] != 1 {
			t.Errorf("%s is in %d shards", j.Name, seen[j.Key])
		}
	}
	merged := t.TempDir()
	if _, err := scan.Merge(dirs, merged, "test", scan.MergeOptions{}); err != nil {
		t.Fatal(err)
	}
	var want, got map[string]any
	a, b := board(t, whole), func() []byte {
		var lb map[string]any
		readJSON(t, filepath.Join(merged, "leaderboard.json"), &lb)
		for _, f := range scan.TimeFields {
			parent, key, _ := strings.Cut(f, ".")
			delete(lb[parent].(map[string]any), key)
		}
		out, _ := json.MarshalIndent(lb, "", " ")
		return out
	}()
	if !bytes.Equal(a, b) {
		_ = json.Unmarshal(a, &want)
		_ = json.Unmarshal(b, &got)
		t.Errorf("merged shards differ from the whole scan:\n%s\n----\n%s", b, a)
	}
	// Every report the merged leaderboard names is there.
	var lb scan.Leaderboard
	readJSON(t, filepath.Join(merged, "leaderboard.json"), &lb)
	for _, s := range lb.Servers {
		for _, sc := range s.Scores {
			if _, err := os.Stat(filepath.Join(merged, sc.Report)); err != nil {
				t.Errorf("%s: %v", s.Name, err)
			}
		}
	}
	// Shards of other rubrics are refused.
	other, tdqs := t.TempDir(), builtins(t, "tdqs")
	one := []scan.Job{jobs[0]}
	scan.Key(one, tdqs)
	if err := scanner(t, &inProcess{}, other, cache.Memory(), tdqs).Run(context.Background(), &scan.Memory{}, one, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := scan.Merge([]string{dirs[0], other}, t.TempDir(), "test", scan.MergeOptions{}); err == nil || !strings.Contains(err.Error(), "other rubrics") {
		t.Errorf("merging scans of other rubrics: %v", err)
	}
}

// TestRetries: a start that fails is tried again after the back-off,
// doubled each time, up to the attempts; a job that fails every time is
// a failure record, never a score.
func TestRetries(t *testing.T) {
	rs := builtins(t, "schema-quality")
	for _, tc := range []struct {
		name     string
		fails    int64
		attempts int
		waits    []time.Duration
		failed   bool
	}{
		{"first try", 0, 3, nil, false},
		{"third try", 2, 3, []time.Duration{time.Second, 2 * time.Second}, false},
		{"never", 5, 3, []time.Duration{time.Second, 2 * time.Second}, true},
		{"one attempt", 1, 1, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &inProcess{}
			p.fails.Store(tc.fails)
			dir := t.TempDir()
			s := scanner(t, p, dir, cache.Memory(), rs)
			s.Attempts = tc.attempts
			var mu sync.Mutex
			var waits []time.Duration
			s.Sleep = func(_ context.Context, d time.Duration) error {
				mu.Lock()
				waits = append(waits, d)
				mu.Unlock()
				return nil
			}
			jobs := []scan.Job{{Name: "memory", Transport: "flaky", Target: transport.Target{Location: filepath.Join(corpus, "memory.tools.json")}, Identity: "memory"}}
			scan.Key(jobs, rs)
			if err := s.Run(context.Background(), &scan.Memory{}, jobs, 1); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(waits, tc.waits) {
				t.Errorf("waited %v, want %v", waits, tc.waits)
			}
			lb, err := scan.Build(dir, "test")
			if err != nil {
				t.Fatal(err)
			}
			if got := len(lb.Failed) == 1; got != tc.failed {
				t.Fatalf("failed = %v, want %v: %+v", got, tc.failed, lb)
			}
			if tc.failed {
				if len(lb.Servers) != 0 || !strings.HasPrefix(lb.Failed[0].Reason, "export: the server exited before") {
					t.Errorf("leaderboard: %+v", lb)
				}
				var f run.Failure
				readJSON(t, filepath.Join(dir, "failed", "memory-"+jobs[0].Key[:8]+".json"), &f)
				if f.Stage != run.StageExport || f.Failed != run.FailedVersion || f.Interrupted {
					t.Errorf("failure record: %+v", f)
				}
			}
		})
	}
}

// TestTimeout: a server that never answers fails when the job's time
// is up, with a reason naming the timeout.
func TestTimeout(t *testing.T) {
	rs := builtins(t, "schema-quality")
	dir := t.TempDir()
	s := scanner(t, &inProcess{}, dir, cache.Memory(), rs)
	s.Timeout = time.Millisecond // the server never answers: only the timeout ends it
	s.Attempts = 1
	jobs := []scan.Job{{Name: "silent", Transport: "hang", Identity: "silent"}}
	lb := scanJobs(t, s, dir, jobs, rs)
	if len(lb.Failed) != 1 || lb.Failed[0].Name != "silent" || !strings.Contains(lb.Failed[0].Reason, "took longer than --timeout 1ms") {
		t.Errorf("failed: %+v", lb.Failed)
	}
	if len(lb.Servers) != 0 {
		t.Errorf("servers: %+v", lb.Servers)
	}
}

// TestProgress: the counts a scan reports as it goes, its last report
// and the line a terminal shows; the time left is reckoned by the
// scan's clock.
func TestProgress(t *testing.T) {
	rs := builtins(t, "schema-quality")
	dir := t.TempDir()
	jobs := []scan.Job{
		{Name: "memory", Transport: "file", Target: transport.Target{Location: filepath.Join(corpus, "memory.tools.json")}, Identity: "memory"},
		{Name: "broken", Transport: "flaky", Identity: "broken"},
		{Name: "seqthink", Transport: "file", Target: transport.Target{Location: filepath.Join(corpus, "seqthink.tools.json")}, Identity: "seqthink"},
	}
	scan.Key(jobs, rs)
	// memory is done by an earlier run.
	if err := scanner(t, &inProcess{}, dir, cache.Memory(), rs).Run(context.Background(), &scan.Memory{}, jobs[:1], 1); err != nil {
		t.Fatal(err)
	}
	p := &inProcess{}
	p.fails.Store(1)
	s := scanner(t, p, dir, cache.Memory(), rs)
	s.Attempts = 1
	var seen []scan.Progress
	s.Progress = func(p scan.Progress) { seen = append(seen, p) }
	if err := s.Run(context.Background(), &scan.Memory{}, jobs, 1); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 4 {
		t.Fatalf("%d progress reports: %+v", len(seen), seen)
	}
	first, last := seen[1], seen[3]
	if first.Total != 3 || first.Skipped != 1 || first.Failed != 1 || first.InFlight != 0 || first.ETA <= 0 {
		t.Errorf("after the first job: %+v", first)
	}
	if last.Done != 1 || last.Failed != 1 || last.Skipped != 1 || last.InFlight != 0 || last.ETA != 0 {
		t.Errorf("at the end: %+v", last)
	}
	if got, want := seen[2].String(), "scan: 2/3 servers · 1 failed · 1 in flight · ETA "; !strings.HasPrefix(got, want) {
		t.Errorf("line %q, want it to start %q", got, want)
	}
}

// TestOtherRubricsRefused: a worker given other rubrics than the scan
// that enqueued a job declines it (the queue puts it back for the right
// workers, and the worker stops) rather than store reports under the
// job's key, and says which rubrics the job was enqueued with.
func TestOtherRubricsRefused(t *testing.T) {
	jobs := captures(t, builtins(t, "tdqs"))
	s := scanner(t, &inProcess{}, t.TempDir(), cache.Memory(), builtins(t, "schema-quality"))
	err := s.Do(context.Background(), jobs[0])
	if !jobqueue.IsDeclined(err) {
		t.Fatalf("Do = %v, want the job declined (put back in the queue), not failed", err)
	}
	if want := "enqueued with the rubric tdqs sha256:"; !strings.Contains(err.Error(), want) {
		t.Errorf("Do = %v, want it to say %q", err, want)
	}
	if done, _ := filepath.Glob(filepath.Join(s.Out, "jobs", "*.json")); len(done) != 0 {
		t.Errorf("%d records stored", len(done))
	}
}

// TestOtherRubricsMessage: the rubrics a job was enqueued with are named
// as rubrics, not as a --rubric flag, since the scan that enqueued it may
// have had them from RUBRIC_RUBRIC or a config file; the worker's own are
// its --rubric, which the CLI blames on where they came from, or the
// default when nothing gave them.
func TestOtherRubricsMessage(t *testing.T) {
	sq := []string{"schema-quality sha256:6a2b3f4bfc86"}
	for _, c := range []struct {
		name     string
		enqueued []string
		worker   []string
		def      bool
		want     string
	}{
		{"one rubric", []string{"tdqs sha256:f82df126da24"}, sq, false, `the queue holds job "w" enqueued with the rubric tdqs sha256:f82df126da24; this worker has --rubric schema-quality sha256:6a2b3f4bfc86: the job is left in the queue for workers run with the scan's rubrics; run this worker with them, or give a scan of other rubrics its own --db`},
		{"two rubrics", []string{"tdqs sha256:f82df126da24", "gradable sha256:0123456789ab"}, sq, false, `enqueued with the rubrics tdqs sha256:f82df126da24, gradable sha256:0123456789ab; this worker has --rubric`},
		{"an older rubric's job", nil, sq, false, `enqueued with rubrics this worker cannot tell (an older rubric enqueued it); this worker`},
		{"the default rubric", []string{"tdqs sha256:f82df126da24"}, sq, true, `; this worker has the default rubric schema-quality sha256:6a2b3f4bfc86 (no --rubric given): the job is left`},
		{"the default rubrics", []string{"tdqs sha256:f82df126da24"}, []string{sq[0], "tool-safety sha256:0123456789ab"}, true, `this worker has the default rubrics schema-quality sha256:6a2b3f4bfc86, tool-safety sha256:0123456789ab (no --rubric given)`},
	} {
		err := &scan.OtherRubricsError{Job: "w", Enqueued: c.enqueued, Worker: c.worker, WorkerDefault: c.def}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %q, want it to hold %q", c.name, err, c.want)
		}
	}
}

// TestPanicFailsOnce: a job that panics is tried once, whatever the
// queue, and stored as a failure that says rubric broke; the scan goes on
// with the next job. The database queue (River) used to recover the
// panic and run the job again, up to 1000 times, past --attempts; the
// queue in memory let it end the process.
func TestPanicFailsOnce(t *testing.T) {
	rs := builtins(t, "schema-quality")
	for _, way := range []string{"memory", "sqlite"} {
		t.Run(way, func(t *testing.T) {
			dir := t.TempDir()
			ctx, stop := context.WithCancel(t.Context())
			defer stop()
			var q scan.Queue = &scan.Memory{}
			if way == "sqlite" {
				jq, err := jobqueue.Open(ctx, "sqlite:"+filepath.Join(dir, "queue.db"))
				if err != nil {
					t.Fatal(err)
				}
				defer jq.Close()
				q = scan.DB{Queue: jq, Drain: true}
			}
			p := &inProcess{}
			s := scanner(t, p, dir, cache.Memory(), rs)
			s.Attempts = 1
			jobs := []scan.Job{
				{Name: "buggy", Transport: "panicking", Identity: "buggy"},
				{Name: "memory", Transport: "file", Target: transport.Target{Location: filepath.Join(corpus, "memory.tools.json")}, Identity: "memory"},
			}
			scan.Key(jobs, rs)
			s.Started = func(j scan.Job) {
				if j.Name == "buggy" && p.panics.Load() > 0 {
					t.Errorf("the job that panicked was started again, past --attempts 1")
					stop() // rather than wait through the queue's retries
				}
			}
			if err := s.Run(ctx, q, jobs, 1); err != nil {
				t.Fatal(err)
			}
			if n := p.panics.Load(); n != 1 {
				t.Errorf("the panicking job ran %d times, want 1", n)
			}
			lb, err := scan.Build(dir, "test")
			if err != nil {
				t.Fatal(err)
			}
			if len(lb.Servers) != 1 || len(lb.Failed) != 1 || lb.Failed[0].Name != "buggy" ||
				!strings.Contains(lb.Failed[0].Reason, "rubric panicked") || !strings.Contains(lb.Failed[0].Reason, "index out of range") {
				t.Errorf("servers %+v, failed %+v; want memory scored and buggy failed, saying rubric panicked", lb.Servers, lb.Failed)
			}
		})
	}
}

// TestFutileNotRetried: a failure that another attempt cannot fix (a
// surface that does not parse, a file that does not exist, a server cut
// off for flooding stdout or for breaking the protocol, a rubric that
// does not load) fails the job at its first attempt, with its reason and
// no wait; a server that exited or timed out is tried --attempts times.
func TestFutileNotRetried(t *testing.T) {
	rs := builtins(t, "schema-quality")
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tools.json")
	if err := os.WriteFile(bad, []byte("this is { not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nothere.tools.json")
	for _, c := range []struct {
		name, transport, location string
		tries                     int64
		reason                    string // the start of the failure's reason
	}{
		{"unparsable capture", "file", bad, 1, "export: " + bad + ":1:2: invalid JSON"},
		{"missing capture", "file", missing, 1, "export: surface file " + missing + " does not exist: give the path of a tools/list JSON file"},
		{"unparsable surface", "erring", "unparsable", 1, "export: tools.json:1:2: invalid JSON"},
		{"flooding server", "erring", "flooding", 1, "export: server wrote something other than JSON-RPC"},
		{"lying server", "erring", "lying", 1, "export: tools/list page 2: server repeated the tools/list cursor"},
		{"rubric error", "erring", "rubric", 1, "export: mine.hcl:3:1: unknown check"},
		{"server exited", "erring", "exited", 3, "export: server exited with status 1"},
		{"timeout", "erring", "timeout", 3, "export: no answer to initialize within 1s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &inProcess{}
			out := t.TempDir()
			s := scanner(t, p, out, cache.Memory(), rs)
			s.Attempts = 3
			var waits atomic.Int64
			s.Sleep = func(context.Context, time.Duration) error { waits.Add(1); return nil }
			jobs := []scan.Job{{Name: "server", Transport: c.transport, Target: transport.Target{Location: c.location}, Identity: c.name}}
			scan.Key(jobs, rs)
			if err := s.Run(context.Background(), &scan.Memory{}, jobs, 1); err != nil {
				t.Fatal(err)
			}
			m := &p.tries
			if c.transport == "file" {
				m = &p.files
			}
			if got := tries(m, c.location); got != c.tries {
				t.Errorf("tried %d times, want %d", got, c.tries)
			}
			if got := waits.Load(); got != c.tries-1 {
				t.Errorf("waited %d times, want %d", got, c.tries-1)
			}
			lb, err := scan.Build(out, "test")
			if err != nil {
				t.Fatal(err)
			}
			if len(lb.Failed) != 1 || !strings.HasPrefix(lb.Failed[0].Reason, c.reason) {
				t.Errorf("failed: %+v; want one failure whose reason starts %q", lb.Failed, c.reason)
			}
		})
	}
}

// TestShardRecords: each shard's scan.json records its list and shard;
// Merge refuses a set that lacks a shard unless Partial, whose
// leaderboard then says what it lacks, and refuses shards of different
// lists; scans that record no list (an older rubric's) merge as given.
func TestShardRecords(t *testing.T) {
	rs := builtins(t, "schema-quality")
	jobs := captures(t, rs)
	shardDir := func(jobs []scan.Job, sh scan.Shard) string {
		dir := t.TempDir()
		s := scanner(t, &inProcess{}, dir, cache.Memory(), rs)
		s.List = scan.ListOf(jobs, sh)
		if err := s.Run(context.Background(), &scan.Memory{}, sh.Pick(jobs), 2); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	d1, d2, d3 := shardDir(jobs, scan.Shard{I: 1, N: 3}), shardDir(jobs, scan.Shard{I: 2, N: 3}), shardDir(jobs, scan.Shard{I: 3, N: 3})
	m, err := scan.ReadMeta(d2)
	if err != nil {
		t.Fatal(err)
	}
	if l := m.List; l == nil || l.Shards != 3 || !slices.Equal(l.Holds, []int{2}) || l.Servers != len(jobs) || !strings.HasPrefix(l.Digest, "sha256:") {
		t.Errorf("shard 2's list record = %+v", m.List)
	}
	_, err = scan.Merge([]string{d1, d3}, t.TempDir(), "test", scan.MergeOptions{})
	if err == nil || err.Error() != "shard 2 of 3 is missing: pass every shard's folder, or --partial to merge what is there (the leaderboard then says which shards it lacks)" {
		t.Errorf("merging shards 1 and 3 of 3: %v", err)
	}
	_, err = scan.Merge([]string{d2}, t.TempDir(), "test", scan.MergeOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "shards 1 and 3 of 3 are missing") {
		t.Errorf("merging shard 2 of 3: %v", err)
	}
	part := t.TempDir()
	lb, err := scan.Merge([]string{d1, d3}, part, "test", scan.MergeOptions{Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := lb.Partial; p == nil || p.Shards != 3 || !slices.Equal(p.Holds, []int{1, 3}) || !slices.Equal(p.Missing, []int{2}) || p.Listed != len(jobs) {
		t.Errorf("partial = %+v", lb.Partial)
	}
	whole, err := scan.Merge([]string{part, d2}, t.TempDir(), "test", scan.MergeOptions{})
	if err != nil || whole.Partial != nil || whole.Totals.Servers != len(jobs) {
		t.Errorf("the partial merge and the shard it lacked: %+v, %v", whole, err)
	}
	// Another list, split alike: refused, with Partial too.
	other := shardDir(jobs[:len(jobs)-1], scan.Shard{I: 2, N: 3})
	if _, err := scan.Merge([]string{d1, other}, t.TempDir(), "test", scan.MergeOptions{Partial: true}); err == nil || !strings.Contains(err.Error(), "shards of different scans") {
		t.Errorf("shards of two lists: %v", err)
	}
	// Scans that record no list: merged as given, saying so.
	old1, old2 := shardDir(jobs[:2], scan.Shard{}), shardDir(jobs[2:], scan.Shard{})
	for _, d := range []string{old1, old2} {
		m, err := scan.ReadMeta(d)
		if err != nil {
			t.Fatal(err)
		}
		m.List, m.Settings = nil, nil
		b, _ := json.Marshal(m)
		if err := os.WriteFile(filepath.Join(d, "scan.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var said []string
	lb, err = scan.Merge([]string{old1, old2}, t.TempDir(), "test", scan.MergeOptions{Say: func(s string) { said = append(said, s) }})
	if err != nil || lb.Partial != nil || lb.Totals.Servers != len(jobs) || len(said) != 1 || !strings.Contains(said[0], "records no list or shard") {
		t.Errorf("older scans: %v, %v, said %q", lb, err, said)
	}
	if _, err := scan.Merge([]string{d1, old2}, t.TempDir(), "test", scan.MergeOptions{Partial: true}); err == nil || !strings.Contains(err.Error(), "run the scan of "+old2+" again") {
		t.Errorf("a shard and an older scan: %v", err)
	}
}

// TestResumeSettings: a scan resumed with other judge settings or
// another shard is refused, naming both; one whose scan.json records
// none (an older rubric's) is resumed, saying what it assumes.
func TestResumeSettings(t *testing.T) {
	rs := builtins(t, "schema-quality")
	jobs := captures(t, rs)[:1]
	dir := t.TempDir()
	run := func(judgeFlag string, sh scan.Shard) (string, error) {
		s := scanner(t, &inProcess{}, dir, cache.Memory(), rs)
		s.List = scan.ListOf(jobs, sh)
		s.Settings = []scan.Setting{{Flag: "judge", Value: judgeFlag}, {Flag: "model", Value: "(none)"}}
		var said strings.Builder
		s.Say = func(line string) { said.WriteString(line + "\n") }
		err := s.Run(context.Background(), &scan.Memory{}, jobs, 1)
		return said.String(), err
	}
	if _, err := run("openai", scan.Shard{}); err != nil {
		t.Fatal(err)
	}
	if _, err := run("openai", scan.Shard{}); err != nil {
		t.Fatalf("resumed with the same settings: %v", err)
	}
	_, err := run("(none)", scan.Shard{})
	if want := dir + " holds a scan first run with --judge openai, and this run has --judge (none): a scan resumed in the same --out keeps its first run's judge settings, since the servers it holds were judged with them and scores under other settings would not compare with theirs; to resume it, give --judge openai again (as a flag, a RUBRIC_ variable or rubric.yaml, whichever gave the first run's); to score with this run's settings, start a new scan in another --out (the answer cache spares every question asked before with the same judge)"; err == nil || err.Error() != want {
		t.Errorf("resumed with another judge: %v\nwant %s", err, want)
	}
	if _, err := run("openai", scan.Shard{I: 1, N: 2}); err == nil || err.Error() != dir+" holds the whole list, and this run is shard 1 of 2: give each shard its own --out" {
		t.Errorf("resumed as a shard: %v", err)
	}
	m, err := scan.ReadMeta(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.List, m.Settings = nil, nil
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "scan.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	said, err := run("(none)", scan.Shard{})
	if err != nil || !strings.Contains(said, "records no judge settings (an older rubric wrote it)") {
		t.Errorf("an older scan.json resumed: %v, said %q", err, said)
	}
	if m, _ := scan.ReadMeta(dir); m == nil || m.List == nil || len(m.Settings) != 2 {
		t.Errorf("the older scan.json, resumed, records %+v", m)
	}
}

// staleQueue hands out its jobs as an earlier run enqueued them,
// whatever Add is given, as a database queue does.
type staleQueue struct{ jobs []scan.Job }

func (staleQueue) Add(context.Context, []scan.Job) error { return nil }
func (q staleQueue) Work(ctx context.Context, _ int, _ time.Duration, handle func(context.Context, scan.Job) error) error {
	for _, j := range q.jobs {
		if err := handle(ctx, j); err != nil {
			return err
		}
	}
	return nil
}

// TestRunTakesThisRunsJobs: a job the queue kept from an earlier run is
// done as this run's list has it (its name, its limits), and one the
// list no longer has with this run's limits.
func TestRunTakesThisRunsJobs(t *testing.T) {
	rs := builtins(t, "schema-quality")
	jobs := captures(t, rs)[:2]
	stale := slices.Clone(jobs)
	for i := range stale {
		stale[i].Name = "old-" + stale[i].Name
		stale[i].Target.Limits.MaxBytes = 10 // every capture here is larger
	}
	now := []scan.Job{jobs[0]}
	now[0].Name = "renamed"
	dir := t.TempDir()
	s := scanner(t, &inProcess{}, dir, cache.Memory(), rs)
	if err := s.Run(context.Background(), staleQueue{stale}, now, 1); err != nil {
		t.Fatal(err)
	}
	lb, err := scan.Build(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range lb.Servers {
		names = append(names, e.Name)
	}
	slices.Sort(names)
	if want := []string{"old-" + jobs[1].Name, "renamed"}; !slices.Equal(names, want) || len(lb.Failed) != 0 {
		t.Errorf("scored %v (failed %v), want %v", names, lb.Failed, want)
	}
}

// TestFailureNamesRubrics: the failure record of a job that failed
// before any rubric was at work (its entry, reading its tools) names
// the rubric the job asked for first, and, when it asked for several,
// every one in rubrics; it named the rubric "" (version "", digest "").
func TestFailureNamesRubrics(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rubrics []string
		job     scan.Job
		stage   string
	}{
		{"an entry with no target, one rubric", []string{"schema-quality"}, scan.Job{Name: "nothing", Identity: "nothing", Err: "the entry has neither a target nor a command"}, run.StageConfig},
		{"a server that exited, one rubric", []string{"schema-quality"}, scan.Job{Name: "exited", Transport: "erring", Target: transport.Target{Location: "exited"}, Identity: "exited"}, run.StageExport},
		{"a server that exited, two rubrics", []string{"tdqs", "schema-quality"}, scan.Job{Name: "exited", Transport: "erring", Target: transport.Target{Location: "exited"}, Identity: "exited"}, run.StageExport},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := builtins(t, tc.rubrics...)
			dir := t.TempDir()
			s := scanner(t, &inProcess{}, dir, cache.Memory(), rs)
			s.Attempts = 1
			jobs := []scan.Job{tc.job}
			scan.Key(jobs, rs)
			if err := s.Run(context.Background(), &scan.Memory{}, jobs, 1); err != nil {
				t.Fatal(err)
			}
			var f run.Failure
			readJSON(t, filepath.Join(dir, "failed", tc.job.Name+"-"+jobs[0].Key[:8]+".json"), &f)
			if f.Stage != tc.stage {
				t.Fatalf("stage %q, want %q: %+v", f.Stage, tc.stage, f)
			}
			if f.Rubric.Name != rs[0].Name || f.Rubric.Digest != rs[0].Digest || f.Rubric.Version == "" {
				t.Errorf("rubric %+v, want %s %s", f.Rubric, rs[0].Name, rs[0].Digest)
			}
			var names []string
			for _, r := range f.Rubrics {
				names = append(names, r.Name)
			}
			want := tc.rubrics
			if len(want) == 1 {
				want = nil // a job of one rubric names it in rubric alone
			}
			if !slices.Equal(names, want) {
				t.Errorf("rubrics %q, want %q", names, want)
			}
		})
	}
}

// stageDeadline gives s a job deadline that passes only when the
// function it returns is called, at the stage a test names, never by a
// clock.
func stageDeadline(s *scan.Scanner) (end func()) {
	var cut func()
	s.Deadline = func(ctx context.Context, _ time.Duration, cause error) (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancelCause(ctx)
		cut = func() { cancel(cause) }
		return ctx, func() { cancel(context.Canceled) }
	}
	return func() { cut() }
}

// scanJobs keys jobs for rs, runs them with s from an in-memory queue,
// one at a time, and returns the leaderboard s wrote to dir.
func scanJobs(t *testing.T, s *scan.Scanner, dir string, jobs []scan.Job, rs []*rubric.Rubric) *scan.Leaderboard {
	t.Helper()
	scan.Key(jobs, rs)
	if err := s.Run(context.Background(), &scan.Memory{}, jobs, 1); err != nil {
		t.Fatal(err)
	}
	lb, err := scan.Build(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	return lb
}

// TestTimeoutReason: when a try failed while the job still had time (a
// --request-timeout, a server that exited), and the job's --timeout then
// cut the back-off or the next try, the reason is the error that fired
// first, with the flag to raise, then the timeout; it was the timeout
// alone, or the timeout first, which sent the user to --timeout. The
// job's time ends at the stage each case names (an injected deadline),
// never by a clock.
func TestTimeoutReason(t *testing.T) {
	rs := builtins(t, "schema-quality")
	const timeout = "the server took longer than --timeout 5m0s (give it a larger --timeout, or 0 for no bound, if it needs more time)"
	const slow = "no answer to tools/list within 1s (the server started but did not list its tools in time: give it a larger --request-timeout if it needs more time)"
	requestTimeout := errors.New("no answer to tools/list within 1s")
	exited := errors.New("server exited with status 1 before answering initialize")
	for _, tc := range []struct {
		name     string
		attempts int
		first    error // the first try's error; nil: the first try is cut
		// cutWait ends the job's time in the back-off after the first
		// try, else in the second try.
		cutWait bool
		want    string
	}{
		{"the request's timeout, then the job's in the back-off", 3, requestTimeout, true, "export: " + slow + "; then, before another try could pass, " + timeout},
		{"the request's timeout, then the job's in the next try", 3, requestTimeout, false, "export: " + slow + "; then, before another try could pass, " + timeout},
		{"the request's timeout on the only try, in the job's time", 1, requestTimeout, false, "export: " + slow},
		{"a server that exited, then the job's timeout in the back-off", 2, exited, true, "export: server exited with status 1 before answering initialize; then, before another try could pass, " + timeout},
		{"the job's timeout in the first try", 3, nil, false, "export: " + timeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &inProcess{}
			dir := t.TempDir()
			s := scanner(t, p, dir, cache.Memory(), rs)
			s.Attempts = tc.attempts
			s.Timeout = 5 * time.Minute
			end := stageDeadline(s)
			// The job's time ends as the stage is reached; the wait or
			// try it ends returns what a cut one returns.
			cut := func(ctx context.Context) error {
				end()
				<-ctx.Done()
				return ctx.Err()
			}
			p.script = func(ctx context.Context, try int) (*surface.Surface, error) {
				if try == 1 && tc.first != nil {
					return nil, tc.first
				}
				return nil, fmt.Errorf("reading tools: %w", cut(ctx))
			}
			s.Sleep = func(ctx context.Context, _ time.Duration) error {
				if tc.cutWait {
					return cut(ctx)
				}
				return nil
			}
			jobs := []scan.Job{{Name: "slow", Transport: "scripted", Identity: "slow"}}
			lb := scanJobs(t, s, dir, jobs, rs)
			if len(lb.Failed) != 1 || lb.Failed[0].Reason != tc.want {
				t.Errorf("failed: %+v\nwant the reason %q", lb.Failed, tc.want)
			}
		})
	}
}

// lateTimer is a job's context whose deadline has passed by the
// scanner's clock while its timer has not fired: what a busy machine
// shows for a moment, since it runs timers late.
type lateTimer struct{ context.Context }

func (lateTimer) Deadline() (time.Time, bool) { return time.Unix(0, 0), true }

// TestTimeoutBeforeItsTimer: a try whose error comes back after the
// job's deadline, before the deadline's timer has fired in rubric's
// process (a plugin handed the deadline reports it passed), was cut by
// the job's --timeout: the reason is the timeout, named once. It read
// "export: context deadline exceeded; then, before another try could
// pass, the server took longer than --timeout" (a transcript failed so
// on a busy machine), or the bare context error.
func TestTimeoutBeforeItsTimer(t *testing.T) {
	rs := builtins(t, "schema-quality")
	const timeout = "the server took longer than --timeout 5m0s (give it a larger --timeout, or 0 for no bound, if it needs more time)"
	for _, attempts := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d attempts", attempts), func(t *testing.T) {
			p := &inProcess{}
			dir := t.TempDir()
			s := scanner(t, p, dir, cache.Memory(), rs)
			s.Attempts = attempts
			s.Timeout = 5 * time.Minute
			s.Deadline = func(ctx context.Context, _ time.Duration, _ error) (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(ctx)
				return lateTimer{ctx}, cancel
			}
			tries := 0
			p.script = func(context.Context, int) (*surface.Surface, error) {
				tries++
				return nil, fmt.Errorf("reading tools: %w", context.DeadlineExceeded)
			}
			jobs := []scan.Job{{Name: "late", Transport: "scripted", Identity: "late"}}
			lb := scanJobs(t, s, dir, jobs, rs)
			if want := "export: " + timeout; len(lb.Failed) != 1 || lb.Failed[0].Reason != want {
				t.Errorf("failed: %+v\nwant the reason %q", lb.Failed, want)
			}
			if tries != 1 {
				t.Errorf("%d tries, want 1: the job's time had ended", tries)
			}
		})
	}
}

// TestScoreTimeoutReason: when a judge's error (a judge that crashed, an
// unreadable answer, a model's request that timed out) stopped the
// score stage while the job still had time, and the job's --timeout
// passed before the failure was recorded (the calls in flight finishing,
// the checks ending), the reason is the judge's error, with what it
// says to do, then the timeout; it was "<timeout> (interrupted
// (<timeout>) while asking the questions ...: <error>)", which sent the
// user to --timeout and named it twice. A timeout that cut the judge's
// call is the reason alone, named once. The judge fails on one question
// (the others it answers), and the job's time ends at the stage each
// case names (an injected deadline), never by a clock.
func TestScoreTimeoutReason(t *testing.T) {
	rs := builtins(t, "tdqs")
	// The server had listed its tools: the timeout is the judging's.
	const timeout = "the judging took longer than --timeout 5m0s allowed: the server had listed its tools, and asking the judge the questions used the rest of the job's time (give it a larger --timeout, or 0 for no bound; a --judge-rate limit paces the calls, and --concurrency sets how many questions are asked at once)"
	const then = "; then, as the job stopped on it, " + timeout
	const tool, asking = "tdqs.tool create_entities", `score: asking tdqs.tool about "create_entities": `
	crashed := errors.New(`the judge plugin "heuristic" (pid 7) exited: signal: killed`)
	slow := errors.New("api.example.com sent no reply within 2m0s; if the model is slow, give it longer with --judge-option timeout=5m")
	// A plugin that gave up on a deadline of its own, before the job's
	// time was up, as the host words it: not the job's --timeout.
	own := &host.OwnDeadlineError{Kind: "judge", Name: "mine", During: "ask"}
	unreadable := &judge.UnreadableError{Msg: "no JSON object in the reply"}
	for _, tc := range []struct {
		name string
		// on is the question the judge fails on, as "KIND SUBJECT"; the
		// others it answers.
		on  string
		err error // what it returns; nil: the job's time ends in the call
		// endScored ends the job's time as the scoring returns, after the
		// judge's error; else the time does not end there.
		endScored bool
		want      string
	}{
		{"a judge that crashed, then the job's timeout", tool, crashed, true, asking + crashed.Error() + then},
		{"a model's request that timed out, then the job's timeout", tool, slow, true, asking + slow.Error() + then},
		// A tool's answer may stay unreadable (the tool is then left
		// unscored); the surface's may not.
		{"an unreadable answer, then the job's timeout", "tdqs.coherence surface", unreadable, true,
			`score: the answer of the judge "heuristic" (model "heuristic-1") to tdqs.coherence about "surface" was still unreadable after 3 attempts: unreadable reply: no JSON object in the reply` + then},
		{"a plugin's own deadline, then the job's timeout", tool, own, true, asking + `the judge plugin "mine" reported "context deadline exceeded" during ask: a deadline the plugin keeps itself passed, not rubric's (--judge-timeout, or a scan's --timeout), which had not; raise the plugin's own timeout setting if it has one, or see its log for what it waited for` + then},
		{"a plugin's own deadline, in the job's time", tool, own, false, asking + own.Error()},
		{"a judge that crashed, in the job's time", tool, crashed, false, asking + crashed.Error()},
		{"the job's timeout in the judge's call", tool, nil, false, "score: " + timeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &inProcess{}
			dir := t.TempDir()
			s := scanner(t, p, dir, cache.Memory(), rs)
			s.Attempts = 1
			s.Timeout = 5 * time.Minute
			end := stageDeadline(s)
			s.NewSession = func() *run.Session {
				return run.New(run.Options{Plugins: p, Cache: cache.Memory(), Version: "test", Progress: func() (func(ask.Progress), func()) {
					// done is called as the scoring returns.
					return func(ask.Progress) {}, func() {
						if tc.endScored {
							end()
						}
					}
				}})
			}
			heuristic := heuristic.New()
			p.answer = func(ctx context.Context, q judge.Question) (judge.Answer, error) {
				if q.Kind+" "+q.Subject != tc.on {
					return heuristic.Ask(ctx, q)
				}
				if tc.err != nil {
					return judge.Answer{}, tc.err
				}
				end()
				<-ctx.Done()
				return judge.Answer{}, ctx.Err()
			}
			jobs := []scan.Job{{Name: "memory", Transport: "file", Target: transport.Target{Location: filepath.Join(corpus, "memory.tools.json")}, Identity: "memory"}}
			lb := scanJobs(t, s, dir, jobs, rs)
			if len(lb.Failed) != 1 || lb.Failed[0].Reason != tc.want {
				t.Errorf("failed: %+v\nwant the reason %q", lb.Failed, tc.want)
			}
		})
	}
}
