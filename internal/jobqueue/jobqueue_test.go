package jobqueue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

func TestParseDSN(t *testing.T) {
	for _, tc := range []struct {
		dsn    string
		store  store
		target string
		err    string
	}{
		{dsn: "sqlite:scan/queue.db", store: storeSQLite, target: "scan/queue.db"},
		{dsn: "sqlite:///abs/queue.db", store: storeSQLite, target: "/abs/queue.db"},
		{dsn: "postgres://u@h/db", store: storePostgres, target: "postgres://u@h/db"},
		{dsn: "postgresql://u@h:5433/db?sslmode=disable", store: storePostgres, target: "postgresql://u@h:5433/db?sslmode=disable"},
		{dsn: "sqlite:", err: "names no file"},
		{dsn: "scan/queue.db", err: "neither sqlite:PATH nor postgres://"},
		{dsn: "mysql://h/db", err: "neither sqlite:PATH nor postgres://"},
	} {
		s, target, err := parseDSN(tc.dsn)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseDSN(%q) error = %v, want one saying %q", tc.dsn, err, tc.err)
			}
			continue
		}
		if err != nil || s != tc.store || target != tc.target {
			t.Errorf("parseDSN(%q) = %v, %q, %v; want %v, %q", tc.dsn, s, target, err, tc.store, tc.target)
		}
	}
}

func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		n    int
		want time.Duration
	}{
		{Options{}, 1, time.Second},
		{Options{}, 2, 2 * time.Second},
		{Options{}, 4, 8 * time.Second},
		{Options{}, 9, 256 * time.Second},
		{Options{}, 10, 5 * time.Minute},
		{Options{}, 1000, 5 * time.Minute},
		{Options{Backoff: 10 * time.Millisecond}, 3, 40 * time.Millisecond},
		{Options{Backoff: time.Second, MaxBackoff: 3 * time.Second}, 3, 3 * time.Second},
		{Options{Backoff: time.Minute, MaxBackoff: time.Second}, 1, time.Second},
	} {
		if got := backoff(tc.opts, tc.n); got != tc.want {
			t.Errorf("backoff(%+v, %d) = %s, want %s", tc.opts, tc.n, got, tc.want)
		}
	}
}

// River asks the retry policy when to run a failed job again: after
// attempt n, the back-off of retry n from the time of the failure.
func TestRetryPolicy(t *testing.T) {
	failedAt := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	p := retryPolicy{opts: Options{Backoff: 10 * time.Second}, now: func() time.Time { return failedAt }}
	for attempt, want := range map[int]time.Duration{0: 10 * time.Second, 1: 10 * time.Second, 2: 20 * time.Second, 3: 40 * time.Second} {
		if got := p.NextRetry(&rivertype.JobRow{Attempt: attempt}); !got.Equal(failedAt.Add(want)) {
			t.Errorf("after attempt %d the next try is %s after the failure, want %s", attempt, got.Sub(failedAt), want)
		}
	}
}

func TestOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		err  string
	}{
		{Options{}, ""},
		{Options{Workers: 4, Timeout: time.Minute, RescueAfter: 2 * time.Minute, Retries: 3}, ""},
		{Options{Timeout: time.Minute, RescueAfter: time.Minute}, "must be longer than the per-job timeout"},
		{Options{Retries: -1}, "cannot be negative"},
		{Options{Timeout: time.Minute, RescueAfter: 2 * time.Minute, Ahead: true}, "longer than twice the per-job timeout"},
		{Options{Timeout: time.Minute, RescueAfter: 3 * time.Minute, Ahead: true}, ""},
	} {
		err := tc.opts.check()
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("check(%+v) = %v, want %q", tc.opts, err, tc.err)
		}
	}
	if got := (Options{Timeout: time.Minute}).rescueAfter(); got != 2*time.Minute {
		t.Errorf("the default rescue delay with a 1m timeout is %s, want 2m", got)
	}
	if got := (Options{Timeout: time.Minute, Ahead: true}).rescueAfter(); got != 3*time.Minute {
		t.Errorf("the default rescue delay with a 1m timeout and a job ahead is %s, want 3m", got)
	}
}

// TestTimedOut: a job that ran out of its time says which setting gave
// it that time and what to do, the rescue delay's when no timeout was
// given, and keeps the handler's error.
func TestTimedOut(t *testing.T) {
	cause := errors.New("still reading")
	for _, tc := range []struct {
		name  string
		opts  Options
		limit time.Duration
		want  string
	}{
		{"a timeout named", Options{Timeout: time.Minute, TimeoutSetting: "--timeout"}, time.Minute,
			"timed out after 1m0s, the longest one attempt may run (--timeout): raise --timeout if the job needs longer: still reading"},
		{"a timeout unnamed", Options{Timeout: time.Minute}, time.Minute,
			"timed out after 1m0s, the longest one attempt may run (the queue's timeout): raise the queue's timeout if the job needs longer: still reading"},
		{"the rescue delay", Options{TimeoutSetting: "--timeout"}, time.Hour,
			"timed out after 1h0m0s, the queue's rescue delay, which ends every attempt that --timeout does not end sooner (a job running longer is taken for one whose worker died): give --timeout a bound below it, for the job to stop on its own, or raise the rescue delay (RescueAfter): still reading"},
	} {
		err := tc.opts.timedOut(tc.limit, cause)
		if err.Error() != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, err, tc.want)
		}
		if !errors.Is(err, cause) {
			t.Errorf("%s: the handler's error is lost", tc.name)
		}
	}
}

func TestErrorMarks(t *testing.T) {
	base := errors.New("registry answered 503")
	for _, tc := range []struct {
		err   error
		retry bool
	}{
		{base, false},
		{Transient(base), true},
		{fmt.Errorf("installing: %w", Transient(base)), true},
		{Permanent(Transient(base)), false},
		{Transient(Permanent(base)), false},
		{Permanent(base), false},
	} {
		if got := retryable(tc.err); got != tc.retry {
			t.Errorf("retryable(%v) = %v, want %v", tc.err, got, tc.retry)
		}
		if !errors.Is(tc.err, base) {
			t.Errorf("%v does not wrap its cause", tc.err)
		}
	}
	if Transient(nil) != nil || Permanent(nil) != nil {
		t.Error("marking a nil error made an error")
	}
}

// Enqueueing is idempotent by key, whatever state the job has reached.
func TestEnqueueByKey(t *testing.T) {
	for _, s := range stores(t) {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			q := open(t, s.dsn(t))
			jobs := corpusJobs(t, 5)
			if n, err := q.Enqueue(ctx, jobs[:3]); err != nil || n != 3 {
				t.Fatalf("first Enqueue = %d, %v; want 3", n, err)
			}
			if n, err := q.Enqueue(ctx, jobs); err != nil || n != 2 {
				t.Fatalf("second Enqueue of 3 old and 2 new jobs = %d, %v; want 2", n, err)
			}
			if err := q.Work(ctx, Options{Drain: true}, func(ctx context.Context, j Job) error { return readCapture(j) }); err != nil {
				t.Fatal(err)
			}
			if n, err := q.Enqueue(ctx, jobs); err != nil || n != 0 {
				t.Fatalf("Enqueue of done jobs = %d, %v; want 0", n, err)
			}
			if c, err := q.Counts(ctx); err != nil || c != (Counts{Done: 5}) {
				t.Fatalf("Counts = %+v, %v; want 5 done", c, err)
			}
			if _, err := q.Enqueue(ctx, []Job{{Payload: []byte("x")}}); err == nil || !strings.Contains(err.Error(), "no key") {
				t.Fatalf("Enqueue of a job without a key: %v", err)
			}
		})
	}
}

// Two workers, each with its own connection pool and River client as on
// two machines, share one queue of jobs naming the corpus captures: each
// job is handled exactly once. The second takes a job ahead of its
// workers (Options.Ahead).
func TestTwoWorkersNoDuplicate(t *testing.T) {
	const n = 64
	for _, s := range stores(t) {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			dsn := s.dsn(t)
			jobs := corpusJobs(t, n)
			if added, err := open(t, dsn).Enqueue(ctx, jobs); err != nil || added != n {
				t.Fatalf("Enqueue = %d, %v", added, err)
			}
			var seen tally
			var byWorker [2]int
			var mu sync.Mutex
			// Each job waits until both workers have one, so that the
			// first to start cannot take the whole queue.
			both := make(chan struct{})
			var bothOnce sync.Once
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for w := range 2 {
				q := open(t, dsn)
				wg.Go(func() {
					errs[w] = q.Work(ctx, Options{Workers: 3, Drain: true, Ahead: w == 1}, func(ctx context.Context, j Job) error {
						seen.add(j)
						mu.Lock()
						byWorker[w]++
						if byWorker[0] > 0 && byWorker[1] > 0 {
							bothOnce.Do(func() { close(both) })
						}
						mu.Unlock()
						<-both
						return readCapture(j)
					})
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			for _, j := range jobs {
				if got := seen.get(j.Key); !slices.Equal(got, []int{1}) {
					t.Errorf("job %s was handled with attempts %v, want exactly once", j.Key, got)
				}
			}
			if len(seen.attempts) != n {
				t.Errorf("%d keys handled, want %d", len(seen.attempts), n)
			}
			c, err := open(t, dsn).Counts(ctx)
			if err != nil || c != (Counts{Done: n}) {
				t.Errorf("Counts = %+v, %v; want %d done", c, err, n)
			}
			if byWorker[0] == 0 || byWorker[1] == 0 {
				t.Errorf("jobs handled by each worker: %v, want both to have worked", byWorker)
			}
			t.Logf("jobs handled by each worker: %v", byWorker)
		})
	}
}

// A worker process killed with SIGKILL in the middle of a job: the next
// queue opened on the database, when no other is open (the scan started
// again), takes the job back at once and runs it.
func TestKilledWorkerJobTakenBackOnReopen(t *testing.T) {
	for _, s := range stores(t) {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			dsn := s.dsn(t)
			q := open(t, dsn)
			if _, err := q.Enqueue(ctx, corpusJobs(t, 1)); err != nil {
				t.Fatal(err)
			}
			q.Close()
			p := startWorker(t, dsn, 0)
			_, hung := p.waitStarted(t)
			p.kill9(t)
			if s.settle != nil {
				s.settle(t, dsn)
			}

			q = open(t, dsn)
			if c, err := q.Counts(ctx); err != nil || c != (Counts{Available: 1}) {
				t.Fatalf("after reopening, Counts = %+v, %v; want the killed worker's job available again", c, err)
			}
			var seen tally
			if err := q.Work(ctx, Options{Drain: true}, func(ctx context.Context, j Job) error {
				seen.add(j)
				return readCapture(j)
			}); err != nil {
				t.Fatal(err)
			}
			if got := seen.get(hung); !slices.Equal(got, []int{2}) {
				t.Errorf("the killed worker's job %s ran with attempts %v, want once more as attempt 2", hung, got)
			}
		})
	}
}

// A worker process killed mid-job while another worker goes on (a
// fleet): River's rescuer, on whichever worker leads, makes the job
// available again once it has been running longer than RescueAfter, and
// the surviving worker runs it. River needs wall time here: the dead
// worker's leadership lasts up to 15 s after its last renewal, and the
// rescuer runs when a worker becomes leader, then every 30 s; neither is
// configurable in River v0.51. The test waits for the job to be handled,
// not for a time.
func TestKilledWorkerJobRescuedByRiver(t *testing.T) {
	for _, s := range stores(t) {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			dsn := s.dsn(t)
			survivor := open(t, dsn) // open first: not alone when it works
			if _, err := survivor.Enqueue(ctx, corpusJobs(t, 1)); err != nil {
				t.Fatal(err)
			}
			p := startWorker(t, dsn, 0)
			_, hung := p.waitStarted(t)
			p.kill9(t)
			if c, err := survivor.Counts(ctx); err != nil || c != (Counts{Running: 1}) {
				t.Fatalf("after the kill, Counts = %+v, %v; want the dead worker's job still running", c, err)
			}

			var seen tally
			start := time.Now()
			if err := survivor.Work(ctx, Options{Drain: true, Timeout: 2 * time.Second, RescueAfter: 3 * time.Second}, func(ctx context.Context, j Job) error {
				seen.add(j)
				return readCapture(j)
			}); err != nil {
				t.Fatal(err)
			}
			if got := seen.get(hung); !slices.Equal(got, []int{2}) {
				t.Errorf("the killed worker's job %s ran with attempts %v, want once more as attempt 2", hung, got)
			}
			t.Logf("rescued and run %s after the kill", time.Since(start).Round(time.Millisecond))
		})
	}
}

// A SQLite queue whose only worker is killed mid-scan and then reopened
// resumes: the jobs it had recorded as done do not run again, the job in
// flight runs again, and enqueueing the whole list again adds nothing.
func TestSQLiteKilledAndResumed(t *testing.T) {
	const n, finish = 12, 5
	ctx := t.Context()
	dsn := sqliteDSN(t)
	jobs := corpusJobs(t, n)
	first := open(t, dsn)
	if _, err := first.Enqueue(ctx, jobs); err != nil {
		t.Fatal(err)
	}
	first.Close() // the scan that enqueued is gone too: the reopened queue is alone
	p := startWorker(t, dsn, finish)
	ran, hung := p.waitStarted(t)
	p.kill9(t)
	if len(ran) != finish {
		t.Fatalf("the worker reported %d jobs run before hanging, want %d", len(ran), finish)
	}

	q := open(t, dsn)
	done := doneKeys(t, q)
	if added, err := q.Enqueue(ctx, jobs); err != nil || added != 0 {
		t.Fatalf("Enqueue of the whole list again = %d, %v; want 0", added, err)
	}
	var seen tally
	if err := q.Work(ctx, Options{Workers: 2, Drain: true}, func(ctx context.Context, j Job) error {
		seen.add(j)
		return readCapture(j)
	}); err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		got := seen.get(j.Key)
		switch {
		case done[j.Key] && got != nil:
			t.Errorf("job %s was done before the kill and ran again (attempts %v)", j.Key, got)
		case !done[j.Key] && len(got) != 1:
			t.Errorf("job %s was not done before the kill and ran %d times after, want once", j.Key, len(got))
		}
	}
	if got := seen.get(hung); !slices.Equal(got, []int{2}) {
		t.Errorf("the job in flight at the kill, %s, ran with attempts %v, want [2]", hung, got)
	}
	for _, k := range ran {
		if !done[k] {
			t.Errorf("job %s, finished before the kill, was not recorded as done", k)
		}
	}
	if c, err := q.Counts(ctx); err != nil || c != (Counts{Done: n}) {
		t.Errorf("Counts = %+v, %v; want %d done", c, err, n)
	}
}

// doneKeys lists the keys of the jobs recorded as done.
func doneKeys(t *testing.T, q *Queue) map[string]bool {
	t.Helper()
	res, err := q.river.listJobs(t.Context(), river.NewJobListParams().States(rivertype.JobStateCompleted).First(10000))
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, j := range res.Jobs {
		var a jobArgs
		if err := json.Unmarshal(j.EncodedArgs, &a); err != nil {
			t.Fatal(err)
		}
		keys[a.Key] = true
	}
	return keys
}

// endHangs ends the time of the job "hangs" before its handler starts,
// as a timeout that fired would: a deadline already passed, no timer.
func endHangs(ctx context.Context, j Job) (context.Context, context.CancelFunc) {
	if j.Key == "hangs" {
		return context.WithDeadline(ctx, time.Unix(0, 0))
	}
	return ctx, func() {}
}

// Retries: a transient failure is retried with back-off up to Retries
// times, a permanent or unmarked one is not retried, and a job that
// outlives its timeout fails with a reason that says so.
func TestRetriesAndTimeout(t *testing.T) {
	for _, s := range stores(t) {
		for _, ahead := range []bool{false, true} {
			name := s.name
			if ahead {
				name += "/ahead"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				ctx := t.Context()
				q := open(t, s.dsn(t))
				keys := []string{"flaky", "down", "broken", "forbidden", "hangs"}
				var jobs []Job
				for _, k := range keys {
					jobs = append(jobs, Job{Key: k})
				}
				if _, err := q.Enqueue(ctx, jobs); err != nil {
					t.Fatal(err)
				}
				var seen tally
				// The timeout is long enough never to fire on a busy
				// machine; the job that hangs has its time ended for it.
				opts := Options{Workers: 5, Retries: 2, Backoff: time.Millisecond, Timeout: time.Hour, TimeoutSetting: "--timeout", Drain: true, endTime: endHangs}
				if ahead { // two workers and a job waiting for one
					opts.Workers, opts.Ahead = 2, true
				}
				err := q.Work(ctx, opts, func(ctx context.Context, j Job) error {
					seen.add(j)
					switch j.Key {
					case "flaky": // fails twice, then works
						if j.Attempt <= 2 {
							return Transient(errors.New("connection reset"))
						}
						return nil
					case "down":
						return Transient(errors.New("registry answered 503"))
					case "broken":
						return errors.New("no tools/list in the reply")
					case "forbidden":
						return Permanent(Transient(errors.New("401 from the registry")))
					case "hangs":
						<-ctx.Done()
						return ctx.Err()
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				want := map[string][]int{
					"flaky":     {1, 2, 3},
					"down":      {1, 2, 3},
					"broken":    {1},
					"forbidden": {1},
					"hangs":     {1},
				}
				for k, w := range want {
					if got := seen.get(k); !slices.Equal(got, w) {
						t.Errorf("job %s ran with attempts %v, want %v", k, got, w)
					}
				}
				failed, err := q.Failed(ctx)
				if err != nil {
					t.Fatal(err)
				}
				reasons := map[string]string{}
				for _, f := range failed {
					reasons[f.Key] = f.Reason
				}
				for k, want := range map[string]string{
					"down":      "registry answered 503 (failed 3 times, the last retry)",
					"broken":    "no tools/list in the reply",
					"forbidden": "401 from the registry",
					"hangs":     "timed out after 1h0m0s, the longest one attempt may run (--timeout): raise --timeout if the job needs longer",
				} {
					if !strings.Contains(reasons[k], want) {
						t.Errorf("job %s failed with %q, want it to say %q", k, reasons[k], want)
					}
				}
				if len(failed) != 4 {
					t.Errorf("Failed lists %d jobs, want 4: %+v", len(failed), failed)
				}
				if c, err := q.Counts(ctx); err != nil || c != (Counts{Done: 1, Failed: 4}) {
					t.Errorf("Counts = %+v, %v", c, err)
				}
			})
		}
	}
}

// A worker ended by its context puts the job in hand back, with the
// attempt not counted, for the next worker, and tells Options.PutBack
// which it put back.
func TestStopPutsJobBack(t *testing.T) {
	for _, s := range stores(t) {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			dsn := s.dsn(t)
			q := open(t, dsn)
			if _, err := q.Enqueue(t.Context(), []Job{{Key: "long"}}); err != nil {
				t.Fatal(err)
			}
			ctx, stop := context.WithCancel(t.Context())
			started := make(chan struct{})
			var mu sync.Mutex
			var back []string
			putBack := func(key string) {
				mu.Lock()
				defer mu.Unlock()
				back = append(back, key)
			}
			err := q.Work(ctx, Options{PutBack: putBack}, func(jctx context.Context, j Job) error {
				close(started)
				stop() // the worker is told to end while it has this job
				<-jctx.Done()
				return jctx.Err()
			})
			if err != nil {
				t.Fatal(err)
			}
			<-started
			mu.Lock()
			if strings.Join(back, " ") != "long" {
				t.Errorf("PutBack was told %q, want the job long once", back)
			}
			mu.Unlock()
			var seen tally
			if err := q.Work(t.Context(), Options{Drain: true}, func(ctx context.Context, j Job) error {
				seen.add(j)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if got := seen.get("long"); len(got) != 1 {
				t.Errorf("the job put back ran %v times after, want once", got)
			}
			if c, err := q.Counts(t.Context()); err != nil || c != (Counts{Done: 1}) {
				t.Errorf("Counts = %+v, %v", c, err)
			}
		})
	}
}

// A handler that declines a job (it was enqueued for other workers)
// stops its worker, which returns the handler's error, and leaves the
// job, its attempt not counted, for a worker that can do it; nothing is
// cancelled.
func TestDeclinePutsJobBack(t *testing.T) {
	for _, s := range stores(t) {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			q := open(t, s.dsn(t))
			if _, err := q.Enqueue(ctx, []Job{{Key: "a"}, {Key: "b"}, {Key: "c"}}); err != nil {
				t.Fatal(err)
			}
			refusal := errors.New("enqueued with other rubrics")
			err := q.Work(ctx, Options{Drain: true}, func(ctx context.Context, j Job) error {
				return Decline(fmt.Errorf("job %s: %w", j.Key, refusal))
			})
			if !errors.Is(err, refusal) || !IsDeclined(err) {
				t.Fatalf("Work of a worker that declines = %v, want the handler's error", err)
			}
			if c, err := q.Counts(ctx); err != nil || c != (Counts{Available: 3}) {
				t.Fatalf("Counts after the decline = %+v, %v; want 3 available", c, err)
			}
			var seen tally
			if err := q.Work(ctx, Options{Drain: true}, func(ctx context.Context, j Job) error {
				seen.add(j)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"a", "b", "c"} {
				if got := seen.get(k); !slices.Equal(got, []int{1}) {
					t.Errorf("job %s ran with attempts %v after the decline, want [1]", k, got)
				}
			}
		})
	}
}

// Requeue adds what the queue lacks and makes available again the jobs
// it holds finished that its Again names: failed ones only, or every
// finished one; a job waiting is left as it is.
func TestRequeue(t *testing.T) {
	for _, s := range stores(t) {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			q := open(t, s.dsn(t))
			jobs := []Job{{Key: "done"}, {Key: "failed"}}
			if _, err := q.Enqueue(ctx, jobs); err != nil {
				t.Fatal(err)
			}
			if err := q.Work(ctx, Options{Drain: true}, func(ctx context.Context, j Job) error {
				if j.Key == "failed" {
					return errors.New("broken")
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			jobs = append(jobs, Job{Key: "new"})
			if n, err := q.Enqueue(ctx, jobs); err != nil || n != 1 {
				t.Fatalf("Enqueue = %d, %v; want 1 (the new job)", n, err)
			}
			r, err := q.Requeue(ctx, jobs, AgainFailed)
			if err != nil || r != (Requeued{Again: 1, Done: 1}) {
				t.Fatalf("Requeue(AgainFailed) = %+v, %v; want 1 again and 1 done (left done)", r, err)
			}
			if c, err := q.Counts(ctx); err != nil || c != (Counts{Available: 2, Done: 1}) {
				t.Fatalf("Counts = %+v, %v; want 2 available and 1 done", c, err)
			}
			var seen tally
			if err := q.Work(ctx, Options{Drain: true}, func(ctx context.Context, j Job) error {
				seen.add(j)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if seen.get("failed") == nil || seen.get("new") == nil || seen.get("done") != nil {
				t.Fatalf("after Requeue(AgainFailed) the worker ran %v", seen.attempts)
			}
			if r, err := q.Requeue(ctx, jobs, AgainFinished); err != nil || r != (Requeued{Again: 3}) {
				t.Fatalf("Requeue(AgainFinished) = %+v, %v; want 3 made available again", r, err)
			}
			if c, err := q.Counts(ctx); err != nil || c != (Counts{Available: 3}) {
				t.Fatalf("Counts = %+v, %v; want 3 available", c, err)
			}
		})
	}
}

// TestPostgresRefusedOnce: a Postgres that refuses the connection is
// said once, with what to check, where pgx listed the refusal of each of
// its attempts (with TLS, then without) word for word.
func TestPostgresRefusedOnce(t *testing.T) {
	// Port 1 on loopback: nothing listens there, so the connection is
	// refused at once.
	// connect_timeout bounds the wait should a host drop the packets
	// rather than refuse them; the assertion reads no clock.
	_, err := Open(context.Background(), "postgres://rubric@127.0.0.1:1/none?connect_timeout=10")
	if err == nil {
		t.Fatal("a database on port 1 was opened")
	}
	msg := err.Error()
	if strings.Count(msg, "connection refused") != 1 || !strings.HasSuffix(msg, "(is Postgres running, and does the database exist?)") {
		t.Errorf("%q\nwant the refusal once, and what to check", msg)
	}
}

// TestOnceEach: repeated lines go, the first of each stays in its
// place, and the error is still the one it words.
func TestOnceEach(t *testing.T) {
	base := errors.New("failed:\n\ta: refused\n\ta: refused\n\tb: refused")
	got := onceEach(base)
	if got.Error() != "failed:\n\ta: refused\n\tb: refused" || !errors.Is(got, base) {
		t.Errorf("%q (is base: %v)", got, errors.Is(got, base))
	}
	if one := errors.New("one line"); onceEach(one) != one {
		t.Error("an error without repeated lines was reworded")
	}
}
