// Package host starts rubric's plugins and speaks to them: discovery of
// built-in and installed plugins (Catalog), sha256 pinning, launch with a
// start timeout, plugin stderr relayed into the log, crash reporting, and
// clean-up that leaves no process behind.
//
// Every judge and transport, built-in ones included, is reached through a
// separate plugin process: built-ins are the rubric binary started again
// with serve arguments.
package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/internal/cpuprofile"
	"github.com/rubricmcp/rubric/internal/prestart"
	"github.com/rubricmcp/rubric/internal/procgroup"
	"github.com/rubricmcp/rubric/internal/termtext"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// DefaultStartTimeout bounds a plugin's start, from exec to handshake.
const DefaultStartTimeout = 60 * time.Second

// baseEnv are the variables every external plugin receives.
var baseEnv = []string{"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"}

// Host starts plugins and ends them. Its zero value is not usable: use New.
type Host struct {
	log          hclog.Logger
	build        string
	startTimeout time.Duration
	startTimer   func(time.Duration) (<-chan time.Time, func())
	trustLocal   bool
	// judgeTimeout and exportTimeout bound each call to a running judge
	// plugin and each export of a transport plugin (see bounded).
	judgeTimeout, exportTimeout time.Duration
	// afterCall runs f once d has passed on the clock of the calls'
	// deadlines, unless stop is called first (see bounded).
	afterCall func(d time.Duration, f func()) (stop func() bool)

	mu      sync.Mutex
	running []*process
	closed  bool
	// ending counts the plugins being ended in the background
	// (stopLater).
	ending sync.WaitGroup
	// sockets is the directory this host's plugins put their sockets in,
	// made at the first start; "" until then, or when TMPDIR is too long
	// a path for a socket inside it.
	sockets     string
	socketsMade bool
	// sweeping is the sweep of the socket directories of dead rubric
	// processes (socketDir), which Close waits for.
	sweeping sync.WaitGroup
}

// Options configure a Host.
type Options struct {
	// Log receives the host's messages and the plugins' stderr; nil
	// discards them.
	Log hclog.Logger
	// StartTimeout bounds each plugin's start; 0 means DefaultStartTimeout.
	StartTimeout time.Duration
	// StartTimer, when set, starts the clock of each start's timeout in
	// place of a time.Timer: it returns the channel that ends the start
	// and a function that stops the clock. Tests end a start at the stage
	// they choose with it, not after a wait a busy machine can outlast.
	StartTimer func(time.Duration) (<-chan time.Time, func())
	// JudgeTimeout bounds each call to a running judge plugin (an
	// answer, a batch's submission, poll or collection); 0 means
	// DefaultJudgeTimeout. Its describe and configure, which end its
	// start, get at least StartTimeout.
	JudgeTimeout time.Duration
	// ExportTimeout bounds each call to a running transport plugin: the
	// reading of one target, from the server's start to its last page;
	// 0 means DefaultExportTimeout.
	ExportTimeout time.Duration
	// CallTimer is StartTimer's counterpart for the deadlines of calls
	// to running plugins: tests end a call at the stage they choose.
	CallTimer func(time.Duration) (<-chan time.Time, func())
	// TrustLocal lets List start the plugins found in the working
	// directory (Plugin.Local) to describe them; without it they are
	// listed unstarted. The user gives it (--trust-local-config).
	TrustLocal bool
	// Build is the build a built-in's companion binary must have been
	// made as to be started in the built-in's place (protocol.BuildEnv);
	// empty means this binary's, buildinfo.ID().
	Build string
}

// realTimer is the StartTimer of a Host that was given none.
func realTimer(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

// errStartTimeout is a start that ran out of StartTimeout.
var errStartTimeout = errors.New("the start timed out")

// New returns a Host. Call Close when done, on every path.
func New(o Options) *Host {
	if o.Log == nil {
		o.Log = hclog.NewNullLogger()
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.StartTimer == nil {
		o.StartTimer = realTimer
	}
	afterCall := afterRealTime
	if o.CallTimer != nil {
		afterCall = afterTimer(o.CallTimer)
	}
	if o.JudgeTimeout <= 0 {
		o.JudgeTimeout = DefaultJudgeTimeout
	}
	if o.ExportTimeout <= 0 {
		o.ExportTimeout = DefaultExportTimeout
	}
	if o.Build == "" {
		o.Build = buildinfo.ID()
	}
	return &Host{log: o.Log, build: o.Build, startTimeout: o.StartTimeout, startTimer: o.StartTimer, trustLocal: o.TrustLocal,
		judgeTimeout: o.JudgeTimeout, exportTimeout: o.ExportTimeout, afterCall: afterCall}
}

// process is one started plugin.
type process struct {
	p      Plugin
	client *plugin.Client
	cmd    *exec.Cmd
	// kill kills the plugin's process (cmd's context).
	kill   context.CancelFunc
	stderr *tail
	// secrets are the values rubric gave the plugin, hidden from what
	// the host quotes of it.
	secrets *secrets
	// held is the plugin's warnings and errors, logged when it ends.
	held *held
}

// stderrText is the end of what the plugin wrote on its stderr, with the
// values rubric gave it hidden: what a message may quote.
func (pr *process) stderrText() string { return pr.secrets.hide(pr.stderr.String()) }

// pid is the plugin process's id, 0 before it started.
func (pr *process) pid() int {
	if pr.cmd.Process == nil {
		return 0
	}
	return pr.cmd.Process.Pid
}

// start launches p and dispenses its kind: a built-in from its companion
// binary when it has one, and from Path when that does not start (absent
// since the catalog was made, of another build, broken), which only the
// debug log says.
func (h *Host) start(ctx context.Context, p Plugin) (*process, any, error) {
	if p.Companion != "" {
		c := p
		c.Path, c.Args, c.Companion = p.Companion, nil, ""
		pr, raw, err := h.launch(ctx, c, protocol.BuildEnv+"="+h.build)
		if err == nil || ctx.Err() != nil {
			return pr, raw, err
		}
		h.log.Debug("the built-in's own binary did not start; serving it from the rubric binary",
			"plugin", p.Kind+"."+p.Name, "companion", p.Companion, "error", err)
	}
	return h.launch(ctx, p)
}

// launch starts p, with env added to its environment, and dispenses its
// kind.
func (h *Host) launch(ctx context.Context, p Plugin, env ...string) (*process, any, error) {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return nil, nil, errors.New("the plugin host is closed")
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	// Cancelling killed kills the plugin, even while go-plugin is still
	// starting it (os/exec does so under its own lock).
	killed, kill := context.WithCancel(context.Background())
	cmd := exec.CommandContext(killed, p.Path, p.Args...)
	// A plugin that starts processes of its own leads a process group, so
	// that end can kill its descendants too; every plugin hears of the
	// host's death by SIGTERM, on which a plugin built with plugins/sdk
	// kills its whole group, and a plugin that is not simply ends.
	cmd.SysProcAttr = procgroup.Attr(!p.Leaf, syscall.SIGTERM)
	if !p.Leaf {
		// Killing such a plugin kills its group: a child left alive
		// would hold the plugin's stdout open, and go-plugin waits for
		// that to end before it gives up on a start (a plugin script
		// whose child slept on kept a timed-out start waiting for it).
		cmd.Cancel = func() error { return killTree(cmd.Process) }
	}
	pr := &process{p: p, cmd: cmd, kill: kill, stderr: newTail(4096), secrets: &secrets{}}
	pr.secrets.add(envSecrets(p)...)
	log := newHeldLog(h.log.Named(p.Kind+"."+p.Name), pr.secrets)
	pr.held = log.held
	cfg := &plugin.ClientConfig{
		HandshakeConfig:  protocol.Handshake(protocol.Version),
		VersionedPlugins: map[int]plugin.PluginSet{protocol.Version: protocol.PluginSet()},
		Cmd:              cmd,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Logger:           log,
		// The host's own clock ends a start (see below): go-plugin's is
		// only a backstop.
		StartTimeout: h.startTimeout + time.Hour,
		// Stderr is what the plugin wrote before serving (and go-plugin
		// relays it into the log); SyncStderr is what it writes to
		// os.Stderr while serving. Both end in the crash report's tail.
		Stderr:     pr.stderr,
		SyncStderr: io.MultiWriter(pr.stderr, pr.secrets.writer(log.StandardWriter(&hclog.StandardLoggerOptions{ForceLevel: hclog.Debug}))),
	}
	if !p.Builtin() {
		cfg.SkipHostEnv = true
		cmd.Env = passEnv(append(append([]string{}, baseEnv...), p.Env...))
	} else if len(env) > 0 {
		// The host's environment first, so that what is added below
		// wins over a variable of the same name in it (go-plugin would
		// add it last).
		cfg.SkipHostEnv = true
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, protocol.LogLevelEnv+"="+logLevel(h.log), fmt.Sprintf("%s=%d", boundedread.LimitEnv, boundedread.Limit()))
	cmd.Env = append(cmd.Env, env...)
	dir := h.socketDir()
	if dir != "" {
		cmd.Env = append(cmd.Env, plugin.EnvUnixSocketDir+"="+dir)
	}
	if p.SHA256 != "" {
		want, err := hex.DecodeString(p.SHA256)
		if err != nil || len(want) != sha256.Size {
			return nil, nil, fmt.Errorf("plugins.%s.sha256 %q is not a sha256 hex digest (64 hex digits): pin the whole digest of %s, which rubric plugins list --json prints", p.Name, p.SHA256, p.Path)
		}
		cfg.SecureConfig = &plugin.SecureConfig{Checksum: want, Hash: sha256.New()}
	}
	// A companion rubric started while it initialised is this start,
	// done ahead: it is sent the environment built above.
	if pre := adopt(p, env, dir); pre != nil {
		stand, end := adoptInto(cfg, cmd, pre, dir)
		cancel := kill
		kill = func() { cancel(); end() }
		pr.cmd, pr.kill = stand, kill
		h.log.Debug("taking the companion started ahead", "plugin", p.Kind+"."+p.Name, "pid", pre.Pid)
	}
	client := plugin.NewClient(cfg)
	pr.client = client
	h.track(pr)

	type result struct {
		raw any
		err error
	}
	done := make(chan result, 1)
	go func() {
		rpc, err := client.Client()
		if err != nil {
			done <- result{err: err}
			return
		}
		raw, err := rpc.Dispense(p.Kind)
		done <- result{raw, err}
	}()
	var r result
	expired, stopClock := h.startTimer(h.startTimeout)
	defer stopClock()
	select {
	case r = <-done:
	case <-expired:
		// go-plugin gives up once the plugin has ended and it has read
		// all of the plugin's stderr, which the message quotes.
		kill()
		<-done
		return nil, nil, h.failedStart(pr, errStartTimeout)
	case <-ctx.Done():
		// Killed before go-plugin's shutdown, which waits for the
		// plugin's stdout to end.
		kill()
		h.stop(pr)
		return nil, nil, ctx.Err()
	}
	if r.err != nil {
		return nil, nil, h.failedStart(pr, r.err)
	}
	return pr, r.raw, nil
}

// failedStart stops a plugin whose start failed, then words the failure.
// go-plugin gives up on a start once the plugin's stdout has ended, which
// can be before its reader of the plugin's stderr has taken the last
// lines from the pipe (make test on a loaded machine: a timed-out start's
// message without the line the plugin had printed); stopping waits for
// that reader, so the message quotes everything the plugin wrote.
func (h *Host) failedStart(pr *process, err error) error {
	// What the log holds is quoted by the message: stopping must not log it.
	pr.held.quote()
	// A plugin that printed something else than a handshake may still
	// run, with children holding its stdout: go-plugin's shutdown would
	// wait for them.
	pr.kill()
	h.stop(pr)
	return h.startError(pr, err)
}

var versionRE = regexp.MustCompile(`Plugin version: (\d+)`)

// printedLine is the line go-plugin's "Unrecognized remote plugin
// message" quotes, what a plugin printed on stdout in place of its
// handshake: empty when it printed nothing, cut to 200 bytes.
func printedLine(msg string) string {
	_, after, _ := strings.Cut(msg, "Unrecognized remote plugin message: ")
	line, _, _ := strings.Cut(after, "\n")
	if len(line) > 200 {
		line = strings.ToValidUTF8(line[:200], "") + "…"
	}
	return termtext.Printable(line)
}

// startError words a failed start. The message is the host's; the
// cause stays in the chain (errors.Is finds exec.ErrNotFound, a
// context's error, plugin.ErrChecksumsDoNotMatch), for callers that
// tell causes apart.
func (h *Host) startError(pr *process, err error) error {
	return &startFailure{msg: h.startMessage(pr, err), err: err}
}

// startMessage is startError's message.
func (h *Host) startMessage(pr *process, err error) string {
	pr.held.quote()
	p := pr.p
	name := fmt.Sprintf("%s plugin %q (%s)", p.Kind, p.Name, p.Path)
	msg := err.Error()
	switch {
	case errors.Is(err, plugin.ErrChecksumsDoNotMatch):
		got, herr := FileSHA256(p.Path)
		if herr != nil {
			got = "unreadable: " + herr.Error()
		}
		if p.PinnedBy != "" {
			return fmt.Sprintf("refusing to start %s: its sha256 is %s but %s", name, got, p.PinnedBy)
		}
		return fmt.Sprintf("refusing to start %s: its sha256 is %s but plugins.%s.sha256 pins %s; if you rebuilt it on purpose, update the pin", name, got, p.Name, p.SHA256)
	case strings.Contains(msg, "incompatible API version"):
		theirs := "another"
		if m := versionRE.FindStringSubmatch(msg); m != nil {
			theirs = m[1]
		}
		return fmt.Sprintf("%s speaks plugin protocol version %s, but this rubric speaks version %d: rebuild the plugin against a matching rubric plugins/sdk", name, theirs, protocol.Version)
	case errors.Is(err, errStartTimeout), strings.Contains(msg, "timeout while waiting for plugin to start"):
		return fmt.Sprintf("%s did not complete its handshake within %s: raise --%s (config key %s) if it needs longer to start, or fix the plugin%s", name, h.startTimeout, StartTimeoutSetting, StartTimeoutSetting, stderrNote(pr.stderrText()))
	case strings.Contains(msg, "Unrecognized remote plugin message: ") && printedLine(msg) != "":
		return fmt.Sprintf("%s is not a working rubric plugin: it printed %q on standard output before its handshake, where rubric reads the handshake; a plugin must write nothing else there (log with sdk.Logger, or to standard error)%s", name, printedLine(msg), stderrNote(pr.stderrText()))
	case strings.Contains(msg, "plugin exited before we could connect"),
		strings.Contains(msg, "Unrecognized remote plugin message"):
		return fmt.Sprintf("%s is not a working rubric plugin: it ended or printed something else before the handshake%s", name, stderrNote(pr.stderrText()))
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, os.ErrNotExist), errors.Is(err, os.ErrPermission):
		return fmt.Sprintf("cannot start %s: %v", name, err)
	}
	return fmt.Sprintf("cannot start %s: %v%s", name, err, stderrNote(pr.stderrText()))
}

// startFailure is a failed start: the host's message, over its cause.
type startFailure struct {
	msg string
	err error
}

func (e *startFailure) Error() string { return e.msg }
func (e *startFailure) Unwrap() error { return e.err }

// callError words an error from a call to a running plugin: a crash is
// said to be one, with the exit status and the end of stderr.
func (h *Host) callError(pr *process, what string, err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if errors.Is(err, protocol.ErrUnimplemented) {
		return fmt.Errorf("the %s plugin %q (%s) does not serve the %s protocol; is it a plugin of another kind? (%w)", pr.p.Kind, pr.p.Name, pr.p.Path, pr.p.Kind, err)
	}
	if !errors.Is(err, protocol.ErrUnavailable) && !pr.client.Exited() {
		return err
	}
	// Give the exit a moment to be seen, so the status can be named.
	for i := 0; i < 50 && !pr.client.Exited(); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	status := "it stopped answering"
	if pr.client.Exited() && pr.cmd.ProcessState != nil {
		status = "it ended with " + pr.cmd.ProcessState.String()
	}
	pr.held.quote()
	return &CrashError{Kind: pr.p.Kind, Name: pr.p.Name, PID: pr.pid(), During: what, Status: status, Stderr: pr.stderrText()}
}

// CrashError is a plugin that ended or stopped answering during a call.
type CrashError struct {
	Kind, Name string
	PID        int
	During     string
	Status     string
	Stderr     string
}

// Error says which plugin crashed, when, how, and its last words.
func (e *CrashError) Error() string {
	return fmt.Sprintf("the %s plugin %q (pid %d) crashed during %s: %s%s", e.Kind, e.Name, e.PID, e.During, e.Status, stderrNote(e.Stderr))
}

// stderrNote ends a message with what a plugin last wrote, if anything.
func stderrNote(stderr string) string {
	if stderr == "" {
		return ""
	}
	return "; its stderr ended with:\n" + termtext.Printable(stderr)
}

func (h *Host) track(pr *process) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.running = append(h.running, pr)
}

// stop ends one plugin: a graceful shutdown, then a kill, then the sweep
// of anything it started.
func (h *Host) stop(pr *process) {
	h.mu.Lock()
	h.untrack(pr)
	h.mu.Unlock()
	pr.end()
}

// untrack takes pr out of the running plugins, which Close would end;
// h.mu is held.
func (h *Host) untrack(pr *process) {
	h.running = slices.DeleteFunc(h.running, func(r *process) bool { return r == pr })
}

// stopLater ends one plugin as stop does, in the background: Close waits
// for it. The caller goes on while the plugin shuts down and exits (for
// a one-tool score, the time of scoring and writing the report).
func (h *Host) stopLater(pr *process) {
	// Counted under the lock that takes it out of running, so that a
	// Close at the same time sees it in one or the other.
	h.mu.Lock()
	h.untrack(pr)
	h.ending.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.ending.Done()
		if pr.p.Leaf && os.Getenv(cpuprofile.Env) == "" {
			// A leaf (a built-in starting no process) the host is done
			// with holds nothing to save: killed outright, it is gone
			// without go-plugin's shutdown call and the plugin's own
			// return through its main, which on a busy machine took
			// milliseconds a one-tool score waited for at its end. A
			// profiled plugin is stopped as any other, to write its
			// profile.
			pr.kill()
		}
		pr.end()
	}()
}

// end asks the plugin to stop, kills it after go-plugin's grace period,
// then kills whatever is left in its process group.
func (pr *process) end() {
	pr.client.Kill()
	pr.kill()
	if pid := pr.pid(); !pr.p.Leaf && pid > 0 {
		_ = procgroup.KillGroup(pid) // whatever is left in its group
	}
	pr.held.flush()
}

// killTree kills a plugin process that leads a process group, and
// everything left in its group.
func killTree(p *os.Process) error {
	err := p.Kill()
	_ = procgroup.KillGroup(p.Pid)
	return err
}

// Close ends every plugin the host started and everything they started.
// It is safe to call more than once and from a signal path.
func (h *Host) Close() {
	h.mu.Lock()
	h.closed = true
	running := h.running
	h.running = nil
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, pr := range running {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pr.end()
		}()
	}
	wg.Wait()
	h.ending.Wait() // the plugins ended in the background
	h.mu.Lock()
	dir := h.sockets
	h.sockets = ""
	h.mu.Unlock()
	if dir != "" {
		_ = os.RemoveAll(dir)
	}
	h.sweeping.Wait()
	prestart.Discard() // a companion started ahead and not taken
}

// logLevel names the level of l for a plugin's own logger.
func logLevel(l hclog.Logger) string {
	if lv := l.GetLevel(); lv != hclog.NoLevel {
		return lv.String()
	}
	return "info"
}

// passEnv returns the host's values of the named variables.
func passEnv(names []string) []string {
	var env []string
	for _, n := range names {
		if v, ok := os.LookupEnv(n); ok {
			env = append(env, n+"="+v)
		}
	}
	return env
}

// tail keeps the last bytes written to it, in whole lines where it can.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTail(max int) *tail { return &tail{max: max} }

// Write implements io.Writer. A JSON log line from the plugin's logger
// is kept as "level: message".
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if line := bytes.TrimSpace(p); len(line) > 0 && line[0] == '{' {
		var e struct {
			Level   string `json:"@level"`
			Message string `json:"@message"`
		}
		if json.Unmarshal(line, &e) == nil && e.Message != "" {
			p = []byte(e.Level + ": " + e.Message + "\n")
		}
	}
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = t.buf[over:]
		if i := bytes.IndexByte(t.buf, '\n'); i >= 0 && i < len(t.buf)-1 {
			t.buf = t.buf[i+1:]
		}
	}
	return n, nil
}

// String returns the kept text without its final newline.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimRight(string(t.buf), "\n")
}
