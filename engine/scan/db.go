package scan

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/rubricmcp/rubric/internal/jobqueue"
)

// DB is a queue in a database (internal/jobqueue on River: SQLite on one
// machine, Postgres for a fleet). A job is enqueued once by its key, so a
// list enqueued again after a crash adds only what is missing, and a job
// a killed worker held is taken up again.
type DB struct {
	Queue *jobqueue.Queue
	// Drain makes Work return once no job is left anywhere on the queue
	// (the scan on one machine); without it Work runs until ctx ends (a
	// worker of a fleet).
	Drain bool
	// PutBack, when set, is told the key of each job a worker stopped
	// by its context held and put back in the queue, not done.
	PutBack func(key string)
}

// Add enqueues jobs, each with its job as the payload. They are the jobs
// whose record the scan's directory lacks, which are not done whatever
// the queue says: a job it holds finished (cancelled by an older worker
// run with other rubrics, say, or done into another directory) is made
// available again.
func (d DB) Add(ctx context.Context, jobs []Job) error {
	q, err := payloads(jobs)
	if err != nil {
		return err
	}
	_, err = d.Queue.Requeue(ctx, q, jobqueue.AgainFinished)
	return err
}

// Enqueue enqueues jobs, each with its job as the payload, for workers
// whose records the run cannot see. It says how many the queue did not
// hold (Added), how many it held failed or cancelled, which are not
// done and are made available again (Again), and how many it held done
// (Done): a job it holds (by its key) keeps the payload the run that
// enqueued it wrote.
func (d DB) Enqueue(ctx context.Context, jobs []Job) (jobqueue.Requeued, error) {
	q, err := payloads(jobs)
	if err != nil {
		return jobqueue.Requeued{}, err
	}
	return d.Queue.Requeue(ctx, q, jobqueue.AgainFailed)
}

// payloads are jobs as the queue keeps them.
func payloads(jobs []Job) ([]jobqueue.Job, error) {
	q := make([]jobqueue.Job, len(jobs))
	for i, j := range jobs {
		payload, err := json.Marshal(j)
		if err != nil {
			return nil, err
		}
		q[i] = jobqueue.Job{Key: j.Key, Payload: payload}
	}
	return q, nil
}

// Work runs the queue's jobs with n workers in this process, a job
// taken ahead so that a worker that finishes one starts the next at
// once. The scanner times each job itself (timeout, the scan's
// --timeout): the queue keeps no timeout of its own, which would race
// the scanner's, and takes a job back only well after it.
func (d DB) Work(ctx context.Context, n int, timeout time.Duration, handle func(context.Context, Job) error) error {
	return d.Queue.Work(ctx, workOptions(n, d, timeout), func(ctx context.Context, qj jobqueue.Job) error {
		var j Job
		if err := json.Unmarshal(qj.Payload, &j); err != nil {
			return jobqueue.Permanent(fmt.Errorf("job %s: %w", qj.Key, err))
		}
		return handle(ctx, j)
	})
}

// UnboundedRescue is how long a database queue lets a job of a scan run
// with --timeout 0 before it takes the job to belong to a dead worker
// (River's rescuer takes back only a job running longer, so that bounds
// the job all the same): a day. A queue reopened by a worker alone takes
// a killed worker's jobs back at once, whatever this says.
const UnboundedRescue = 24 * time.Hour

// workOptions runs n workers, a job taken ahead, on d's queue for jobs
// the scanner bounds by timeout itself. A job taken ahead waits for one
// job to end, then runs its own, so it may be held twice timeout: the
// rescue delay is longer still, by a minute, and the scanner's own cut
// (and its reason) always comes first. Without it, the queue's default
// rescue delay of an hour cut every job at an hour, --timeout 2h or 0.
func workOptions(n int, d DB, timeout time.Duration) jobqueue.Options {
	rescue := UnboundedRescue
	if timeout > 0 {
		rescue = 2*timeout + time.Minute
	}
	return jobqueue.Options{Workers: n, Drain: d.Drain, Ahead: true, PutBack: d.PutBack, RescueAfter: rescue, TimeoutSetting: "--timeout"}
}
