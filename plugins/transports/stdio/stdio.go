// Package stdio is the transport that spawns an MCP server and lists its
// tools over the server's standard input and output.
//
// It owns the child process rather than leaving it to mcp-go, so that it can
// hold the server to the protocol (one JSON-RPC message per line on stdout,
// no message over --max-bytes; a few stray lines are skipped with a
// warning, and none under Target.StrictStdout), notice at once when the
// server exits, say why with the end of its stderr, and stop a server that
// ignores the end of its input. What the server writes on stderr reaches
// the log and error messages made printable: a server's escape sequences
// never reach the user's terminal.
package stdio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	mcptransport "github.com/mark3labs/mcp-go/client/transport"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/procgroup"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/internal/sandbox"
	"github.com/rubricmcp/rubric/internal/termtext"
	"github.com/rubricmcp/rubric/plugins/sdk"
	"github.com/rubricmcp/rubric/plugins/transports/mcpclient"
)

// How long a server is given at each step of stopping it.
const (
	// eofGrace is the wait for a server to exit once its stdin is closed.
	eofGrace = 1 * time.Second
	// termGrace is the wait after SIGTERM, before SIGKILL.
	termGrace = 2 * time.Second
	// interruptGrace replaces termGrace when the user interrupted.
	interruptGrace = 500 * time.Millisecond
	// exitGrace is how long stdout may stay open after the server exited
	// (a child of it may hold it) before the pending request gives up.
	exitGrace = 200 * time.Millisecond
	// pipeGrace is the wait for the end of a pipe after the server exited,
	// so that its last words are read.
	pipeGrace = 200 * time.Millisecond
	// stderrLines is how many lines of stderr an error message quotes.
	stderrLines = 5
	// tailSize is how much of a server's stderr is kept for error
	// messages.
	tailSize = 4 << 10
	// maxStderr is how much a server may write on stderr before it is
	// cut off: a server that starts and lists its tools logs far less,
	// and one that floods stderr is stuck in a loop, not about to answer.
	maxStderr = 16 << 20
	// floodLines and floodLine bound what the message about a flooded
	// stderr quotes of it: its last lines, each cut.
	floodLines = 3
	floodLine  = 160
)

// Transport spawns servers and lists their tools over stdio.
type Transport struct {
	// ClientVersion is rubric's version, sent in initialize.
	ClientVersion string
	// Stderr, when set, receives a copy of the server's stderr, for
	// logging: whole lines made printable (termtext.Printable), each
	// ending with a newline, a line longer than 4 KiB in pieces. It should
	// not block: the server waits while it does.
	Stderr io.Writer
	// Warn, when set, receives the warning said while the server is
	// still awaited: the first line it wrote on stdout that is not
	// JSON-RPC, which is skipped. Nil means sdk.Warn, which the plugin
	// host shows the user at once.
	Warn func(msg string)

	// Set by tests only: see mcpclient.Config.Deadline and outGuard.noted.
	deadline func(context.Context, time.Duration) (context.Context, context.CancelFunc)
	noted    func()
	// maxStderr replaces the constant of that name when not 0.
	maxStderr int64
}

var _ transport.Transport = Transport{}

// Name implements transport.Transport.
func (Transport) Name() string { return "stdio" }

// Describe implements transport.Transport: a command to start.
func (Transport) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "stdio", Version: buildinfo.Version(), Locality: transport.Command}, nil
}

// Export implements transport.Transport. It runs target.Location with
// target.Args in target.Dir, with the caller's environment plus
// target.Env, lists the server's tools and stops it: stdin is closed, then
// SIGTERM follows after a second and SIGKILL two seconds later. The server
// is never left running, and nothing Export started outlives it: every
// process that still carries the session's mark in its environment
// (procgroup.Mark) is killed once the server has ended, one that left the
// process group with setsid() included. With target.Sandbox the server
// runs under bubblewrap instead (internal/sandbox): the environment is
// then only what the sandbox passes plus target.Env, and ending bwrap
// ends everything inside.
func (t Transport) Export(ctx context.Context, target transport.Target) (*surface.Surface, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	limits := target.Limits.WithDefaults()
	floodAt := int64(maxStderr)
	if t.maxStderr > 0 {
		floodAt = t.maxStderr
	}
	// What rubric put in the server's environment (a token, a key) is
	// hidden from whatever of the server's words rubric passes on: its
	// stderr, the lines it wrote on stdout, the errors quoting them.
	secrets := redact.Credentials(target.Env, nil)
	p, err := start(target, redact.ValuesWriter(t.Stderr, secrets), limits.MaxBytes, floodAt)
	if err != nil {
		return nil, redact.Error(err, secrets)
	}
	p.out.noted = t.noted
	warn := t.warn(target)
	p.out.warn = func(first string) { warn(redact.Values(first, secrets)) }
	tr := mcptransport.NewIO(p.out, askedWriter{p.stdin, p.out}, nil)
	// mcp-go logs the read error that ends its loop; the error reaches the
	// user through fault instead.
	mcptransport.WithCommandLogger(slog.New(slog.DiscardHandler))(tr)

	argv := make([]any, 0, 1+len(target.Args))
	argv = append(argv, target.Location)
	for _, a := range target.Args {
		argv = append(argv, a)
	}
	s, err := mcpclient.List(ctx, tr, mcpclient.Config{
		ClientVersion: t.ClientVersion,
		Limits:        limits,
		Source:        target.String(),
		Server:        map[string]any{"command": argv},
		Fault:         p.fault,
		Lost:          p.lost,
		Dropped:       p.out.dropped,
		Deadline:      t.deadline,
	})
	p.stop(ctx.Err() != nil)
	if err == nil {
		if note := p.out.skippedNote(); note != "" {
			s.Warnings = append(s.Warnings, redact.Values(note, secrets)+" (an MCP server must write only protocol messages there; --strict-stdout refuses such a server)")
		}
	}
	return s, offlineHint(target, redact.Error(err, secrets))
}

// downloaders are launchers that fetch the server they run from a
// registry, unless it is installed where they look.
var downloaders = map[string]bool{"npx": true, "uvx": true, "bunx": true, "pnpx": true, "pipx": true}

// hinted is an error with a hint after its message; it is still what it
// wraps.
type hinted struct {
	err  error
	hint string
}

func (e *hinted) Error() string { return e.err.Error() + "\n" + e.hint }
func (e *hinted) Unwrap() error { return e.err }

// offlineHint adds to the failure of a launcher that downloads its server
// (npx -y, uvx), run in a sandbox without the network, that the download
// is what may have failed: npx then waits for the network until the
// start timeout, and nothing else says why.
//
// go run, sandboxed, fails with or without the network: the sandbox shows
// it neither the module cache nor the build cache, so it would download
// and compile every dependency in the private HOME on each run; the
// failure says to build the server first, as the README does.
func offlineHint(target transport.Target, err error) error {
	if err == nil || !target.Sandbox.Enabled() {
		return err
	}
	if filepath.Base(target.Location) == "go" && len(target.Args) > 0 && target.Args[0] == "run" {
		return &hinted{err: err, hint: fmt.Sprintf("go run ran in the sandbox (--sandbox %s), which shows it neither your module cache nor your build cache, and no network without --sandbox-net: build the server first (go build -o server ./PACKAGE) and give rubric that binary", target.Sandbox.Kind)}
	}
	if target.Sandbox.Net || !downloaders[filepath.Base(target.Location)] {
		return err
	}
	return &hinted{err: err, hint: fmt.Sprintf("%s ran in the sandbox without the network (--sandbox %s): if it had to download the server, give --sandbox-net, or install the server and run it from its folder", filepath.Base(target.Location), target.Sandbox.Kind)}
}

// warn is what the guard calls with the first line it skips: a warning
// that names the server, so that a user waiting for its answer hears why
// it may not come.
func (t Transport) warn(target transport.Target) func(first string) {
	say := t.Warn
	if say == nil {
		say = func(msg string) { sdk.Warn(msg) }
	}
	return func(first string) {
		say(fmt.Sprintf("server %q wrote a line other than JSON-RPC on stdout, which rubric skips while it waits for the server's answer: %s (an MCP server must write only protocol messages there, and its logs to stderr)", target.String(), first))
	}
}

// askedWriter is the server's stdin: it tells the guard the id of each
// request on its way, so that an answer with another id can be named.
// mcp-go writes one whole message per Write.
type askedWriter struct {
	w *os.File
	g *outGuard
}

// Write implements io.Writer.
func (a askedWriter) Write(p []byte) (int, error) {
	a.g.noteAsked(p)
	return a.w.Write(p)
}

// Close implements io.Closer.
func (a askedWriter) Close() error { return a.w.Close() }

// proc is a running server and the goroutines that watch it.
type proc struct {
	cmd    *exec.Cmd
	stdin  *os.File // the write end of the server's stdin
	stdout *os.File // the read end of its stdout, behind out
	stderr *os.File // the read end of its stderr, drained into tail
	out    *outGuard
	tail   *termtext.Tail
	mark   string // the environment entry of the server's session
	name   string // the command as the user gave it
	// dir is the folder the command was started in, where a relative
	// command is found (interpreter).
	dir string
	// sandboxed says the process is bwrap, which may fail to set the
	// sandbox up before the server ever runs.
	sandboxed bool

	// stderrBytes counts what the server wrote on stderr; past
	// maxStderr it is cut off (floodError).
	stderrBytes atomic.Int64
	maxStderr   int64

	exited  chan struct{} // closed once the server is reaped
	drained chan struct{} // closed once stderr is read to its end
	quit    chan struct{} // closed by stop to end the watcher
	wg      sync.WaitGroup

	lost context.Context // see mcpclient.Config.Lost
	lose context.CancelFunc
}

// start spawns the server with three pipes of its own. Handing the child
// plain files (not io.Writers) means no copying goroutines, and cmd.Wait
// neither waits on nor closes our ends, so the server's last words are read
// even when it exits at once.
// A server that writes more than maxStderr bytes on stderr is cut off.
func start(target transport.Target, stderr io.Writer, limit, maxStderr int64) (*proc, error) {
	name := target.Location
	if name == "" {
		return nil, errors.New("no command given: name the server to start")
	}
	if target.Dir != "" {
		if _, err := os.Stat(target.Dir); err != nil {
			return nil, startError(name, "", &fs.PathError{Op: "chdir", Path: target.Dir, Err: errors.Unwrap(err)})
		}
	}
	cmd := exec.Command(name, target.Args...)
	cmd.Dir = target.Dir
	// The mark finds what the server started, even a process that left
	// the process group, when the server stops.
	mark := procgroup.Mark()
	cmd.Env = append(environ(target.Env, target.Unset), mark)
	if target.Sandbox.Enabled() {
		// bwrap takes the server's place: it reads the pipes' ends, and
		// the server inside gets only the environment built here.
		w, err := sandbox.Wrap(target.Sandbox, sandbox.Spec{
			Name: name, Args: target.Args, Dir: target.Dir,
			Env: append(pairs(target.Env), mark),
		}, withoutVars(sandbox.System(), target.Unset))
		if err != nil {
			return nil, startError(name, target.Dir, err)
		}
		cmd = exec.Command(w.Path, w.Args...)
		cmd.Env = w.Env
	}
	// The server is killed if rubric dies first; it stays in the plugin's
	// process group, which the host kills whole afterwards.
	cmd.SysProcAttr = procgroup.Attr(false, syscall.SIGKILL)

	var files [6]*os.File // stdin r,w; stdout r,w; stderr r,w
	for i := 0; i < 6; i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(files[:i]...)
			return nil, fmt.Errorf("cannot start %q: %w", name, err)
		}
		files[i], files[i+1] = r, w
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0], files[3], files[5]
	err := cmd.Start()
	closeAll(files[0], files[3], files[5]) // the child's ends
	if err != nil {
		closeAll(files[1], files[2], files[4])
		return nil, startError(name, target.Dir, err)
	}
	p := &proc{
		cmd:       cmd,
		stdin:     files[1],
		stdout:    files[2],
		stderr:    files[4],
		out:       newOutGuard(files[2], limit, target.StrictStdout),
		tail:      &termtext.Tail{Max: tailSize},
		mark:      mark,
		name:      name,
		maxStderr: maxStderr,
		exited:    make(chan struct{}),
		drained:   make(chan struct{}),
		quit:      make(chan struct{}),
	}
	p.sandboxed = target.Sandbox.Enabled()
	p.dir = target.Dir
	p.lost, p.lose = context.WithCancel(context.Background())
	p.wg.Add(2)
	go p.wait()
	go p.drain(stderr)
	return p, nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

// environ is the caller's environment without the names in unset, plus
// extra, in a stable order; a later entry wins over an earlier one of
// the same name.
func environ(extra map[string]string, unset []string) []string {
	env := os.Environ()
	if len(unset) > 0 {
		env = slices.DeleteFunc(env, func(kv string) bool {
			name, _, _ := strings.Cut(kv, "=")
			return slices.Contains(unset, name)
		})
	}
	return append(env, pairs(extra)...)
}

// withoutVars is h with the names in unset read as not set: the host's
// variables a sandbox passes on are left out as environ leaves them out.
func withoutVars(h sandbox.Host, unset []string) sandbox.Host {
	if len(unset) == 0 {
		return h
	}
	get := h.Getenv
	h.Getenv = func(name string) (string, bool) {
		if slices.Contains(unset, name) {
			return "", false
		}
		return get(name)
	}
	return h
}

// pairs is m as NAME=VALUE entries sorted by name.
func pairs(m map[string]string) []string {
	env := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		env = append(env, k+"="+m[k])
	}
	return env
}

// launchers are the commands that start a server from a registry's
// package, each with what to install when it is missing: the server is
// not the user's program, and "executable file not found" does not say
// where uvx comes from.
var launchers = map[string]string{
	"uvx":     "it comes with uv: install uv (pip install uv, or see https://docs.astral.sh/uv/), which starts Python packages",
	"uv":      "install uv (pip install uv, or see https://docs.astral.sh/uv/)",
	"pipx":    "install pipx (apt-get install pipx, or pip install pipx)",
	"npx":     "it comes with npm: install Node.js and npm (apt-get install nodejs npm, or see https://nodejs.org)",
	"npm":     "install Node.js and npm (apt-get install nodejs npm, or see https://nodejs.org)",
	"node":    "install Node.js (apt-get install nodejs, or see https://nodejs.org)",
	"python":  "install Python 3 (apt-get install python3), or name python3 if that is what is installed",
	"python3": "install Python 3 (apt-get install python3)",
	"docker":  "install Docker (see https://docs.docker.com/engine/install/)",
	"bunx":    "it comes with Bun: install Bun (see https://bun.sh)",
	"deno":    "install Deno (see https://deno.com)",
}

// isFile reports whether path names a file that is not a folder.
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// startError words a failure to spawn: "cannot start "nope": executable
// file not found in $PATH". A command or working directory that does not
// exist, or may not be run, is a failure for good. dir is the server's
// working directory ("" for rubric's), where a command given by a
// relative path is looked for.
func startError(name, dir string, err error) error {
	final := errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)
	var ee *exec.Error
	var pe *fs.PathError
	switch {
	case errors.As(err, &ee) && errors.Is(ee.Err, exec.ErrNotFound) && launchers[filepath.Base(name)] != "":
		err = fmt.Errorf("cannot start %q: %w: %s", name, ee.Err, launchers[filepath.Base(name)])
	case errors.As(err, &ee) && strings.ContainsRune(name, filepath.Separator) && (errors.Is(ee.Err, fs.ErrNotExist) || errors.Is(ee.Err, fs.ErrPermission)):
		// The sandbox looked the program up before bwrap could.
		err = fmt.Errorf("cannot start %q: %s", name, commandFileError(name, dir, ee.Err))
	case errors.As(err, &ee) && errors.Is(ee.Err, exec.ErrNotFound) && !strings.ContainsRune(name, filepath.Separator) && isFile(filepath.Join(dir, name)):
		// A program in the working directory is not looked up there, as
		// a shell does not: it needs a path.
		err = fmt.Errorf("cannot start %q: %w; %s is in the server's working directory: name it ./%s", name, ee.Err, name, name)
	case errors.As(err, &ee):
		err = fmt.Errorf("cannot start %q: %w", name, ee.Err)
	case errors.As(err, &pe) && pe.Op == "chdir" && errors.Is(pe.Err, fs.ErrNotExist):
		err = fmt.Errorf("cannot start %q: its working directory %s does not exist", name, pe.Path)
	case errors.As(err, &pe) && pe.Op == "chdir":
		err = fmt.Errorf("cannot start %q: its working directory %s: %w", name, pe.Path, pe.Err)
	case errors.As(err, &pe) && strings.ContainsRune(name, filepath.Separator) && (errors.Is(pe.Err, fs.ErrNotExist) || errors.Is(pe.Err, fs.ErrPermission)):
		err = fmt.Errorf("cannot start %q: %s", name, commandFileError(name, dir, pe.Err))
	case errors.As(err, &pe):
		err = fmt.Errorf("cannot start %q: %w", name, pe.Err)
	default:
		err = fmt.Errorf("cannot start %q: %w", name, err)
	}
	if final {
		return transport.Permanent(err)
	}
	return err
}

// commandFileError says why the command file at name (a path, relative
// to dir or to rubric's working directory) could not be run, and what to
// do: a relative path is looked for in the server's working directory,
// which --cwd (or a configuration's cwd) moves away from the shell's, and
// a file that is there yet "does not exist" is a script whose #! line
// names a missing interpreter.
func commandFileError(name, dir string, err error) string {
	path, where := name, ""
	if !filepath.IsAbs(name) {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs // "" is rubric's working directory
		}
		path = filepath.Join(dir, name)
		where = " (a relative command is looked for in the server's working directory, " + dir + ")"
	}
	st, statErr := os.Stat(path)
	switch {
	case statErr != nil && errors.Is(err, fs.ErrNotExist) && where == "":
		return fmt.Sprintf("no file %s: check the server program's path", path)
	case statErr != nil && errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("no file %s%s: give the server program's path from there, or an absolute one", path, where)
	case statErr != nil:
		return fmt.Sprintf("%v (%v): give a server program rubric may read and run", err, statErr)
	case st.IsDir():
		return fmt.Sprintf("%s is a directory: give the server program inside it", path)
	case errors.Is(err, fs.ErrNotExist):
		// The file is there, so what is missing is what starts it: a
		// script's interpreter, or a program's loader.
		switch startsWith(path) {
		case "#!":
			return fmt.Sprintf("%s is there, but the interpreter its #! line names is not: install that interpreter or correct the line, or start the script through one that is installed (node FILE, python3 FILE)", path)
		case "\x7fELF":
			return fmt.Sprintf("%s is there, but the loader it was linked to run with is not: it was built for another system (against musl on a glibc one, say); install a build of the server for this one", path)
		}
		return fmt.Sprintf("%s is there, but what it needs to start is not: start it through its interpreter (node FILE, python3 FILE), or install a build of the server for this system", path)
	case errors.Is(err, fs.ErrPermission) && st.Mode()&0o111 != 0:
		// Executable, and still refused: the filesystem it is on
		// forbids running programs.
		return fmt.Sprintf("%s is executable but may not be run (%v): the filesystem it is on may be mounted noexec (see mount); move the server elsewhere, or start it through its interpreter (node FILE, python3 FILE)", path, err)
	}
	return fmt.Sprintf("%s may not be run (%v): make it executable (chmod +x %s), or start it through its interpreter (node FILE, python3 FILE)", path, err, path)
}

// startsWith is "#!" for a script, "\x7fELF" for an ELF program, and ""
// for anything else or a file that cannot be read.
func startsWith(path string) string {
	head := fileHead(path, 4)
	switch {
	case bytes.HasPrefix(head, []byte("#!")):
		return "#!"
	case bytes.Equal(head, []byte("\x7fELF")):
		return "\x7fELF"
	}
	return ""
}

// fileHead is the first n bytes of the file at path (fewer for a shorter
// file), or nil when it cannot be read.
func fileHead(path string, n int) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, n)
	got, _ := io.ReadFull(f, head)
	return head[:got]
}

// wait reaps the server. Its stdout normally ends with it; if a child of
// the server keeps stdout open, the pending request is released anyway
// after exitGrace.
func (p *proc) wait() {
	defer p.wg.Done()
	_ = p.cmd.Wait()
	close(p.exited)
	grace := time.NewTimer(exitGrace)
	defer grace.Stop()
	select {
	case <-p.out.eofCh:
	case <-grace.C:
		p.lose()
	case <-p.quit:
	}
}

// drain copies stderr into the tail and, line by line and printable, to w
// until it ends.
func (p *proc) drain(w io.Writer) {
	defer p.wg.Done()
	defer close(p.drained)
	var lines *printableLines
	if w != nil {
		lines = &printableLines{w: w}
		defer lines.flush()
	}
	buf := make([]byte, 4096)
	for {
		n, err := p.stderr.Read(buf)
		if n > 0 {
			if total := p.stderrBytes.Add(int64(n)); total > p.maxStderr && total-int64(n) <= p.maxStderr {
				// Read on, so that the server does not block on a full
				// pipe before it is stopped.
				p.lose()
			}
			p.tail.Write(buf[:n])
			if lines != nil {
				lines.write(buf[:n])
			}
		}
		if err != nil {
			return
		}
	}
}

// logLine is the longest piece of a stderr line passed on at once.
const logLine = 4 << 10

// printableLines passes what a server writes on to w as whole lines made
// printable: an escape sequence split between two writes is still removed
// whole, and no line reaches a log half written.
type printableLines struct {
	w    io.Writer
	line []byte
}

func (l *printableLines) write(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.line = append(l.line, b...)
			if len(l.line) >= logLine {
				l.flush()
			}
			return
		}
		l.line = append(l.line, b[:i]...)
		l.flush()
		b = b[i+1:]
	}
}

// flush passes the line held, if any.
func (l *printableLines) flush() {
	if len(l.line) == 0 {
		return
	}
	text := strings.TrimRight(termtext.Printable(string(l.line)), "\n")
	l.line = l.line[:0]
	io.WriteString(l.w, text+"\n")
}

func (p *proc) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// fault explains a failed request from what the process did; see
// mcpclient.Config.Fault.
func (p *proc) fault(method string, err error) error {
	broken, eof := p.out.state()
	if broken != nil {
		// Cut off for what it wrote: it would write the same again.
		p.lose()
		if errors.Is(broken, errTooLarge) {
			return transport.Permanent(&mcpclient.TooLargeError{Method: method, Limit: p.out.limit})
		}
		return transport.Permanent(broken)
	}
	if n := p.stderrBytes.Load(); n > p.maxStderr {
		return p.floodError(method, n)
	}
	if !p.hasExited() {
		pipeGone := eof || errors.Is(err, mcptransport.ErrTransportClosed) || errors.Is(err, syscall.EPIPE)
		if !pipeGone {
			return nil // the server is alive: a timeout, say
		}
		// The server is on its way out; learn how it ends.
		if !within(p.exited, termGrace) {
			return fmt.Errorf("server closed its stdout before answering %s", method)
		}
	}
	return p.exitError(method)
}

// exitError says how the server ended and quotes the end of its stderr.
// A command missing inside the sandbox is a failure for good.
func (p *proc) exitError(method string) error {
	within(p.drained, pipeGrace)
	how := "exited"
	state := p.cmd.ProcessState
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		how += fmt.Sprintf(" on signal %d (%v)", int(ws.Signal()), ws.Signal())
	} else {
		how += fmt.Sprintf(" with status %d", state.ExitCode())
	}
	msg := fmt.Sprintf("server %s before answering %s", how, method)
	lines := p.tail.Lines(stderrLines)
	q := p.tail.Quote(stderrLines)
	if what, why := p.notFoundInside(state, lines); why != "" {
		msg = fmt.Sprintf("%s is not found inside the sandbox: %s", what, why)
		if q != "" {
			msg += q
		}
		if d := p.out.dropped(); d != "" {
			msg += "\n" + d
		}
		return transport.Permanent(errors.New(msg + "\n" + sandbox.NotFoundHint))
	}
	if q != "" {
		msg += q
	} else {
		msg += " (it wrote nothing on stderr)"
	}
	if d := p.out.dropped(); d != "" {
		msg += "\n" + d
	}
	if p.sandboxed {
		if h := bwrapHint(lines); h != "" {
			msg += "\n" + h
		}
	}
	if p.sandboxed && slices.ContainsFunc(lines, missingModule) {
		// node or python could not load a file of the server's own,
		// which lies outside what the sandbox shows.
		return transport.Permanent(errors.New(msg + "\nthe server could not load a module it needs, which is likely outside the sandbox: " + sandbox.NotFoundHint))
	}
	return errors.New(msg)
}

// bwrapHint explains bwrap's own complaint among a sandboxed server's
// stderr lines, "" when there is none. bwrap says "bwrap: execvp ..."
// when it set the sandbox up and could not run the program in it (a
// file on a noexec mount: one that is missing or plainly not executable
// is refused before bwrap starts), and "bwrap: ..." otherwise when it
// could not set the sandbox up, most often for want of user namespaces.
func bwrapHint(lines []string) string {
	for _, l := range lines {
		rest, ok := strings.CutPrefix(l, "bwrap: ")
		if !ok {
			continue
		}
		if strings.HasPrefix(rest, "execvp ") {
			if strings.HasSuffix(strings.ToLower(rest), ": permission denied") {
				return "the sandbox was set up, but the program may not be run inside it (permission denied): a file on a filesystem mounted noexec cannot be run; move the server, or start it through its interpreter (node FILE, python3 FILE)"
			}
			continue
		}
		return sandbox.FailedHint
	}
	return ""
}

// missingModule says whether a line of stderr is node's or python's
// complaint about a module it cannot find.
func missingModule(line string) bool {
	for _, m := range []string{"MODULE_NOT_FOUND", "Cannot find module", "Cannot find package", "ModuleNotFoundError"} {
		if strings.Contains(line, m) {
			return true
		}
	}
	return false
}

// notFoundInside says what is missing when a sandboxed server shows that
// its command, or a program the command runs, is not inside the sandbox,
// and how it showed it: bwrap could not run it ("bwrap: execvp NAME: No
// such file or directory"), or it exited with the shell's status for a
// command not found. why is "" when neither.
func (p *proc) notFoundInside(state *os.ProcessState, stderr []string) (what, why string) {
	if !p.sandboxed {
		return "", ""
	}
	what = strconv.Quote(p.name)
	for _, l := range stderr {
		if strings.HasPrefix(l, "bwrap: execvp ") && strings.HasSuffix(strings.ToLower(l), ": no such file or directory") {
			// Read only now: a start that works never needs it.
			if interp := interpreter(p.name, p.dir); interp != "" {
				return what, fmt.Sprintf("bwrap could not run it, and its #! line names %s", interp)
			}
			return what, "bwrap could not run it"
		}
	}
	if state.ExitCode() == 127 {
		return what + " (or a program it runs)", "it exited with status 127, a shell's status for a command not found"
	}
	return "", ""
}

// floodError cuts off a server that wrote more than maxStderr bytes on
// stderr, n so far, quoting the end of it. Another attempt may fare
// better (a server that logs in a loop while a service it needs is
// down), so it is not a failure for good.
func (p *proc) floodError(method string, n int64) error {
	msg := fmt.Sprintf("server flooded its stderr: it wrote %s there before answering %s, more than the %s rubric reads from a server (no flag raises this bound: have the server log less, or to a file)",
		transport.Measured(n), method, transport.Sized(p.maxStderr))
	lines := p.tail.Lines(floodLines)
	for i, l := range lines {
		if len(l) > floodLine {
			cut := floodLine
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			lines[i] = l[:cut] + "…"
		}
	}
	switch len(lines) {
	case 0:
	case 1:
		msg += "; its stderr ended with: " + lines[0]
	default:
		msg += "; its stderr ended with:\n    " + strings.Join(lines, "\n    ")
	}
	return errors.New(msg)
}

// interpreter is the program the #! line of the file that command names
// (found as the sandbox finds it, in dir when relative) runs, or "".
func interpreter(command, dir string) string {
	path := command
	if !strings.Contains(command, "/") {
		var err error
		if path, err = exec.LookPath(command); err != nil {
			return ""
		}
	} else if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	line, _, _ := bytes.Cut(fileHead(path, 256), []byte("\n"))
	rest, ok := bytes.CutPrefix(line, []byte("#!"))
	if !ok {
		return ""
	}
	if fields := strings.Fields(string(rest)); len(fields) > 0 {
		return termtext.Printable(fields[0])
	}
	return ""
}

// stop ends the server (stdin is already closed: mcpclient.List closes
// the transport): it waits eofGrace for the server to exit, sends SIGTERM,
// waits termGrace, then sends SIGKILL. After an interrupt it does not wait
// for the end of input and gives SIGTERM only interruptGrace. It then
// ends every goroutine it started and the mcp-go reader.
func (p *proc) stop(interrupted bool) {
	p.stdin.Close()
	if !interrupted {
		p.await(eofGrace)
	}
	if !p.hasExited() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		grace := termGrace
		if interrupted {
			grace = interruptGrace
		}
		p.await(grace)
	}
	if !p.hasExited() {
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	// Whatever the server started and left behind goes with it, a
	// process that called setsid() included.
	procgroup.KillMarked(p.mark)
	close(p.quit)

	// Closing our end of stdout ends mcp-go's reader, if it still runs.
	p.stdout.Close()
	within(p.out.stopped, pipeGrace)
	// A child of the server may hold stderr open; read what is there, then
	// cut it.
	within(p.drained, pipeGrace)
	p.stderr.Close()
	p.wg.Wait()
}

// await waits up to d for the server to exit.
func (p *proc) await(d time.Duration) { within(p.exited, d) }

// within waits up to d for ch to close and reports whether it did.
func within(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
