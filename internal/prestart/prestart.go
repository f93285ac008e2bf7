// Package prestart starts the file transport's companion binary while
// rubric is still initialising its packages, for a `rubric score` that
// will read a file: the companion's start (exec, its runtime and package
// init) then overlaps rubric's own init instead of following it, and a
// one-tool score costs little more than `rubric --version`.
//
// The companion started ahead of need does its init and waits: the host
// (plugins/host) gives it, through a pipe, the exact environment go-plugin
// would have started it with, and only then does it serve. A prestarted
// companion the host does not take (another transport, another path, a
// changed environment) reads the pipe's end and exits without serving.
//
// The package's init does the start (and raises the collector's target
// for the start, see Started); it imports nothing above os and
// runtime/debug, so that it runs about a quarter of the way through
// rubric's init.
package prestart

import (
	"errors"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
)

// Env marks a process started ahead of need: it must wait for its
// environment (Await) before anything reads it.
const Env = "RUBRIC_PRESTARTED"

// Companion is the file transport's companion binary's name, beside rubric.
const Companion = "rubric-transport-file"

// ordersFD is the descriptor a prestarted process reads its environment
// from (the fourth of os.ProcAttr.Files).
const ordersFD = 3

// Process is a companion started ahead of need, waiting for its
// environment.
type Process struct {
	// Process is the started process; its Wait reaps it.
	*os.Process
	// Path is the binary's path.
	Path string
	// Stdout and Stderr are its standard output and error, as go-plugin
	// reads a plugin's; Wait closes them.
	Stdout, Stderr *os.File
	// environ is rubric's environment when it was started.
	environ []string
	group   bool
	orders  *os.File
}

var (
	mu      sync.Mutex
	started *Process
)

// The package imports nothing of os/exec or path/filepath (which would
// put its init after theirs, and theirs after most of rubric's): the
// binary beside rubric is found, and started, with os alone.
func init() {
	if !Wanted(os.Args) {
		return
	}
	// A score's start (the rest of the packages' init, the rubric's
	// load) allocates a few megabytes that stay live: collecting them
	// every time the heap grows by that much is most of the collector's
	// work in a small run. Started is called once a surface is read that
	// is not small (plugins/host), so a large capture is parsed and
	// scored as before.
	gcPercent, raised = debug.SetGCPercent(startGCPercent), true
	exe, err := os.Executable()
	if err != nil || base(exe) != base(os.Args[0]) {
		return // a binary standing in for rubric: Self looks it up
	}
	c := exe[:len(exe)-len(base(exe))] + Companion
	if st, err := os.Stat(c); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return
	}
	_ = Start(c, false)
}

// startGCPercent is the collector's target while a score starts.
const startGCPercent = 400

// gcPercent is the collector's target before the start raised it, when
// raised says it was.
var (
	gcPercent int
	raised    bool
)

// Started ends the start of a score: the collector's target is set back
// to what it was (GOGC's, by default 100), before anything large is
// parsed.
// Calling it again, or where the target was not raised, does nothing.
func Started() {
	mu.Lock()
	defer mu.Unlock()
	if raised {
		debug.SetGCPercent(gcPercent)
		raised = false
	}
}

// base is the last element of a slash-separated path.
func base(path string) string { return path[strings.LastIndexByte(path, '/')+1:] }

// Wanted says whether args (os.Args) are a `rubric score` that reads a
// file with the file transport, as far as can be told without parsing
// the flags: score as the first argument, no command after --, no URL,
// no --transport, --config-file or --server, no help. It is never so
// where a companion cannot be started ahead (attr).
func Wanted(args []string) bool {
	if attr(false) == nil || len(args) < 3 || args[1] != "score" || os.Getenv(Env) != "" {
		return false
	}
	for _, a := range args[2:] {
		if a == "--" || a == "-h" || a == "--help" || strings.Contains(a, "://") {
			return false
		}
		for _, f := range []string{"--transport", "--config-file", "--server"} {
			if a == f || strings.HasPrefix(a, f+"=") {
				return false
			}
		}
	}
	return true
}

// Start starts the binary at path, an absolute path, with no arguments,
// to wait for its environment; group says whether it leads a process
// group of its own (procgroup.Attr). A second start before the first is
// taken is an error.
func Start(path string, group bool) (err error) {
	mu.Lock()
	defer mu.Unlock()
	if started != nil {
		return errors.New("a companion is already started ahead")
	}
	if attr(group) == nil {
		return errors.New("a companion cannot be started ahead on " + runtime.GOOS)
	}
	var pipes [6]*os.File // read, write: stdout, stderr, orders
	defer func() {
		for i, f := range pipes {
			// The parent keeps the read ends of stdout and stderr and
			// the write end of the orders, unless the start failed.
			if f != nil && (err != nil || i == 1 || i == 3 || i == 4) {
				f.Close()
			}
		}
	}()
	for i := 0; i < len(pipes); i += 2 {
		if pipes[i], pipes[i+1], err = os.Pipe(); err != nil {
			return err
		}
	}
	environ := os.Environ()
	proc, err := os.StartProcess(path, []string{path}, &os.ProcAttr{
		Env:   append(slices.Clip(environ), Env+"=1"),
		Files: []*os.File{os.Stdin, pipes[1], pipes[3], pipes[4]},
		Sys:   attr(group),
	})
	if err != nil {
		return err
	}
	started = &Process{Process: proc, Path: path, Stdout: pipes[0], Stderr: pipes[2], environ: environ, group: group, orders: pipes[5]}
	return nil
}

// Take returns the process started ahead for path, leading a group of
// its own as group says, if there is one and rubric's environment is
// still the one it was started in; the caller then owns it. Nil
// otherwise: a process started for another path is kept for its own
// start, one started in another environment is ended.
func Take(path string, group bool) *Process {
	mu.Lock()
	p := started
	if p != nil && (p.Path != path || p.group != group) {
		p = nil
	}
	if p != nil {
		started = nil
	}
	mu.Unlock()
	if p != nil && !slices.Equal(p.environ, os.Environ()) {
		p.Discard()
		return nil
	}
	return p
}

// Discard ends the process started ahead, if it was not taken.
func Discard() {
	mu.Lock()
	p := started
	started = nil
	mu.Unlock()
	if p != nil {
		p.Discard()
	}
}

// Send gives the process its environment, on which it starts serving.
func (p *Process) Send(env []string) error {
	defer p.orders.Close()
	for _, kv := range env {
		if strings.IndexByte(kv, 0) >= 0 || !strings.Contains(kv, "=") {
			return errors.New("an environment entry holds a NUL byte or no =: it cannot be sent to a started process")
		}
	}
	_, err := io.WriteString(p.orders, strings.Join(env, "\x00"))
	return err
}

// Wait waits for the process to end, then closes its standard output
// and error: the caller reads them to their end before, as go-plugin
// does with a plugin's.
func (p *Process) Wait() (*os.ProcessState, error) {
	st, err := p.Process.Wait()
	p.Stdout.Close()
	p.Stderr.Close()
	return st, err
}

// Discard ends a process that will not be sent its environment.
func (p *Process) Discard() {
	p.orders.Close()
	_ = p.Kill()
	_, _ = p.Wait()
}

// Await, in a process started ahead (Env set), waits for the environment
// the host sends and makes it the process's own; it exits, without a
// word, when the host ends without sending one. Elsewhere it returns at
// once. Anything that reads the environment must come after it.
func Await() {
	awaitOnce.Do(await)
}

var awaitOnce sync.Once

func await() {
	if os.Getenv(Env) == "" {
		return
	}
	f := os.NewFile(ordersFD, "orders")
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil || len(b) == 0 {
		os.Exit(0)
	}
	os.Clearenv()
	for kv := range strings.SplitSeq(string(b), "\x00") {
		k, v, _ := strings.Cut(kv, "=")
		if err := os.Setenv(k, v); err != nil {
			os.Stderr.WriteString("cannot set " + k + " as rubric asked: " + err.Error() + "\n")
			os.Exit(1)
		}
	}
}
