package jobqueue

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
	"modernc.org/sqlite" // the pure-Go SQLite behind sqlite: DSNs
)

// jobKind is the River kind of every job this package enqueues.
const jobKind = "rubric_jobqueue"

// maxAttempts bounds River's own attempt count; Options.Retries is the
// limit that matters, enforced in Work.
const maxAttempts = 1000

// insertBatch is how many jobs one InsertMany call carries.
const insertBatch = 500

// jobArgs is a Job as River stores it. Only the key makes a job unique.
type jobArgs struct {
	Key     string `json:"key" river:"unique"`
	Payload []byte `json:"payload,omitempty"`
}

func (jobArgs) Kind() string { return jobKind }

// Queue is an open job queue. Its methods are safe to call from several
// goroutines; Work may run several times at once (each its own River
// client).
type Queue struct {
	store  store
	db     *sql.DB // the database, for the rate-limit table
	river  backend
	lock   presence
	closed func()
	// closeOnce makes Close safe to call twice.
	closeOnce sync.Once
	logger    *slog.Logger

	// clock is the time the rate limiter reads; tests replace it.
	clock clock
}

// backend is what Queue needs of River, whichever driver it runs on:
// the one place where SQLite and Postgres differ is the type parameter.
type backend interface {
	insertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)
	listJobs(ctx context.Context, params *river.JobListParams) (*river.JobListResult, error)
	retry(ctx context.Context, id int64) error
	executor() riverdriver.Executor
	newClient(cfg *river.Config) (runner, error)
}

// runner is a River client that works jobs.
type runner interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	StopAndCancel(ctx context.Context) error
	Subscribe(kinds ...river.EventKind) (<-chan *river.Event, func())
}

// riverBackend runs River on one driver.
type riverBackend[TTx any] struct {
	driver riverdriver.Driver[TTx]
	client *river.Client[TTx] // insert-only: no workers
}

func newBackend[TTx any](ctx context.Context, driver riverdriver.Driver[TTx], logger *slog.Logger) (*riverBackend[TTx], error) {
	migrator, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: logger})
	if err != nil {
		return nil, err
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return nil, fmt.Errorf("creating the queue's tables: %w", err)
	}
	client, err := river.NewClient(driver, &river.Config{Logger: logger})
	if err != nil {
		return nil, err
	}
	return &riverBackend[TTx]{driver: driver, client: client}, nil
}

func (b *riverBackend[TTx]) insertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error) {
	return b.client.InsertMany(ctx, params)
}

func (b *riverBackend[TTx]) listJobs(ctx context.Context, params *river.JobListParams) (*river.JobListResult, error) {
	return b.client.JobList(ctx, params)
}

func (b *riverBackend[TTx]) retry(ctx context.Context, id int64) error {
	_, err := b.client.JobRetry(ctx, id)
	return err
}

func (b *riverBackend[TTx]) executor() riverdriver.Executor { return b.driver.GetExecutor() }

func (b *riverBackend[TTx]) newClient(cfg *river.Config) (runner, error) {
	return river.NewClient(b.driver, cfg)
}

// Open opens the queue that dsn names, creating its tables if needed:
// sqlite:PATH for a file on this machine (created if missing), or
// postgres://USER@HOST/DB for a database that workers on many machines
// share. If no other Queue has the database open, every job left running
// by a worker that died is made available again at once.
func Open(ctx context.Context, dsn string) (*Queue, error) {
	kind, target, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	q := &Queue{store: kind, logger: slog.New(slog.NewTextHandler(io.Discard, nil)), clock: realClock{}}
	switch kind {
	case storeSQLite:
		err = q.openSQLite(ctx, target)
	case storePostgres:
		err = q.openPostgres(ctx, target)
	}
	if err != nil {
		return nil, err
	}
	return q, nil
}

func (q *Queue) openSQLite(ctx context.Context, path string) (err error) {
	lock, err := lockFiles(path)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			lock.close()
		}
	}()
	// WAL lets readers go on while one process writes; busy_timeout makes
	// a second process wait for the write lock instead of failing. River
	// asks for a single connection per process, which keeps the
	// statements it prepared (stmtCacheConnector).
	conn, err := sqlite.NewConnector("file:" + path + "?_pragma=busy_timeout(60000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate")
	if err != nil {
		return fmt.Errorf("opening queue %s: %w", path, err)
	}
	db := sql.OpenDB(stmtCacheConnector{conn})
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return fmt.Errorf("opening queue %s: %w (is the directory there and writable?)", path, err)
	}
	q.db, q.lock, q.closed = db, lock, func() { db.Close() }
	return q.setUp(ctx, func() (backend, error) {
		return newBackend(ctx, riversqlite.New(db), q.logger)
	})
}

func (q *Queue) openPostgres(ctx context.Context, dsn string) (err error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return fmt.Errorf("reading the queue database's address: %w", err)
	}
	// One connection holds this Queue's lock and River listens on
	// another: pgx's default of four (on a small machine) leaves too few
	// for River's producer, completer and leader, unless the DSN chose.
	if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = max(cfg.MaxConns, 12)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("opening queue database: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return fmt.Errorf("opening queue database: %w (is Postgres running, and does the database exist?)", onceEach(err))
	}
	lock, err := lockPostgres(ctx, pool)
	if err != nil {
		pool.Close()
		return err
	}
	db := stdlib.OpenDBFromPool(pool)
	q.db, q.lock = db, lock
	q.closed = func() { db.Close(); pool.Close() }
	return q.setUp(ctx, func() (backend, error) {
		return newBackend(ctx, riverpgxv5.New(pool), q.logger)
	})
}

// setUp runs while the store's opening lock is held: it creates the
// tables, then, if no other Queue is open, takes back orphaned jobs.
func (q *Queue) setUp(ctx context.Context, newRiver func() (backend, error)) error {
	fail := func(err error) error {
		q.lock.close()
		q.closed()
		return err
	}
	alone, err := q.lock.enter(ctx)
	if err != nil {
		return fail(err)
	}
	defer q.lock.opened()
	if q.river, err = newRiver(); err != nil {
		return fail(err)
	}
	if err := q.createTables(ctx); err != nil {
		return fail(err)
	}
	if alone {
		if err := q.takeBackRunning(ctx); err != nil {
			return fail(err)
		}
	}
	return nil
}

// takeBackRunning makes every running job available again. Only called
// when no other Queue has the database open, so that no worker is alive
// to be running them.
func (q *Queue) takeBackRunning(ctx context.Context) error {
	exec := q.river.executor()
	now := time.Now().UTC()
	var after int64
	for {
		stuck, err := exec.JobGetStuck(ctx, &riverdriver.JobGetStuckParams{AfterID: after, Max: 1000, StuckHorizon: now.Add(time.Hour)})
		if err != nil {
			return fmt.Errorf("finding jobs left running: %w", err)
		}
		if len(stuck) == 0 {
			return nil
		}
		p := &riverdriver.JobRescueManyParams{StuckHorizon: now.Add(time.Hour)}
		for _, j := range stuck {
			msg, _ := json.Marshal(rivertype.AttemptError{At: now, Attempt: j.Attempt, Error: "the worker running this job stopped (killed or crashed); taken back when the queue was opened again"})
			p.ID = append(p.ID, j.ID)
			p.Error = append(p.Error, msg)
			p.FinalizedAt = append(p.FinalizedAt, nil)
			p.ScheduledAt = append(p.ScheduledAt, now)
			p.State = append(p.State, string(rivertype.JobStateAvailable))
		}
		if _, err := exec.JobRescueMany(ctx, p); err != nil {
			return fmt.Errorf("taking back jobs left running: %w", err)
		}
		after = stuck[len(stuck)-1].ID
	}
}

// Close releases the database. Jobs a Work call is running are not
// waited for: end Work first.
func (q *Queue) Close() error {
	q.closeOnce.Do(func() {
		q.lock.close()
		q.closed()
	})
	return nil
}

// Enqueue adds jobs whose key the queue has never held, in order, and
// says how many it added. A key already there, in any state, is skipped:
// enqueueing a list again after a crash adds only what is missing.
func (q *Queue) Enqueue(ctx context.Context, jobs []Job) (added int, err error) {
	return q.enqueue(ctx, jobs, nil)
}

// enqueue is Enqueue, calling held, when it is not nil, with the row of
// each job the queue held already.
func (q *Queue) enqueue(ctx context.Context, jobs []Job, held func(*rivertype.JobRow)) (added int, err error) {
	opts := &river.InsertOpts{
		MaxAttempts: maxAttempts,
		UniqueOpts: river.UniqueOpts{
			ByArgs: true,
			ByState: []rivertype.JobState{
				rivertype.JobStateAvailable, rivertype.JobStateCancelled, rivertype.JobStateCompleted,
				rivertype.JobStateDiscarded, rivertype.JobStatePending, rivertype.JobStateRetryable,
				rivertype.JobStateRunning, rivertype.JobStateScheduled,
			},
		},
	}
	for start := 0; start < len(jobs); start += insertBatch {
		batch := jobs[start:min(start+insertBatch, len(jobs))]
		params := make([]river.InsertManyParams, len(batch))
		for i, j := range batch {
			if j.Key == "" {
				return added, fmt.Errorf("job %d has no key: every job needs one, so that enqueueing it twice adds it once", start+i+1)
			}
			params[i] = river.InsertManyParams{Args: jobArgs{Key: j.Key, Payload: j.Payload}, InsertOpts: opts}
		}
		res, err := q.river.insertMany(ctx, params)
		if err != nil {
			return added, fmt.Errorf("enqueueing jobs: %w", err)
		}
		for _, r := range res {
			switch {
			case !r.UniqueSkippedAsDuplicate:
				added++
			case held != nil && r.Job != nil:
				held(r.Job)
			}
		}
	}
	return added, nil
}

// Requeued is what Requeue did with a list of jobs.
type Requeued struct {
	// Added is how many jobs the queue did not hold; Again how many it
	// held finished that Requeue made available again; Done how many it
	// held completed and left so (under AgainFailed).
	Added, Again, Done int
}

// Requeue enqueues jobs as Enqueue does, and makes available again each
// job the queue held finished that again names (a job waiting or running
// is left as it is). It says how many it added, how many it made
// available again and how many it held done and left done; the payload
// of a job made available again is the one it was first enqueued with.
func (q *Queue) Requeue(ctx context.Context, jobs []Job, again Again) (Requeued, error) {
	var held []int64
	var r Requeued
	added, err := q.enqueue(ctx, jobs, func(j *rivertype.JobRow) {
		switch j.State {
		case rivertype.JobStateCancelled, rivertype.JobStateDiscarded:
			held = append(held, j.ID)
		case rivertype.JobStateCompleted:
			if again == AgainFinished {
				held = append(held, j.ID)
			} else {
				r.Done++
			}
		}
	})
	r.Added = added
	if err != nil {
		return r, err
	}
	for _, id := range held {
		if err := q.river.retry(ctx, id); err != nil {
			return r, fmt.Errorf("enqueueing a finished job again: %w", err)
		}
		r.Again++
	}
	return r, nil
}

// Counts says how many jobs are in each state, over the whole queue.
func (q *Queue) Counts(ctx context.Context) (Counts, error) {
	by, err := q.river.executor().JobCountByAllStates(ctx, &riverdriver.JobCountByAllStatesParams{})
	if err != nil {
		return Counts{}, fmt.Errorf("counting jobs: %w", err)
	}
	return Counts{
		Available: by[rivertype.JobStateAvailable] + by[rivertype.JobStateScheduled] + by[rivertype.JobStateRetryable] + by[rivertype.JobStatePending],
		Running:   by[rivertype.JobStateRunning],
		Done:      by[rivertype.JobStateCompleted],
		Failed:    by[rivertype.JobStateDiscarded] + by[rivertype.JobStateCancelled],
	}, nil
}

// Failed lists the jobs that failed for good, oldest first, with the
// error of each one's last attempt.
func (q *Queue) Failed(ctx context.Context) ([]Failure, error) {
	var out []Failure
	params := river.NewJobListParams().States(rivertype.JobStateDiscarded, rivertype.JobStateCancelled).
		OrderBy(river.JobListOrderByID, river.SortOrderAsc).First(1000)
	for {
		res, err := q.river.listJobs(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("listing failed jobs: %w", err)
		}
		for _, j := range res.Jobs {
			var a jobArgs
			if err := json.Unmarshal(j.EncodedArgs, &a); err != nil {
				return nil, fmt.Errorf("reading failed job %d: %w", j.ID, err)
			}
			f := Failure{Key: a.Key, Attempts: j.Attempt}
			if n := len(j.Errors); n > 0 {
				f.Reason = j.Errors[n-1].Error
			}
			out = append(out, f)
		}
		if len(res.Jobs) == 0 || res.LastCursor == nil {
			return out, nil
		}
		params = params.After(res.LastCursor)
	}
}

// Work runs jobs with handle until ctx ends, or, with Options.Drain,
// until no job is left to run or running anywhere on the queue. When ctx
// ends, the jobs in hand are cancelled and put back to run again; Work
// then returns nil (ending a worker is not an error). When a handler
// declines its job (Decline), that job is put back the same way, Work
// takes no other, lets the jobs in hand finish and returns the
// handler's error.
func (q *Queue) Work(ctx context.Context, opts Options, handle Handler) error {
	if err := opts.check(); err != nil {
		return err
	}
	// quit ends when ctx does or a handler declines a job: either way
	// the jobs in hand are put back.
	quit, stopQuit := context.WithCancel(ctx)
	defer stopQuit()
	w := &worker{opts: opts, handle: handle, quit: quit, decline: stopQuit}
	slots := max(opts.Workers, 1) // jobs River runs at once
	if opts.Ahead {
		w.free = make(chan struct{}, slots)
		slots++
	}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, w); err != nil {
		return err
	}
	// River rescues a job only once it is past its timeout, so a job
	// always has one: without Options.Timeout, the rescue delay. A job
	// taken ahead may first wait for a job to end: River's timeout covers
	// both, and the worker times the handler itself.
	jobTimeout := opts.Timeout
	if jobTimeout == 0 {
		jobTimeout = opts.rescueAfter()
	}
	w.timeout = jobTimeout
	riverTimeout := jobTimeout
	if opts.Ahead && opts.Timeout > 0 {
		riverTimeout = 2 * opts.Timeout
	}
	client, err := q.river.newClient(&river.Config{
		Logger:                      q.logger,
		Workers:                     workers,
		Queues:                      map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: slots}},
		JobTimeout:                  riverTimeout,
		RescueStuckJobsAfter:        opts.rescueAfter(),
		RetryPolicy:                 retryPolicy{opts: opts, now: time.Now},
		MaxAttempts:                 maxAttempts,
		CompletedJobRetentionPeriod: -1, // a done job must stay done when its list is enqueued again
		CancelledJobRetentionPeriod: -1,
		DiscardedJobRetentionPeriod: -1,
		FetchPollInterval:           100 * time.Millisecond,
		FetchCooldown:               10 * time.Millisecond,
		// River's SQLite listener is no LISTEN but a query of a
		// notifications table every 50 ms, on the process's one
		// connection, which the worker's fetches and completions then
		// wait for (in BenchmarkWork, a tenth of the queue's CPU). What
		// it would bring, a job inserted by another process, the fetch
		// poll finds within 100 ms; jobs are not cancelled or queues
		// paused from outside here. Postgres keeps LISTEN, which costs
		// nothing while it waits.
		PollOnly: q.store == storeSQLite,
	})
	if err != nil {
		return fmt.Errorf("starting workers: %w", err)
	}
	events, stopEvents := client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed, river.EventKindJobCancelled, river.EventKindJobSnoozed)
	defer stopEvents()
	runCtx, cancelRun := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelRun()
	if err := client.Start(runCtx); err != nil {
		return fmt.Errorf("starting workers: %w", err)
	}
	var waitErr error
	if opts.Drain {
		waitErr = q.waitDrained(quit, events, &w.inHand)
	} else {
		<-quit.Done()
	}
	w.stopping.Store(true)
	stopCtx := context.WithoutCancel(ctx)
	// Ended by ctx, the jobs in hand are cancelled and put back; after a
	// decline they are finished first (only the declined job goes back).
	if ctx.Err() != nil {
		err = client.StopAndCancel(stopCtx)
	} else {
		err = client.Stop(stopCtx)
	}
	if err != nil && waitErr == nil {
		waitErr = fmt.Errorf("stopping workers: %w", err)
	}
	if d := w.declined.Load(); d != nil {
		return *d
	}
	return waitErr
}

// waitDrained returns once the queue holds no job that is waiting or
// running. It counts the queue only while this process has no job in
// hand (inHand is 0): while it has one, the queue is not drained, and a
// count per job would cost a scan of the job table each time (the count
// grows with the queue). It looks again on each of River's job events
// here, and now and then, since another worker's jobs end without an
// event here.
func (q *Queue) waitDrained(ctx context.Context, events <-chan *river.Event, inHand *atomic.Int64) error {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if inHand.Load() == 0 {
			c, err := q.Counts(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
			if c.Available == 0 && c.Running == 0 {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-events:
		case <-tick.C:
		}
	}
}

// worker adapts a Handler to River.
type worker struct {
	river.WorkerDefaults[jobArgs]
	opts     Options
	timeout  time.Duration
	handle   Handler
	stopping atomic.Bool
	// inHand is how many jobs this process's handlers are working on.
	inHand atomic.Int64
	// free holds a token for each worker busy with a job, when a job is
	// taken ahead (Options.Ahead): River runs one job more than there
	// are workers, and that one waits here for a worker.
	free chan struct{}
	// quit is Work's context: once it ends, an error is the shutdown
	// interrupting the job, even before stopping is set. decline ends it
	// when a handler declines a job, the first of which declined keeps.
	quit     context.Context
	decline  context.CancelFunc
	declined atomic.Pointer[error]
}

func (w *worker) Work(ctx context.Context, j *river.Job[jobArgs]) error {
	if w.free != nil {
		select {
		case w.free <- struct{}{}:
			defer func() { <-w.free }()
		case <-ctx.Done():
			// Stopped (or, which the timeouts rule out, timed out)
			// before a worker was free: the job was not started, and
			// waits for the next worker.
			w.putBack(j.Args.Key)
			return river.JobSnooze(0)
		}
		if w.opts.Timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, w.opts.Timeout)
			defer cancel()
		}
	}
	w.inHand.Add(1)
	defer w.inHand.Add(-1)
	job := Job{Key: j.Args.Key, Payload: j.Args.Payload, Attempt: j.Attempt}
	if w.opts.endTime != nil {
		var cancel context.CancelFunc
		ctx, cancel = w.opts.endTime(ctx, job)
		defer cancel()
	}
	err := w.handle(ctx, job)
	switch {
	case err == nil:
		return nil
	case IsDeclined(err):
		// Another worker may do it: it goes back untouched, and this
		// worker stops.
		w.declined.CompareAndSwap(nil, &err)
		w.decline()
		return river.JobSnooze(0)
	case w.stopping.Load() || w.quit.Err() != nil:
		// The worker is shutting down: this attempt does not count, and
		// the job waits for the next worker.
		w.putBack(job.Key)
		return river.JobSnooze(0)
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && !retryable(err):
		return river.JobCancel(w.opts.timedOut(w.timeout, err))
	case retryable(err) && job.Attempt <= w.opts.Retries:
		return err
	case retryable(err):
		return river.JobCancel(fmt.Errorf("%w (failed %d times, the last retry)", err, job.Attempt))
	default:
		return river.JobCancel(err)
	}
}

// putBack tells Options.PutBack of the job of key, put back because
// the worker is stopping.
func (w *worker) putBack(key string) {
	if w.opts.PutBack != nil {
		w.opts.PutBack(key)
	}
}

// retryPolicy waits Options.Backoff before the first retry, doubling.
type retryPolicy struct {
	opts Options
	now  func() time.Time
}

// NextRetry is when River runs a job again after its failed attempt
// number j.Attempt.
func (p retryPolicy) NextRetry(j *rivertype.JobRow) time.Time {
	return p.now().Add(backoff(p.opts, max(j.Attempt, 1)))
}

// presence is a store's lock that tells whether a Queue is the only one
// open on the database.
type presence interface {
	// enter waits for the right to set up the database (one opener at a
	// time) and says whether no other Queue has it open.
	enter(ctx context.Context) (alone bool, err error)
	// opened ends setting up: other openers may go on. This Queue stays
	// counted as open until close.
	opened()
	close()
}

// onceEach is err with each line of its message said once: pgx tries a
// server again without TLS when sslmode prefers it, and lists the same
// refusal for each attempt.
func onceEach(err error) error {
	lines := strings.Split(err.Error(), "\n")
	kept := lines[:0:0]
	for _, l := range lines {
		if !slices.Contains(kept, l) {
			kept = append(kept, l)
		}
	}
	if len(kept) == len(lines) {
		return err
	}
	return &reworded{msg: strings.Join(kept, "\n"), err: err}
}

// reworded is an error said in other words, which still is what it
// wraps (errors.Is, errors.As).
type reworded struct {
	msg string
	err error
}

// Error returns the words.
func (e *reworded) Error() string { return e.msg }

// Unwrap returns the error reworded.
func (e *reworded) Unwrap() error { return e.err }
