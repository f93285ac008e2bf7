package scan

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/internal/deadline"
	"github.com/rubricmcp/rubric/internal/jobqueue"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/internal/words"
)

// Key sets each job's key: the sha256 of its identity and the digests of
// the rubrics, in hex, cut to its first 32 digits. A scan run again with
// the same rubrics finds the same keys, and so the jobs it has done.
func Key(jobs []Job, rubrics []*rubric.Rubric) {
	digests := make([]string, len(rubrics))
	names := make([]string, len(rubrics))
	for i, r := range rubrics {
		digests[i] = r.Digest
		names[i] = r.Name + " " + shortDigest(r.Digest)
	}
	slices.Sort(digests)
	for i := range jobs {
		jobs[i].Rubrics = names
		h := sha256.New()
		io.WriteString(h, jobs[i].Identity)
		for _, d := range digests {
			io.WriteString(h, "\n"+d)
		}
		jobs[i].Key = hex.EncodeToString(h.Sum(nil))[:32]
	}
}

// Scanner does the jobs of one scan: each is installed when it must
// be, read, scored with every rubric and stored under Out.
type Scanner struct {
	// Out is the scan's directory.
	Out     string
	Rubrics []*rubric.Rubric
	// NewSession returns a session for one worker; sessions share the
	// answer cache, so no question is asked twice.
	NewSession func() *run.Session
	// Installer installs packages; nil means Commands{}.
	Installer Installer
	// Timeout bounds one job (install, read, score); 0 means none.
	Timeout time.Duration
	// Deadline, when set, replaces context.WithTimeoutCause for a job's
	// Timeout: a test ends the job's time at the stage it has reached,
	// not when a clock says. The context it returns ends with cause
	// (context.Cause) once the time is up.
	Deadline func(ctx context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc)
	// Attempts is how often installing and starting a server are tried
	// before the job fails (transient failures: a registry's hiccup, a
	// slow first start); 0 means 1. The wait between two is Backoff,
	// doubled each time.
	Attempts int
	Backoff  time.Duration
	// Sleep waits d or until ctx ends; nil means a timer. Clock is the
	// time; nil means time.Now. Tests inject both.
	Sleep func(ctx context.Context, d time.Duration) error
	Clock func() time.Time
	// Log receives a line per job; nil discards.
	Log hclog.Logger
	// Progress, when set, is called after each change of the counts.
	Progress func(Progress)
	// Started, when set, is called as each job starts, with its key (a
	// test's signal that the scan is at that stage).
	Started func(Job)
	// List, when set, is recorded in scan.json: the list the scan is run
	// from and its shard (see ListOf); a worker has none.
	List *ListRecord
	// Settings are recorded in scan.json: what the scores depend on
	// beside the rubrics (the judge's flags). A scan resumed with other
	// values is refused.
	Settings []Setting
	// Say, when set, is told what a run assumes of a directory an older
	// rubric wrote, a line each.
	Say func(string)
	// Hide, when set, is told the values no log line may show of each
	// job as it starts: its secrets (Job.Secrets) and the values of its
	// environment and headers (redact.Credentials), which a server may print
	// back on its stderr, logged at debug level. The session hides them
	// from records and messages itself.
	Hide func(values ...string)

	once     sync.Once
	sessions chan *run.Session
	all      []*run.Session
	mu       sync.Mutex
	counts   Progress
	ran      Ran
	kept     map[string]bool // the keys of the jobs found done
	start    time.Time
}

// Ran is what one Scanner did, as opposed to the leaderboard's Totals,
// which sum every record of the scan's directory, earlier runs' too:
// Scored, Failed and the tools and judge calls are of the jobs done
// now; Kept counts the jobs found done (by an earlier run or worker) and
// left as they were, and Servers is all three.
type Ran struct {
	Totals
	Kept int
}

// Ran returns what s has done so far.
func (s *Scanner) Ran() Ran {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.ran
	r.Kept = len(s.kept)
	r.Servers += r.Kept
	return r
}

// keep counts the job of key as found done, once: a queue may hand out
// a job Pending found done (its record was stored, but the run was
// stopped before the queue heard of it). It is called under s.mu.
func (s *Scanner) keep(key string) {
	if s.kept == nil {
		s.kept = map[string]bool{}
	}
	s.kept[key] = true
}

// Progress is how far a scan is: jobs done, failed, in flight, left.
type Progress struct {
	Total, Done, Failed, InFlight, Skipped int
	// Elapsed since the scan started; ETA is the time left at the rate
	// so far (0 when nothing is done yet).
	Elapsed, ETA time.Duration
}

// String is the progress on one line. A worker of a queue (Total 0: it
// knows no list, so no total) counts what it did, with no total and no
// time left.
func (p Progress) String() string {
	if p.Total == 0 {
		return fmt.Sprintf("scan worker: %s done · %d failed · %d in flight", report.Plural(p.Done+p.Failed+p.Skipped, "server"), p.Failed, p.InFlight)
	}
	s := fmt.Sprintf("scan: %d/%d servers · %d failed · %d in flight", p.Done+p.Failed+p.Skipped, p.Total, p.Failed, p.InFlight)
	if p.ETA > 0 {
		s += " · ETA " + p.ETA.Round(time.Second).String()
	}
	return s
}

func (s *Scanner) now() time.Time {
	if s.Clock != nil {
		return s.Clock()
	}
	return time.Now()
}

func (s *Scanner) say(line string) {
	if s.Say != nil {
		s.Say(line)
	}
}

func (s *Scanner) log() hclog.Logger {
	if s.Log == nil {
		return hclog.NewNullLogger()
	}
	return s.Log
}

// Close ends every worker's session and removes what the installer
// keeps for the scan's jobs (an io.Closer's Close: Commands' install of
// its lock).
func (s *Scanner) Close() {
	for _, sess := range s.all {
		sess.Close()
	}
	s.all = nil
	if c, ok := s.Installer.(io.Closer); ok {
		if err := c.Close(); err != nil {
			s.log().Warn("removing the scan's npm install", "error", err)
		}
	}
}

// Pending are the jobs not done: whose record is not yet stored, or
// says the job failed on rubric's side (Failed.Retry), to be tried
// again. It counts the others as skipped for the progress.
func (s *Scanner) Pending(jobs []Job) []Job {
	var out []Job
	var skipped []string
	for _, j := range jobs {
		if done(s.recordPath(j.Key)) {
			skipped = append(skipped, j.Key)
			continue
		}
		out = append(out, j)
	}
	s.mu.Lock()
	s.counts.Total, s.counts.Skipped = len(jobs), len(skipped)
	for _, k := range skipped {
		s.keep(k)
	}
	s.start = s.now()
	s.mu.Unlock()
	return out
}

// Missing are the jobs whose record is not stored: after Run drained its
// queue, the jobs the queue did not run (another process holds them, or
// it cancelled them).
func (s *Scanner) Missing(jobs []Job) []Job {
	var out []Job
	for _, j := range jobs {
		if _, err := os.Stat(s.recordPath(j.Key)); err != nil {
			out = append(out, j)
		}
	}
	return out
}

// Run does jobs through q with n workers: what is already stored is
// skipped, the rest enqueued, then worked until none is left. It writes
// scan.json, the scan's rubrics and time, for the leaderboard.
//
// A job the queue hands out is done as jobs has it, not as the queue
// keeps it: a database queue keeps each job as the run that first
// enqueued it wrote it, and a scan resumed with other limits
// (--start-timeout, --max-bytes...) or another name for a server must
// do it as this run says. A job that jobs lacks (the list changed since)
// takes this run's limits all the same.
func (s *Scanner) Run(ctx context.Context, q Queue, jobs []Job, n int) error {
	if err := s.WriteMeta(); err != nil {
		return err
	}
	if err := s.supersede(jobs); err != nil {
		return err
	}
	pending := s.Pending(jobs)
	if err := q.Add(ctx, pending); err != nil {
		return err
	}
	current := make(map[string]Job, len(jobs))
	for _, j := range jobs {
		current[j.Key] = j
	}
	do := s.Do
	if len(jobs) > 0 {
		do = func(ctx context.Context, j Job) error {
			if now, ok := current[j.Key]; ok {
				j = now
			} else {
				j.Target.Limits, j.Target.StrictStdout = jobs[0].Target.Limits, jobs[0].Target.StrictStdout
			}
			return s.Do(ctx, j)
		}
	}
	start := s.now()
	err := q.Work(ctx, n, s.Timeout, do)
	var other *OtherRubricsError
	if errors.As(err, &other) && len(jobs) > 0 && len(s.Missing(jobs)) == 0 {
		// The queue is shared with a scan of other rubrics, whose jobs
		// are left to it: every job of this one is done.
		s.say(fmt.Sprintf("the queue also holds jobs of a scan of other rubrics (%s, enqueued with %s), left in it for that scan", other.Job, other.enqueued()))
		err = nil
	}
	took := s.now().Sub(start)
	s.mu.Lock()
	s.ran.Seconds += took.Seconds()
	s.mu.Unlock()
	return errors.Join(err, s.addTime(took))
}

// supersede sets aside the records an earlier run left of servers that
// jobs name but key otherwise (their target, content, environment or
// sandbox changed since): the leaderboard would list such a server twice,
// once as it was. They are moved to OUT/superseded, and the run says
// how many, in one line. It says too, in a line, which servers of an
// earlier run the list no longer names, whose rows stay.
func (s *Scanner) supersede(jobs []Job) error {
	if len(jobs) == 0 {
		return nil
	}
	keyOf := make(map[string]string, len(jobs))
	listed := make(map[string]bool, len(jobs))
	for _, j := range jobs {
		keyOf[j.Name] = j.Key
		listed[j.Key] = true
	}
	files, err := filepath.Glob(filepath.Join(s.Out, "jobs", "*.json"))
	if err != nil {
		return err
	}
	var names, unlisted []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var rec Record
		if err := json.Unmarshal(data, &rec); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		key, ok := keyOf[rec.Name]
		if !ok && !listed[rec.Key] {
			unlisted = append(unlisted, rec.Name)
		}
		if !ok || key == rec.Key {
			continue
		}
		aside := filepath.Join(s.Out, "superseded", filepath.Base(f))
		if err := os.MkdirAll(filepath.Dir(aside), 0o755); err != nil {
			return err
		}
		if err := os.Rename(f, aside); err != nil {
			return err
		}
		names = append(names, rec.Name)
	}
	if len(unlisted) > 0 {
		// A list that lost servers since an earlier run in this --out
		// (or another list): their records stay, and so do their rows,
		// which this run's list does not account for.
		slices.Sort(unlisted)
		s.say(fmt.Sprintf("%s holds %s from an earlier run that this run's list does not name (%s): %s in the leaderboard; to rank this list alone, choose another --out (the answer cache spares the questions asked before)",
			s.Out, report.Plural(len(unlisted), "server"), words.List(unlisted, 5), words.Pick(len(unlisted), "it stays", "they stay")))
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	s.say(fmt.Sprintf("%s changed since an earlier run in %s (target, content, --env or --sandbox): scored again, the earlier %s set aside in %s: %s",
		report.Plural(len(names), "server"), s.Out, words.Pick(len(names), "record", "records"), filepath.Join(s.Out, "superseded"), words.List(names, 5)))
	return nil
}

// session takes a worker's session, making one when none is free.
func (s *Scanner) session() *run.Session {
	s.once.Do(func() { s.sessions = make(chan *run.Session, 1024) })
	select {
	case sess := <-s.sessions:
		return sess
	default:
	}
	sess := s.NewSession()
	s.mu.Lock()
	s.all = append(s.all, sess)
	s.mu.Unlock()
	return sess
}

func (s *Scanner) release(sess *run.Session) {
	select {
	case s.sessions <- sess:
	default:
	}
}

// update changes the counts and reports them.
func (s *Scanner) update(change func(*Progress)) {
	s.mu.Lock()
	change(&s.counts)
	p := s.counts
	s.mu.Unlock()
	if s.Progress == nil {
		return
	}
	p.Elapsed = s.now().Sub(s.start)
	if done := p.Done + p.Failed; done > 0 {
		left := p.Total - p.Skipped - done
		p.ETA = time.Duration(float64(p.Elapsed) / float64(done) * float64(left))
	}
	s.Progress(p)
}

// Do does one job and stores its record: the reports of every rubric,
// or the failure record. It returns an error only when the job was not
// done and should be taken up again (the scan was stopped); a failure
// of the server is a record, not an error.
func (s *Scanner) Do(ctx context.Context, j Job) error {
	if done(s.recordPath(j.Key)) {
		s.mu.Lock()
		s.keep(j.Key)
		s.mu.Unlock()
		return nil // done by an earlier worker
	}
	check := []Job{{Identity: j.Identity}}
	Key(check, s.Rubrics)
	if check[0].Key != j.Key {
		// Workers run with the scan's rubrics can do it: it goes back
		// to the queue, and this worker stops.
		return jobqueue.Decline(&OtherRubricsError{Job: j.Name, Enqueued: j.Rubrics, Worker: check[0].Rubrics})
	}
	if s.Started != nil {
		s.Started(j)
	}
	s.update(func(p *Progress) { p.InFlight++ })
	started := s.now()
	sess := s.session()
	rec, panicked, err := s.do(ctx, sess, j)
	if !panicked {
		// A session a panic went through may be half way through
		// something: it is not lent again, and Close ends it.
		s.release(sess)
	}
	if err == nil {
		rec.Seconds = s.now().Sub(started).Seconds()
		err = s.store(rec)
	}
	// update changes the counts under s.mu: the run's totals with them.
	s.update(func(p *Progress) {
		p.InFlight--
		if err != nil {
			return
		}
		if rec.Failed != nil {
			p.Failed++
			s.ran.Failed++
		} else {
			p.Done++
			s.ran.Scored++
		}
		s.ran.Totals.add(rec)
	})
	if err != nil {
		return err
	}
	if rec.Failed != nil {
		s.log().Warn("server failed", "name", j.Name, "stage", rec.Failed.Stage, "reason", rec.Failed.Reason)
	} else {
		s.log().Info("server scored", "name", j.Name, "tools", rec.Tools)
	}
	return nil
}

// OtherRubricsError is a job a queue handed a worker whose rubrics are
// not those the job was enqueued with: the worker leaves it in the queue
// and stops.
type OtherRubricsError struct {
	// Job is the server's name; Enqueued and Worker the rubrics of the
	// job and of the worker, each a name and the start of a digest
	// (Enqueued is empty for a job an older rubric enqueued).
	Job              string
	Enqueued, Worker []string
	// WorkerDefault says that no --rubric, variable or config line gave
	// the worker its rubrics: they are the default, so named.
	WorkerDefault bool
}

// Error names both sets of rubrics and what to do. The worker's are
// named as its --rubric, which the CLI blames on RUBRIC_RUBRIC or the
// config file when either gave them (localconfig.Blame); the job's as
// rubrics, since whatever gave them to the scan that enqueued it (a
// flag, a variable, a config file) is not known here.
func (e *OtherRubricsError) Error() string {
	has := "--rubric " + strings.Join(e.Worker, ", ")
	if e.WorkerDefault {
		has = words.Pick(len(e.Worker), "the default rubric ", "the default rubrics ") + strings.Join(e.Worker, ", ") + " (no --rubric given)"
	}
	return fmt.Sprintf("the queue holds job %q enqueued with %s; this worker has %s: the job is left in the queue for workers run with the scan's rubrics; run this worker with them, or give a scan of other rubrics its own --db",
		e.Job, e.enqueued(), has)
}

// enqueued names the rubrics the job was enqueued with: "the rubric
// tdqs sha256:…", "the rubrics a sha256:…, b sha256:…".
func (e *OtherRubricsError) enqueued() string {
	if len(e.Enqueued) == 0 {
		return "rubrics this worker cannot tell (an older rubric enqueued it)"
	}
	return words.Pick(len(e.Enqueued), "the rubric ", "the rubrics ") + strings.Join(e.Enqueued, ", ")
}

// do installs, reads and scores j; an error means the job was stopped
// and is to be done again. A panic on the way is the job's failure, at
// the stage it was at, and never an error: the queue would run the job
// again (River recovers a panic and retries it up to a thousand times,
// whatever --attempts says), or end the scan (the queue in memory).
func (s *Scanner) do(parent context.Context, sess *run.Session, j Job) (out *Record, panicked bool, err error) {
	ctx := parent
	var timeout error // the cause the job's deadline is given
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		deadline := context.WithTimeoutCause
		if s.Deadline != nil {
			deadline = s.Deadline
		}
		timeout = serverTimeout(s.Timeout)
		ctx, cancel = deadline(parent, s.Timeout, timeout)
		defer cancel()
	}
	sess.Hide(j.Secrets...)
	if s.Hide != nil {
		s.Hide(append(slices.Clone(j.Secrets), redact.Credentials(j.Target.Env, j.Target.Headers)...)...)
	}
	rec := &Record{Version: RecordVersion, Key: j.Key, Name: j.Name, Target: redact.Values(run.Redacted(j.Target), j.Secrets)}
	src := run.Source{Transport: j.Transport, Target: j.Target}
	stage := run.StageConfig
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		s.log().Error("rubric panicked", "name", j.Name, "stage", stage, "panic", p, "stack", string(debug.Stack()))
		f := sess.Fail(ctx, stage, nil, src, fmt.Errorf("rubric panicked (%v): a bug in rubric, not a failure of the server; please report it with the server's entry in the scan list", p))
		f.Interrupted = false
		out, err = s.failed(rec, f)
		panicked = true
	}()
	out, err = s.work(parent, ctx, timeout, sess, j, rec, src, &stage)
	return out, false, err
}

// timedOut is the reason of a job whose --timeout (cause) had passed by
// the time it failed with err: the error that fired first. A try that
// failed while the job still had time (a --request-timeout, a server
// that exited), after which the timeout cut the back-off or the next
// try (cutShort), failed the job: its error comes first, with what to
// do, then the timeout that left no time to try again; it read "the
// server took longer than --timeout", which sent the user to the wrong
// flag, or named the timeout alone. Tries that ended on their own
// before the timeout passed (the attempts spent, a futile error) failed
// on their last error alone. A timeout that cut the first try is the
// reason, named once (rather than as a run interrupted, which named it
// twice), then what that try returned if it was more than the cut
// itself.
func timedOut(cause, err error) error {
	var cut *cutShort
	switch {
	case errors.As(err, &cut) && cut.last != nil:
		return fmt.Errorf("%w; then, before another try could pass, %w", cut.last, cause)
	case cut != nil:
		err = cut.err
	case err != nil && !cutError(err):
		return err
	}
	if err == nil || cutError(err) {
		return cause
	}
	return fmt.Errorf("%w; its last error: %v", cause, err)
}

// scoreTimedOut is the reason of a score stage that failed (f) once the
// job's --timeout (cause) had passed: the error that fired first. The
// asker decides it as it happens: a judge's call that returns after the
// job's time ended returns the timeout (context.Cause), one that
// returns before it returns its own error. So a failure that is the
// timeout, or a context's own error (a wait or a formula the time cut),
// is the timeout, named once, in the words of the error that carries it
// (a batch's adds where its answers are kept). Any other error (a judge
// that crashed, refused or answered unreadably, a model's request that
// timed out) fired while the job still had time, and the timeout passed
// after it, while the calls in flight finished and the checks ended:
// that error comes first, with what it says to do, then the timeout. It
// read "<timeout> (interrupted (<timeout>) while asking the questions
// ...: <error>)", which sent the user to --timeout and named it twice.
//
// The timeout is worded as the judging's (judging): the server had
// listed its tools by then, and "the server took longer than --timeout"
// sent the user to the server.
func scoreTimedOut(cause error, judging string, f *run.Failure) string {
	switch {
	case errors.Is(f, cause):
		return strings.ReplaceAll(f.Said(), cause.Error(), judging)
	case cutError(f):
		return judging
	}
	return f.Said() + "; then, as the job stopped on it, " + judging
}

// serverTimeout is the cause of a job whose --timeout d passed before
// the server was read: installing, starting or listing it.
func serverTimeout(d time.Duration) error {
	return fmt.Errorf("the server took longer than --timeout %s (give it a larger --timeout, or 0 for no bound, if it needs more time)", d)
}

// judgingTimeout words the job's --timeout d passing at the score stage,
// when the server had answered and the questions to the judge used the
// rest of the time: what paces them (--judge-rate, when given) and how
// many are asked at once (--concurrency) are what to look at beside
// --timeout. --request-timeout, a wait for the server, has no part in it.
func judgingTimeout(d time.Duration) string {
	return fmt.Sprintf("the judging took longer than --timeout %s allowed: the server had listed its tools, and asking the judge the questions used the rest of the job's time (give it a larger --timeout, or 0 for no bound; a --judge-rate limit paces the calls, and --concurrency sets how many questions are asked at once)", d)
}

// stageCause is the job's timeout as the stage it passed at words it,
// over the cause itself (errors.Is finds that).
type stageCause struct {
	cause error
	msg   string
}

func (e *stageCause) Error() string { return e.msg }
func (e *stageCause) Unwrap() error { return e.cause }

// cutError reports whether err is a context's own error: what a wait the
// job's time ended returns, which says nothing of the server.
func cutError(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// cutShort is what retry returns once the job's time ended its tries:
// last is the error of the last try that failed while the job still
// had time (nil when none did), err what the try or back-off that the
// time cut returned.
type cutShort struct{ last, err error }

// Error is the error that fired first.
func (c *cutShort) Error() string {
	if c.last != nil {
		return c.last.Error()
	}
	return c.err.Error()
}

// Unwrap gives both errors, so that errors.As finds a RegistryDown or a
// surface.Error of the try that failed in time.
func (c *cutShort) Unwrap() []error { return []error{c.last, c.err} }

// work is do's work, with do's contexts, the cause given the job's
// deadline (nil when it has none), record and source; it keeps *stage
// at the stage it is at.
func (s *Scanner) work(parent, ctx context.Context, timeout error, sess *run.Session, j Job, rec *Record, src run.Source, stage *string) (*Record, error) {
	fail := func(stage string, r *rubric.Rubric, src run.Source, err error) (*Record, error) {
		if parent.Err() != nil {
			return nil, parent.Err()
		}
		fctx := ctx
		if cause := s.ended(ctx, timeout); cause != nil {
			if stage == run.StageScore {
				cause = &stageCause{cause: cause, msg: judgingTimeout(s.Timeout)}
			}
			err = timedOut(cause, err)
			fctx = context.WithoutCancel(ctx)
		}
		f := sess.Fail(fctx, stage, r, src, err)
		f.Interrupted = false // the scan goes on; only this server stopped
		out, err2 := s.failed(rec, f)
		if down := (*RegistryDown)(nil); out != nil && errors.As(err, &down) {
			out.Failed.Registry = true
		}
		return out, err2
	}
	if j.Err != "" {
		return fail(run.StageConfig, nil, src, errors.New(j.Err))
	}
	if j.Package != nil {
		*stage = run.StageInstall
		dir := filepath.Join(s.Out, "install", j.Key)
		defer os.RemoveAll(dir)
		var t transport.Target
		err := s.retry(ctx, func() error {
			var err error
			t, err = s.installer().Install(ctx, j.Package, dir)
			return err
		})
		if err != nil {
			return fail(run.StageInstall, nil, src, err)
		}
		src.Target.Location, src.Target.Args, src.Target.Dir = t.Location, t.Args, t.Dir
		for k, v := range t.Env {
			if src.Target.Env == nil {
				src.Target.Env = map[string]string{}
			}
			src.Target.Env[k] = v
		}
		if src.Target.Sandbox.Enabled() && j.Package.Registry == "pypi" {
			src.Target.Sandbox.Cwd = transport.CwdWritable // uv's cache
		}
	}
	*stage = run.StageExport
	var surf *surface.Surface
	err := s.retry(ctx, func() error {
		var err error
		surf, err = sess.Export(ctx, src.Transport, src.Target)
		return err
	})
	if err != nil {
		return fail(run.StageExport, nil, src, err)
	}
	rec.Tools = len(surf.Tools)
	scored := run.Source{Surface: surf, Name: rec.Target}
	*stage = run.StageScore
	var reports []*report.Report
	for _, r := range s.Rubrics {
		rep, err := sess.Scan(ctx, scored, r, run.ScanOptions{})
		if err != nil {
			if parent.Err() != nil {
				return nil, parent.Err()
			}
			var f *run.Failure
			if !errors.As(err, &f) {
				return fail(run.StageScore, r, scored, err)
			}
			f.Interrupted = false
			if cause := s.ended(ctx, timeout); cause != nil {
				f.Reason = scoreTimedOut(cause, judgingTimeout(s.Timeout), f)
			}
			return s.failed(rec, f)
		}
		reports = append(reports, rep)
	}
	*stage = run.StageWrite
	rec.Scores = map[string]Score{}
	for i, rep := range reports {
		r := s.Rubrics[i]
		rel := filepath.ToSlash(filepath.Join("reports", slug(j.Name, j.Key), r.Name+".json"))
		if err := atomicWrite(filepath.Join(s.Out, rel), func(w io.Writer) error { return report.Write(w, rep) }); err != nil {
			return nil, err
		}
		rec.Scores[r.Name] = Score{Score: rep.Score, Grade: rep.Grade, Report: rel, Judge: rep.Judge}
		rec.Calls.add(rep.Calls)
	}
	return rec, nil
}

// failed stores f as the job's failure record and returns the job's.
func (s *Scanner) failed(rec *Record, f *run.Failure) (*Record, error) {
	rel := filepath.ToSlash(filepath.Join("failed", slug(rec.Name, rec.Key)+".json"))
	if err := os.MkdirAll(filepath.Join(s.Out, "failed"), 0o755); err != nil {
		return nil, err
	}
	f.Reason = scanAdvice(f.Reason)
	// A job that failed before a rubric was at work (its entry, its
	// install, reading its tools) named none: the record said rubric
	// "", where the job asked for the scan's.
	if f.Rubric.Name == "" && len(s.Rubrics) > 0 {
		f.Rubric = score.RubricOf(s.Rubrics[0])
	}
	if len(s.Rubrics) > 1 {
		f.Rubrics = make([]report.Rubric, len(s.Rubrics))
		for i, r := range s.Rubrics {
			f.Rubrics[i] = score.RubricOf(r)
		}
	}
	if err := f.WriteFile(filepath.Join(s.Out, rel)); err != nil {
		return nil, err
	}
	rec.Failed = &Failed{Stage: f.Stage, Reason: f.Reason, Record: rel}
	rec.Calls.Model, rec.Calls.CacheHits, rec.Calls.Tokens, rec.Calls.CostUSD = f.Done.Calls, f.Done.CacheHits, f.Done.Tokens, f.Done.CostUSD
	rec.Calls.RateLimited, rec.Calls.Unanswered = f.Done.RateLimited, f.Done.Unanswered
	if f.Done.ToolsRead != nil {
		rec.Tools = *f.Done.ToolsRead
	}
	return rec, nil
}

// listAdvice turns the advice of a one-server run, which names flags a
// scan refuses (--header), into the scan's: the list says how to read
// each server.
var listAdvice = strings.NewReplacer(
	"pass them with --header, for example --header 'Authorization=Bearer <token>'",
	`give them in the server's entry of the list, for example {"name": ..., "target": ..., "headers": {"Authorization": "Bearer <token>"}} (a server.json remote: its headers)`,
	"check their values with --header", "check their values in the server's entry of the list (its headers)",
)

// scanAdvice is a failure's reason with the advice of a one-server run
// worded for a scan, and a read limit the server passed followed by the
// flag that raises it (transport.LimitAdvice).
func scanAdvice(reason string) string {
	return transport.LimitAdvice(listAdvice.Replace(reason))
}

func (s *Scanner) installer() Installer {
	if s.Installer == nil {
		return &Commands{}
	}
	return s.Installer
}

// retry calls try up to Attempts times, waiting Backoff, doubled each
// time, between two; a failure that another attempt cannot fix (futile)
// is returned at once. When ctx ends a try or a wait, the error is a
// *cutShort holding the last try that failed before it: which error
// fired first is decided here, as it happens, not by whether ctx has
// ended by the time the failure is recorded.
func (s *Scanner) retry(ctx context.Context, try func() error) error {
	wait := s.Backoff
	var err, live error
	for i := 0; i < max(s.Attempts, 1); i++ {
		if i > 0 {
			s.log().Info("trying again", "after", wait, "error", err)
			if serr := s.sleep(ctx, wait); serr != nil {
				return &cutShort{last: live, err: serr}
			}
			wait *= 2
		}
		if err = try(); err == nil {
			return nil
		}
		if s.timeUp(ctx) {
			return &cutShort{last: live, err: err}
		}
		live = err
		if futile(err) {
			s.log().Info("not trying again: another attempt would fail the same way", "error", err)
			return err
		}
	}
	return err
}

// timeUp reports whether the job's time has ended: ctx has ended, or
// its deadline has passed by the scanner's clock before its timer fired
// (see package deadline). A try cut so was cut by the job's time, not
// failed while the job had time.
func (s *Scanner) timeUp(ctx context.Context) bool {
	return deadline.Passed(ctx, s.now())
}

// ended is why the job's time ended, nil while it has time: ctx's
// cause, or timeout (the cause its deadline was given) when the
// deadline has passed by the clock before its timer fired (timeUp).
func (s *Scanner) ended(ctx context.Context, timeout error) error {
	if cause := context.Cause(ctx); cause != nil {
		return cause
	}
	if s.timeUp(ctx) {
		return timeout
	}
	return nil
}

// futile reports whether trying again cannot fix err: the target does
// not exist or was cut off for what it sent (a transport marked it
// transport.Permanent), its surface does not parse, or a rubric does not
// load. Anything else (an install that failed, a timeout, a server that
// exited) may pass on another attempt.
func futile(err error) bool {
	var bad *surface.Error
	var broken *rubric.Error
	return transport.IsPermanent(err) || errors.As(err, &bad) || errors.As(err, &broken)
}

func (s *Scanner) sleep(ctx context.Context, d time.Duration) error {
	if s.Sleep != nil {
		return s.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// recordPath is where the record of the job keyed key is stored.
func (s *Scanner) recordPath(key string) string {
	return filepath.Join(s.Out, "jobs", key+".json")
}

// store writes the record, last: a job whose record is stored is done.
func (s *Scanner) store(rec *Record) error {
	return atomicWrite(s.recordPath(rec.Key), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rec)
	})
}

// atomicWrite writes path whole, making its directory.
func atomicWrite(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, write)
}

var unsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// slug is a file name for a server: its name made safe, and the start of
// its key, so two servers never share one.
func slug(name, key string) string {
	s := strings.Trim(unsafe.ReplaceAllString(name, "-"), "-.")
	if len(s) > 60 {
		s = s[:60]
	}
	if s == "" {
		s = "server"
	}
	return s + "-" + key[:8]
}
