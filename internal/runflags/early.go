package runflags

import (
	"context"
	"sync"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/plugins/host"
)

// Early is a transport plugin started before the session that reads
// with it, so that its process starts while rubric compiles the rubric
// and checks the flags: a plugin is the rubric binary started again, and
// for a small surface that start was the larger part of the run. The
// session of a Host whose Early is set starts its plugins on the same
// plugin host and takes the transport from it.
type Early struct {
	host     *host.Host
	launcher host.Launcher
	name     string
	done     chan struct{}
	tr       run.Transport
	err      error

	mu     sync.Mutex
	taken  bool
	closed bool
}

// StartEarly opens the plugin host of h and starts in the background the
// transport args name, for a run of one target; nil when the run reads
// --config-file, when the target is not well given or the host does not
// open (the session then says why, as it would have).
func (fl Flags) StartEarly(h Host, args []string) *Early {
	if fl.V.GetString("config-file") != "" {
		return nil
	}
	name, _, err := fl.Target(args)
	if err != nil {
		return nil
	}
	hst, c, err := h.Open()
	if err != nil {
		return nil
	}
	e := &Early{host: hst, launcher: host.Launcher{Host: hst, Catalog: c}, name: name, done: make(chan struct{})}
	go func() {
		defer close(e.done)
		e.tr, e.err = e.launcher.Transport(context.Background(), name)
	}()
	return e
}

// Close ends the plugin host, and the transport with it unless a session
// took it (the session ends that one); calling it again does nothing.
// It waits for the transport to have started, so that a run that stops
// before reading ends its plugin as one that read does.
func (e *Early) Close() {
	if e == nil {
		return
	}
	e.mu.Lock()
	closed, taken := e.closed, e.taken
	e.closed = true
	e.mu.Unlock()
	if closed {
		return
	}
	<-e.done
	if !taken && e.tr != nil {
		e.tr.Close()
	}
	e.host.Close()
}

// Judge implements run.Plugins: the judge started on the early host.
func (e *Early) Judge(ctx context.Context, ref string, cfg judge.Config) (run.Judge, error) {
	return e.launcher.Judge(ctx, ref, cfg)
}

// FindJudge implements run.JudgeFinder on the early host.
func (e *Early) FindJudge(ref string) error {
	return e.launcher.FindJudge(ref)
}

// CheckJudgeOptions implements run.JudgeOptionChecker on the early host.
func (e *Early) CheckJudgeOptions(name string, options map[string]string) error {
	return e.launcher.CheckJudgeOptions(name, options)
}

// Transport implements run.Plugins: the transport started early, the
// first time it is asked for by its name, else one started now.
func (e *Early) Transport(ctx context.Context, name string) (run.Transport, error) {
	e.mu.Lock()
	mine := name == e.name && !e.taken
	e.taken = e.taken || mine
	e.mu.Unlock()
	if !mine {
		return e.launcher.Transport(ctx, name)
	}
	select {
	case <-e.done:
		return e.tr, e.err
	case <-ctx.Done():
		e.mu.Lock()
		e.taken = false // Close ends it
		e.mu.Unlock()
		return nil, ctx.Err()
	}
}
