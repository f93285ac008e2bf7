package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rubricmcp/rubric/internal/deadline"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// DefaultJudgeTimeout bounds one call to a judge plugin when
// Options.JudgeTimeout is 0: longer than a model's slowest ordinary
// answer, and than the built-in judges' own per-request timeouts (2m for
// an HTTP API, 5m for the Claude Code command line), so that their
// errors, which say more, come first.
const DefaultJudgeTimeout = 10 * time.Minute

// DefaultExportTimeout bounds a transport plugin's reading of one target
// when Options.ExportTimeout is 0: a server's start (an npx download
// included) and every page of its tools/list, each of which the built-in
// transports bound on their own.
const DefaultExportTimeout = 10 * time.Minute

// TimeoutError is a call to a running plugin that got no answer within
// the host's deadline: the plugin is alive but stopped answering (a
// deadlock, a hung model client). The run ends with it, as with a crash.
type TimeoutError struct {
	Kind, Name string
	PID        int
	// During is the call ("ask", "export", ...).
	During string
	// Waited is the deadline that passed.
	Waited time.Duration
	// Setting is the flag (and config key) that sets the deadline.
	Setting string
	Stderr  string
}

// Error says which plugin, which call, how long the host waited, and
// what to do. A transport's export waits on the server it reads, which
// is as likely to be what stopped (or is slow to start) as the plugin.
func (e *TimeoutError) Error() string {
	if e.Kind == protocol.KindTransport && e.During == "export" {
		return fmt.Sprintf("the %s plugin %q (pid %d) did not finish reading the target within %s: raise --%s (config key %s) if the server needs longer to start and list its tools; else the server, or the plugin, which is still running, stopped answering%s",
			e.Kind, e.Name, e.PID, e.Waited, e.Setting, e.Setting, stderrNote(e.Stderr))
	}
	return fmt.Sprintf("the %s plugin %q (pid %d) did not answer %s within %s: raise --%s (config key %s) if it needs longer, or fix the plugin, which is still running but stopped answering%s",
		e.Kind, e.Name, e.PID, e.During, e.Waited, e.Setting, e.Setting, stderrNote(e.Stderr))
}

// Settings naming the host's deadlines, as flags and config keys.
const (
	JudgeTimeoutSetting  = "judge-timeout"
	ExportTimeoutSetting = "export-timeout"
	// StartTimeoutSetting gives Options.StartTimeout: a plugin's start,
	// from its exec to its handshake.
	StartTimeoutSetting = "plugin-start-timeout"
)

// deadline is the bound of one call of kind to a running plugin, and
// the setting that gives it. A judge's describe and configure end its
// start: they get at least the start timeout, which is then the setting
// to raise (it named --judge-timeout, whose raise below the start
// timeout changed nothing).
func (h *Host) deadline(kind, what string) (time.Duration, string) {
	d, setting := h.judgeTimeout, JudgeTimeoutSetting
	if kind != protocol.KindJudge {
		d, setting = h.exportTimeout, ExportTimeoutSetting
	}
	if (what == "describe" || what == "configure") && d < h.startTimeout {
		d, setting = h.startTimeout, StartTimeoutSetting
	}
	return d, setting
}

// bounded runs call with a context that the host's deadline for the call
// ends, and turns an error that deadline caused into a TimeoutError;
// other errors are worded by callError. The deadline's clock is
// Options.CallTimer's. The TimeoutError is made only when the deadline
// passes, and a real clock runs no goroutine of its own (see afterCall):
// a run asks its judge a question per tool.
func (h *Host) bounded(ctx context.Context, pr *process, what string, call func(context.Context) error) error {
	d, setting := h.deadline(pr.p.Kind, what)
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopClock := h.afterCall(d, func() {
		cancel(&TimeoutError{Kind: pr.p.Kind, Name: pr.p.Name, PID: pr.pid(), During: what, Waited: d, Setting: setting})
	})
	defer stopClock()
	err := call(cctx)
	// While ctx has not ended, only the deadline cancels cctx before the
	// call returns: a TimeoutError cause is the deadline's.
	if timeout, ok := context.Cause(cctx).(*TimeoutError); ok && err != nil && ctx.Err() == nil {
		pr.held.quote()
		timeout.Stderr = pr.stderrText()
		return timeout
	}
	// The caller's deadline may have passed before its timer fired here:
	// gRPC hands the plugin that deadline, and it may report it first.
	if err != nil && !deadline.Passed(ctx, time.Now()) && cctx.Err() == nil && ownDeadline(err) {
		return &OwnDeadlineError{Kind: pr.p.Kind, Name: pr.p.Name, During: what}
	}
	return h.callError(pr, what, err)
}

// afterRealTime is the afterCall of a Host given no CallTimer: f runs in
// the timer's own goroutine, started only when d has passed.
func afterRealTime(d time.Duration, f func()) (stop func() bool) { return time.AfterFunc(d, f).Stop }

// afterTimer makes a CallTimer into an afterCall: a goroutine waits for
// the timer's clock to end, or for stop.
func afterTimer(timer func(time.Duration) (<-chan time.Time, func())) func(time.Duration, func()) func() bool {
	return func(d time.Duration, f func()) func() bool {
		expired, stopClock := timer(d)
		watched := make(chan struct{})
		go func() {
			select {
			case <-expired:
				f()
			case <-watched:
			}
		}()
		return func() bool {
			close(watched)
			stopClock()
			return true
		}
	}
}

// ownDeadline reports whether err, returned by a plugin while neither
// the caller's time nor the host's had run out, is a context's deadline:
// one the plugin kept itself, sent back as gRPC's DeadlineExceeded (a
// plugin that returned its context's error) or as that text alone.
func ownDeadline(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || err.Error() == context.DeadlineExceeded.Error()
}

// OwnDeadlineError is a plugin that gave up on a deadline of its own and
// said only "context deadline exceeded", before the time rubric gave
// the call, or the run, was up. Left bare, that text read as the run's
// --timeout (a scan's failure record said the server took longer than
// it). It is not a context's error: the run's time did not run out.
type OwnDeadlineError struct {
	Kind, Name string
	// During is the call ("ask", "export", ...).
	During string
}

// Error names the plugin, says the deadline was its own, and what to do.
func (e *OwnDeadlineError) Error() string {
	return fmt.Sprintf("the %s plugin %q reported \"context deadline exceeded\" during %s: a deadline the plugin keeps itself passed, not rubric's (--%s, or a scan's --timeout), which had not; raise the plugin's own timeout setting if it has one, or see its log for what it waited for",
		e.Kind, e.Name, e.During, deadlineSetting(e.Kind))
}

// deadlineSetting is the host's setting for a call to a plugin of kind.
func deadlineSetting(kind string) string {
	if kind == protocol.KindJudge {
		return JudgeTimeoutSetting
	}
	return ExportTimeoutSetting
}

// boundedValue is bounded for a call that returns a value besides its
// error.
func boundedValue[T any](ctx context.Context, h *Host, pr *process, what string, call func(context.Context) (T, error)) (T, error) {
	var v T
	err := h.bounded(ctx, pr, what, func(ctx context.Context) (err error) {
		v, err = call(ctx)
		return err
	})
	return v, err
}
