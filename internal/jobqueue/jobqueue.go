// Package jobqueue is a durable queue of keyed jobs on River
// (github.com/riverqueue/river), with SQLite as the embedded store for
// one machine and Postgres for a fleet of workers. Both stores go
// through the same code: only Open picks a River driver.
//
// A job is a key and an opaque payload. Enqueueing is idempotent by key,
// so a caller that was killed may enqueue its whole list again and only
// the missing jobs are added; a job that has finished (done or failed) is
// never run again. Work hands jobs to a handler with a per-job timeout,
// retries the errors marked Transient with exponential back-off and fails
// every other error at once. A job left running by a worker that died is
// taken back: at once by the next Queue opened on a database that no
// other Queue has open (the one-machine scan resumed after a crash), and
// otherwise by River's rescuer once it has run longer than
// Options.RescueAfter (a fleet where other workers go on).
//
// Limiter is a rate limit shared by every worker on the database, on any
// machine: a judge's requests per minute hold for the whole fleet.
package jobqueue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Job is one unit of work: Key names it (two jobs with one key are one
// job) and Payload is what the handler needs, opaque to the queue.
type Job struct {
	Key     string
	Payload []byte
	// Attempt is 1 the first time a job is handed to a handler and grows
	// by one on every retry (and when a dead worker's job is taken back).
	// Enqueue ignores it.
	Attempt int
}

// Handler does one job. It returns nil when the job is done, an error
// made with Transient to have it retried later, or any other error to fail
// it for good. It must stop when ctx ends (the per-job timeout, or the
// worker shutting down).
type Handler func(ctx context.Context, job Job) error

// Options says how Work runs jobs. The zero value runs one job at a time,
// with no timeout and no retry, until ctx ends.
type Options struct {
	// Workers is how many jobs this process runs at once (at least 1).
	Workers int
	// Timeout is the longest one attempt of a job may run; 0 means as long
	// as RescueAfter (River takes a job back only once it is past its
	// timeout). A job whose attempt times out fails (it is not retried
	// unless the handler returns a Transient error).
	Timeout time.Duration
	// TimeoutSetting is how the user sets Timeout ("--timeout", or a
	// config key), named with what to do in the reason of a job that
	// runs out of its time; "" names the queue's Timeout.
	TimeoutSetting string
	// Retries is how many times a job that failed with a Transient error
	// is tried again before it fails for good.
	Retries int
	// Backoff is the wait before the first retry; it doubles on each
	// later retry, up to MaxBackoff. 0 means one second.
	Backoff time.Duration
	// MaxBackoff caps the wait between retries; 0 means five minutes.
	MaxBackoff time.Duration
	// RescueAfter is how long a job may stay running before River's
	// rescuer, on whichever worker leads, takes it to belong to a dead
	// worker and makes it available again. It must exceed Timeout; 0 means
	// Timeout plus one minute, or one hour without a Timeout. The rescuer
	// looks when a worker becomes leader and then every 30 seconds.
	RescueAfter time.Duration
	// endTime, set by tests only, stands for the clock that ends a job's
	// time: it returns the handler's context for j, ended by a deadline
	// already passed when the test wants j to run out of time, so that
	// no test waits for a real timeout to fire.
	endTime func(ctx context.Context, j Job) (context.Context, context.CancelFunc)
	// Drain makes Work return once no job is left to run or running
	// anywhere on the queue (the one-machine scan). Without it Work runs
	// until ctx ends (a fleet worker).
	Drain bool
	// Ahead takes one job more than Workers from the queue, which waits
	// in this process until a worker is free: a worker that finishes a
	// job starts the next at once, instead of waiting for the database
	// to hand one over (on SQLite and a busy machine, 10 to 25 ms a job).
	// The job ahead counts as running: a killed worker's is taken back
	// with the others. It waits at most as long as a job runs, so
	// RescueAfter must exceed twice the Timeout (the default does).
	Ahead bool
	// PutBack, when set, is called with the key of each job this
	// process held and put back in the queue, not done, because Work
	// was stopped (its context ended): a job in hand, or one taken
	// ahead. Another worker, or this one run again, takes it. It may be
	// called from several goroutines at once.
	PutBack func(key string)
}

// Counts is how many jobs the queue holds in each state.
type Counts struct {
	// Available are waiting to run, including those waiting for a retry.
	Available int
	// Running are being worked on now (or by a worker that died and whose
	// jobs are not yet taken back).
	Running int
	// Done finished without error.
	Done int
	// Failed failed for good: a permanent error, a timeout, or a transient
	// error after every retry.
	Failed int
}

// Again says which jobs Requeue makes available again when the queue
// holds them finished.
type Again int

const (
	// AgainFailed runs again the jobs that failed for good.
	AgainFailed Again = iota + 1
	// AgainFinished runs again every finished job, done or failed: the
	// caller knows better than the queue what is done.
	AgainFinished
)

// Failure is a job that failed for good and the error of its last attempt.
type Failure struct {
	Key      string
	Reason   string
	Attempts int
}

// transientError marks an error worth retrying.
type transientError struct{ err error }

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

// Transient marks err as worth retrying (a network hiccup, a registry that
// answered 503, a server that did not start in time): Work runs the job
// again after a back-off, up to Options.Retries times. Transient(nil) is
// nil.
func Transient(err error) error {
	if err == nil {
		return nil
	}
	return &transientError{err: err}
}

// IsTransient reports whether err, or an error it wraps, was marked with
// Transient.
func IsTransient(err error) bool {
	var t *transientError
	return errors.As(err, &t)
}

// Permanent marks err as not worth retrying. Work already fails unmarked
// errors for good; Permanent says so where a reader might wonder, and
// takes precedence over a Transient error that it wraps.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Decline marks err as a job this worker may not do, though another can
// (it was enqueued for workers set up otherwise): Work puts the job back
// untouched, its attempt not counted, takes no other job, lets those in
// hand finish, and returns err. Decline(nil) is nil.
func Decline(err error) error {
	if err == nil {
		return nil
	}
	return &declinedError{err: err}
}

type declinedError struct{ err error }

func (e *declinedError) Error() string { return e.err.Error() }
func (e *declinedError) Unwrap() error { return e.err }

// IsDeclined reports whether err, or an error it wraps, was marked with
// Decline.
func IsDeclined(err error) bool {
	var d *declinedError
	return errors.As(err, &d)
}

// retryable reports whether Work should retry err: it is marked Transient
// and not Permanent.
func retryable(err error) bool {
	var p *permanentError
	if errors.As(err, &p) {
		return false
	}
	return IsTransient(err)
}

// backoff is the wait before retry number n (1 for the first retry).
func backoff(opts Options, n int) time.Duration {
	base := opts.Backoff
	if base <= 0 {
		base = time.Second
	}
	limit := opts.MaxBackoff
	if limit <= 0 {
		limit = 5 * time.Minute
	}
	d := base
	for i := 1; i < n; i++ {
		d *= 2
		if d >= limit {
			return limit
		}
	}
	return min(d, limit)
}

// rescueAfter is Options.RescueAfter with its default filled in.
func (o Options) rescueAfter() time.Duration {
	switch {
	case o.RescueAfter > 0:
		return o.RescueAfter
	case o.Timeout > 0 && o.Ahead:
		return 2*o.Timeout + time.Minute
	case o.Timeout > 0:
		return o.Timeout + time.Minute
	default:
		return time.Hour
	}
}

// timedOut is the reason of a job whose attempt ran out of its time,
// limit, with the handler's err: it names the setting that set limit and
// what to do. Without a Timeout, limit is the rescue delay, which bounds
// an attempt all the same (River takes back only a job past its
// timeout), whatever bound the handler keeps itself.
func (o Options) timedOut(limit time.Duration, err error) error {
	setting := o.TimeoutSetting
	if setting == "" {
		setting = "the queue's timeout"
	}
	if o.Timeout > 0 {
		return fmt.Errorf("timed out after %s, the longest one attempt may run (%s): raise %s if the job needs longer: %w", limit, setting, setting, err)
	}
	return fmt.Errorf("timed out after %s, the queue's rescue delay, which ends every attempt that %s does not end sooner (a job running longer is taken for one whose worker died): give %s a bound below it, for the job to stop on its own, or raise the rescue delay (RescueAfter): %w", limit, setting, setting, err)
}

func (o Options) check() error {
	if o.Workers < 0 || o.Retries < 0 || o.Timeout < 0 {
		return fmt.Errorf("jobqueue: workers, retries and timeout cannot be negative (got %d, %d, %s)", o.Workers, o.Retries, o.Timeout)
	}
	if o.Timeout > 0 && o.RescueAfter > 0 && o.RescueAfter <= o.Timeout {
		return fmt.Errorf("jobqueue: the rescue delay (%s) must be longer than the per-job timeout (%s), or a slow job would run twice", o.RescueAfter, o.Timeout)
	}
	if o.Ahead && o.Timeout > 0 && o.RescueAfter > 0 && o.RescueAfter <= 2*o.Timeout {
		return fmt.Errorf("jobqueue: with a job taken ahead, the rescue delay (%s) must be longer than twice the per-job timeout (%s): the job ahead may wait for one job to end, then run its own", o.RescueAfter, o.Timeout)
	}
	return nil
}

// kind of store a DSN names.
type store int

const (
	storeSQLite store = iota
	storePostgres
)

// parseDSN tells which store a DSN names and what to hand its driver.
func parseDSN(dsn string) (store, string, error) {
	switch {
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(dsn, "sqlite:")
		path = strings.TrimPrefix(path, "//")
		if path == "" {
			return 0, "", fmt.Errorf("queue database %q names no file: write sqlite:PATH, for example sqlite:scan/queue.db", dsn)
		}
		return storeSQLite, path, nil
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return storePostgres, dsn, nil
	}
	return 0, "", &DSNError{DSN: dsn}
}

// DSNError is the error of a DSN that names neither store, so that a
// command can say which values its flag takes.
type DSNError struct{ DSN string }

// Error names the DSN and the two shapes a DSN takes. The example has no
// USER@: a credential's place in a URL is redacted from what rubric
// prints, and the example would read "postgres://[redacted]@HOST/DB".
func (e *DSNError) Error() string {
	return fmt.Sprintf("queue database %q is neither sqlite:PATH nor postgres://HOST/DB: give one of those", e.DSN)
}
