package stdio

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/fakemcp"
	"github.com/rubricmcp/rubric/internal/proctest"
)

// fakeTarget runs the fake server named mode.
func fakeTarget(mode string, limits transport.Limits) transport.Target {
	return transport.Target{
		Location: fakeServer,
		Env:      map[string]string{fakeEnv: mode},
		Limits:   limits,
	}
}

// withEnv is target with the variable name set to value.
func withEnv(target transport.Target, name, value string) transport.Target {
	target.Env[name] = value
	return target
}

// strict is target with StrictStdout set.
func strict(target transport.Target) transport.Target {
	target.StrictStdout = true
	return target
}

var pidLine = regexp.MustCompile(`pid (\d+)`)

// assertGone fails unless the fake that printed its pid on stderr has been
// reaped.
func assertGone(t *testing.T, stderr string) {
	t.Helper()
	m := pidLine.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the fake printed no pid; stderr: %q", stderr)
	}
	pid, _ := strconv.Atoi(m[1])
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("server %d is still there after Export (kill 0: %v)", pid, err)
	}
}

// TestExportFailures reads misbehaving servers. Only the cases about a
// timeout set a short one; every other case runs under the default
// timeouts, so that an Export that waited for one instead of noticing the
// fault at once would fail on its message, on a machine of any speed.
func TestExportFailures(t *testing.T) {
	shortStart := transport.Limits{StartTimeout: 300 * time.Millisecond}
	shortList := transport.Limits{RequestTimeout: 300 * time.Millisecond}
	// The servers that answer initialize wrongly then say nothing; the
	// deadline ends once the transport has recorded that answer (stage
	// noted), and the message names the limit set here.
	dropWait := transport.Limits{StartTimeout: 2 * time.Second}
	cases := []struct {
		name    string
		target  transport.Target
		ends    stage // when a request's deadline ends; never by default
		want    []string
		checkGo bool // the server printed its pid: check it is gone
		// permanent: another attempt cannot pass (the server was cut
		// off for what it wrote, the command does not exist); a server
		// that exited or did not answer may do better next time.
		permanent bool
	}{
		{
			name:   "never answers initialize",
			target: fakeTarget("hang", shortStart),
			ends:   clock,
			want:   []string{"no answer to initialize within 300ms"},
		},
		{
			name:      "logs on stdout",
			permanent: true,
			target:    fakeTarget("junk", transport.Limits{}),
			want: []string{`server wrote something other than JSON-RPC on stdout: "hello world, this server logs to stdout" and 100 more lines, ` +
				`more than the 100 lines or 64 KiB that rubric skips (an MCP server must write only protocol messages there, and its logs to stderr)`},
		},
		{
			name:      "logs on stdout, strict",
			permanent: true,
			target:    strict(fakeTarget("junk", transport.Limits{})),
			want:      []string{`server wrote something other than JSON-RPC on stdout: "hello world, this server logs to stdout" (an MCP server must`},
		},
		{
			name:      "a banner, strict",
			permanent: true,
			target:    strict(fakeTarget("banner", transport.Limits{})),
			want:      []string{`server wrote something other than JSON-RPC on stdout: "\x1b[1mWeather MCP Server\x1b[0m running on stdio" (an MCP server must`},
		},
		{
			name:   "a stray line, then it exits",
			target: fakeTarget("junk-exit", transport.Limits{}),
			want: []string{"server exited with status 1 before answering initialize; its stderr ended with: Error: listen EADDRINUSE\n" +
				`the server wrote 1 line other than JSON-RPC on stdout, which rubric skipped; the first: "Listening on port 3000"`},
		},
		{
			name:   "an answer with a wrong id",
			target: fakeTarget("wrongid", dropWait),
			ends:   noted,
			want: []string{`no answer to initialize within 2s; the server sent an answer to a request rubric never sent (a wrong id): ` +
				`"{\"jsonrpc\":\"2.0\",\"id\":\"1-reply\",\"result\":`},
		},
		{
			name:   "an answer that is not JSON",
			target: fakeTarget("malformed", dropWait),
			ends:   noted,
			want: []string{`no answer to initialize within 2s; the server wrote 1 line other than JSON-RPC on stdout, which rubric skipped; ` +
				`the first: "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\",}" (it is not valid JSON: invalid character '}'`},
		},
		{
			name:   "an answer nested too deep",
			target: fakeTarget("deep", dropWait),
			ends:   noted,
			want:   []string{`no answer to initialize within 2s; the server wrote 1 line other than JSON-RPC on stdout`, `[[[["… (it is nested deeper than the 10000 levels a JSON decoder reads)`},
		},
		{
			name:   "exits at once",
			target: fakeTarget("exit1", transport.Limits{}),
			want: []string{
				"server exited with status 1 before answering initialize; its stderr ended with:",
				"starting up\n    fatal: API_TOKEN is not set",
			},
		},
		{
			name:   "exits leaving stdout open",
			target: fakeTarget("orphan", transport.Limits{}),
			want:   []string{"server exited with status 2 before answering initialize; its stderr ended with: giving up"},
		},
		{
			// The bound is 4 MiB, not the default 64: the transport
			// stops at the bound whatever it is, and reading 64 MiB
			// took the race-built test 15 s.
			name:      "a 100 MB tools/list",
			permanent: true,
			target:    fakeTarget("huge", transport.Limits{MaxBytes: 4 << 20}),
			want:      []string{"tools/list response exceeds 4 MiB (raise --max-bytes)"},
		},
		{
			name:      "more tools than allowed",
			permanent: true,
			target:    fakeTarget("paginate5", transport.Limits{MaxTools: 10}),
			want:      []string{"server listed more than 10 tools (raise --max-tools)"},
		},
		{
			// Pages of 128 KiB against a bound of 256 KiB: the shape of
			// pages of 1 MiB against 2 MiB, which took the race-built
			// test 17 s to read.
			name:      "pages without end",
			permanent: true,
			target:    withEnv(fakeTarget("endless", transport.Limits{MaxBytes: 256 << 10}), "FAKE_PAGE_BYTES", "131072"),
			want:      []string{"server sent more than 1 MiB in 8 pages of tools/list, more than a whole list may hold (4 × --max-bytes; raise --max-bytes)"},
		},
		{
			name:   "error answer to tools/list",
			target: fakeTarget("rpcerror", transport.Limits{}),
			want:   []string{"server answered tools/list with error -32601: Method not found"},
		},
		{
			name:   "no answer to tools/list",
			target: fakeTarget("listhang", shortList),
			ends:   clock,
			want:   []string{"no answer to tools/list within 300ms"},
		},
		{
			name:    "ignores the end of input and SIGTERM",
			target:  fakeTarget("stubborn", transport.Limits{StartTimeout: 200 * time.Millisecond}),
			ends:    pidPrinted,
			want:    []string{"no answer to initialize within 200ms"},
			checkGo: true,
		},
		{
			name:      "no such command",
			permanent: true,
			target:    transport.Target{Location: "rubric-no-such-server"},
			want:      []string{`cannot start "rubric-no-such-server": executable file not found in $PATH`},
		},
		{
			name:      "no such directory",
			permanent: true,
			target:    transport.Target{Location: fakeServer, Dir: "/no/such/dir"},
			want:      []string{`cannot start "` + fakeServer + `": its working directory /no/such/dir does not exist`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var stderr proctest.Buffer
			tr := Transport{ClientVersion: "test", Stderr: &stderr}
			var once sync.Once
			recorded := make(chan struct{})
			tr.noted = func() { once.Do(func() { close(recorded) }) }
			switch c.ends {
			case never:
				tr.deadline = stageDeadline(nil)
			case noted:
				tr.deadline = stageDeadline(recorded)
			case pidPrinted:
				tr.deadline = stageDeadline(stderr.Seen("pid "))
			}
			s, err := tr.Export(context.Background(), c.target)
			if err == nil {
				t.Fatalf("want an error, got a surface of %d tools", len(s.Tools))
			}
			t.Logf("error: %v", err)
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwant it to contain %q", err, w)
				}
			}
			if transport.IsPermanent(err) != c.permanent {
				t.Errorf("error %q: permanent %v, want %v", err, transport.IsPermanent(err), c.permanent)
			}
			if c.checkGo {
				assertGone(t, stderr.String())
			}
		})
	}
}

// stage is when a request's deadline ends in TestExportFailures. Only the
// cases about a timeout itself run on the clock: every other outcome must
// come from what the server did, however slowly a loaded machine runs it.
type stage int

const (
	never      stage = iota // only when the test ends
	clock                   // the real timer: the timeout is the subject
	noted                   // once the transport recorded a skipped line or a stray answer
	pidPrinted              // once the fake printed its pid on stderr
)

// stageDeadline is a Transport.deadline that ends, with the cause
// context.DeadlineExceeded, when fire is closed; a nil fire never does.
func stageDeadline(fire <-chan struct{}) func(context.Context, time.Duration) (context.Context, context.CancelFunc) {
	return func(parent context.Context, _ time.Duration) (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancelCause(parent)
		go func() {
			select {
			case <-fire:
				cancel(context.DeadlineExceeded)
			case <-ctx.Done():
			}
		}()
		return ctx, func() { cancel(context.Canceled) }
	}
}

func TestExportPaginates(t *testing.T) {
	var stderr proctest.Buffer
	target := fakeTarget("paginate5", transport.Limits{})
	target.Args = []string{"paginate5"}
	before := runtime.NumGoroutine()
	s, err := Transport{ClientVersion: "test", Stderr: &stderr}.Export(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range s.Tools {
		names = append(names, tool.Name)
	}
	var want []string
	for i := 0; i < 23; i++ {
		want = append(want, fmt.Sprintf("tool-%02d", i))
	}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("tools %v\nwant %v", names, want)
	}
	schema, _ := s.Tools[7].Def["inputSchema"].(map[string]any)
	v, _ := schema["properties"].(map[string]any)["v"].(map[string]any)
	if schema["title"] != "Args 07" || v["title"] != "Value" || len(v["anyOf"].([]any)) != 2 {
		t.Errorf("inputSchema lost keywords on the way: %s", s.Tools[7].Canonical)
	}
	if s.Format != surface.FormatToolsList || s.Source != fakeServer+" paginate5" {
		t.Errorf("format %q, source %q", s.Format, s.Source)
	}
	wantServer := map[string]any{
		"name": "paginator", "version": "2.0.0", "protocolVersion": "2025-06-18", "era": "legacy",
		"instructions": "Read the docs.", "command": []any{fakeServer, "paginate5"},
	}
	if !reflect.DeepEqual(s.Server, wantServer) {
		t.Errorf("server %v\nwant %v", s.Server, wantServer)
	}
	assertGone(t, stderr.String())
	// Every goroutine Export started has ended.
	proctest.Goroutines(t, before)
}

func TestExportLegacyServer(t *testing.T) {
	s, err := Transport{ClientVersion: "test"}.Export(context.Background(), fakeTarget("legacy", transport.Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 1 || s.Tools[0].Name != "list_files" {
		t.Fatalf("tools: %+v", s.Tools)
	}
	if s.Server["protocolVersion"] != "2024-11-05" || s.Server["instructions"] != "Call list_files first." || s.Server["name"] != "fake" {
		t.Errorf("server: %v", s.Server)
	}
}

// TestExportBanner reads a server that prints a line on stdout before it
// serves: its tools are read, and the surface carries a warning that
// quotes the line, escapes and all.
func TestExportBanner(t *testing.T) {
	s, err := Transport{ClientVersion: "test"}.Export(context.Background(), fakeTarget("banner", transport.Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 1 || s.Tools[0].Name != "forecast" {
		t.Errorf("tools: %+v", s.Tools)
	}
	want := []string{`the server wrote 1 line other than JSON-RPC on stdout, which rubric skipped; the first: "\x1b[1mWeather MCP Server\x1b[0m running on stdio" ` +
		`(an MCP server must write only protocol messages there; --strict-stdout refuses such a server)`}
	if !reflect.DeepEqual(s.Warnings, want) {
		t.Errorf("warnings %q\nwant %q", s.Warnings, want)
	}
	// The warning travels with the surface through a plugin's document.
	back, err := surface.Parse("plugin", s.Marshal())
	if err != nil || !reflect.DeepEqual(back.Warnings, want) || back.Hash() != s.Hash() {
		t.Errorf("read back: warnings %q, error %v", back.Warnings, err)
	}

	quiet, err := Transport{}.Export(context.Background(), fakeTarget("legacy", transport.Limits{}))
	if err != nil || quiet.Warnings != nil {
		t.Errorf("a server that writes only messages: warnings %q, error %v", quiet.Warnings, err)
	}
}

// TestExportStderrPrintable checks what reaches the log of a server's
// stderr: whole lines, with the escape sequence that would write the
// user's clipboard (OSC 52) removed although it came in two writes, and
// control characters shown as U+FFFD.
func TestExportStderrPrintable(t *testing.T) {
	var stderr proctest.Buffer
	if _, err := (Transport{Stderr: &stderr}).Export(context.Background(), fakeTarget("osc52", transport.Limits{})); err != nil {
		t.Fatal(err)
	}
	if got, want := stderr.String(), "copying  done\ufffd\ufffd\nsecond line\n"; got != want {
		t.Errorf("logged %q\nwant %q", got, want)
	}
}

// TestExportAnswersPing reads a server that pings before it answers
// initialize, and stops unless the answer is the empty result.
func TestExportAnswersPing(t *testing.T) {
	s, err := Transport{}.Export(context.Background(), fakeTarget("pinger", transport.Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 1 || s.Tools[0].Name != "pong" {
		t.Errorf("tools: %+v", s.Tools)
	}
}

// TestExportEndsDetachedChildren reads a server whose child called
// setsid(), leaving the process group, and ignores SIGTERM: once Export
// has returned, the child is gone as well.
func TestExportEndsDetachedChildren(t *testing.T) {
	var stderr proctest.Buffer
	s, err := Transport{Stderr: &stderr}.Export(context.Background(), fakeTarget("setsid", transport.Limits{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 1 {
		t.Errorf("tools: %+v", s.Tools)
	}
	m := regexp.MustCompile(`grandchild (\d+)`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("the server named no child; stderr: %q", stderr.String())
	}
	pid, _ := strconv.Atoi(m[1])
	// Export has sent the grandchild SIGKILL before it returns, but on a
	// loaded machine the kernel may not have torn it down yet (make test
	// beside the other helpers, load 16 to 22, failed so once): wait for
	// its end. It sleeps an hour and ignores SIGTERM, so only that kill
	// ends it within the guard.
	if !proctest.Gone(pid, proctest.Guard) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the server's detached child %d outlived Export", pid)
	}
}

func TestExportDirAndEnv(t *testing.T) {
	dir := t.TempDir()
	target := fakeTarget("env", transport.Limits{})
	target.Dir = dir
	target.Env["TOOL_NAME"] = "from_env"
	s, err := Transport{}.Export(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 1 || s.Tools[0].Name != "from_env" || s.Tools[0].Def["description"] != dir {
		t.Errorf("tools: %+v", s.Tools)
	}
}

// TestExportInterrupted interrupts the read once the server says it got
// tools/list, which it never answers, and which it would wait for an hour
// for: only the interrupt can end Export, and the server, which ignores
// SIGTERM, is killed.
func TestExportInterrupted(t *testing.T) {
	var stderr proctest.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reached := stderr.Seen(fakemcp.GotToolsList)
	go func() {
		select {
		case <-reached:
			cancel()
		case <-ctx.Done():
		}
	}()
	_, err := Transport{Stderr: &stderr}.Export(ctx, fakeTarget("listhang-stubborn", transport.Limits{StartTimeout: time.Hour, RequestTimeout: time.Hour}))
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "tools/list") {
		t.Errorf("error %v: want context.Canceled while waiting for tools/list", err)
	}
	assertGone(t, stderr.String())

	if _, err := (Transport{}).Export(ctx, fakeTarget("hang", transport.Limits{})); !errors.Is(err, context.Canceled) {
		t.Errorf("an already cancelled context: %v", err)
	}
}

func TestExportFailureLeavesNothingRunning(t *testing.T) {
	for _, mode := range []string{"junk", "exit1", "orphan", "huge", "rpcerror"} {
		before := runtime.NumGoroutine()
		if _, err := (Transport{Stderr: &proctest.Buffer{}}).Export(context.Background(), fakeTarget(mode, transport.Limits{MaxBytes: 1 << 20})); err == nil {
			t.Fatalf("%s: want an error", mode)
		}
		proctest.Goroutines(t, before)
	}
}

// TestExportWarnsWhileWaiting: the first line a server writes on stdout
// that is not JSON-RPC is skipped, and a warning naming the server and
// quoting the line is said at once, while the answer is still awaited,
// not only in the error or the report at the end. The case that never
// answers has its deadline end once the line was skipped (stage noted),
// which is after the warning.
func TestExportWarnsWhileWaiting(t *testing.T) {
	hangs := transport.Target{Location: "sh", Args: []string{"-c", "echo 'Listening on port 3000'; while read -r x; do :; done"},
		Limits: transport.Limits{StartTimeout: 2 * time.Second}}
	const tail = " (an MCP server must write only protocol messages there, and its logs to stderr)"
	for _, c := range []struct {
		name    string
		target  transport.Target
		ends    stage
		wantErr string
		want    []string
	}{
		{name: "a line, then nothing", target: hangs, ends: noted, wantErr: "no answer to initialize within 2s",
			want: []string{`server "sh -c echo 'Listening on port 3000'; while read -r x; do :; done" wrote a line other than JSON-RPC on stdout, ` +
				`which rubric skips while it waits for the server's answer: "Listening on port 3000"` + tail}},
		{name: "a banner, then it serves", target: fakeTarget("banner", transport.Limits{}),
			want: []string{`server "` + fakeServer + `" wrote a line other than JSON-RPC on stdout, which rubric skips while it waits for the server's answer: ` +
				`"\x1b[1mWeather MCP Server\x1b[0m running on stdio"` + tail}},
		{name: "logs on stdout: one warning, then the cut", target: fakeTarget("junk", transport.Limits{}), wantErr: "more than the 100 lines",
			want: []string{`server "` + fakeServer + `" wrote a line other than JSON-RPC on stdout, which rubric skips while it waits for the server's answer: ` +
				`"hello world, this server logs to stdout"` + tail}},
		{name: "strict: the error alone", target: strict(fakeTarget("banner", transport.Limits{})), wantErr: "server wrote something other than JSON-RPC"},
		{name: "only messages", target: fakeTarget("legacy", transport.Limits{})},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var warned []string
			recorded := make(chan struct{})
			var once sync.Once
			tr := Transport{ClientVersion: "test", Warn: func(msg string) {
				mu.Lock()
				warned = append(warned, msg)
				mu.Unlock()
			}}
			tr.noted = func() { once.Do(func() { close(recorded) }) }
			if c.ends == noted {
				tr.deadline = stageDeadline(recorded)
			} else {
				tr.deadline = stageDeadline(nil)
			}
			_, err := tr.Export(context.Background(), c.target)
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Errorf("error %v, want %q", err, c.wantErr)
			}
			mu.Lock()
			defer mu.Unlock()
			if !reflect.DeepEqual(warned, c.want) {
				t.Errorf("warned %q\nwant   %q", warned, c.want)
			}
		})
	}
}

// TestExportStderrFlood: a server that writes more than the bound on
// stderr is cut off at once, under the default timeouts, and the message
// names the flood: how much, the bound, that no flag raises it, and the
// last lines, each cut. Another attempt may fare better: not permanent.
func TestExportStderrFlood(t *testing.T) {
	loop := `i=0; while :; do i=$((i+1)); echo "retrying the connection to the database, attempt $i: ` + strings.Repeat("x", 200) + `"; done >&2`
	tr := Transport{ClientVersion: "test", Stderr: &proctest.Buffer{}, maxStderr: 64 << 10, deadline: stageDeadline(nil)}
	_, err := tr.Export(context.Background(), transport.Target{Location: "sh", Args: []string{"-c", loop}})
	if err == nil {
		t.Fatal("want an error")
	}
	t.Logf("error: %v", err)
	re := regexp.MustCompile(`^server flooded its stderr: it wrote \d+(\.\d)? KiB \(\d+ bytes\) there before answering initialize, more than the 64 KiB rubric reads from a server ` +
		`\(no flag raises this bound: have the server log less, or to a file\); its stderr ended with:\n` +
		`(    retrying the connection to the database, attempt \d+: x+…?\n){2}    \S.*$`)
	if !re.MatchString(err.Error()) {
		t.Errorf("error %q\nwant it to match %s", err, re)
	}
	for _, l := range strings.Split(err.Error(), "\n")[1:] {
		if len(l) > 4+floodLine+len("…") {
			t.Errorf("a quoted line of %d bytes: %q", len(l), l)
		}
	}
	if transport.IsPermanent(err) {
		t.Errorf("a flood is permanent: %v", err)
	}
}

// TestExportHidesEnvValues reads a server that prints the token rubric
// put in its environment on stderr and stdout, as a server told its
// credential is wrong does, and exits: the error, the log of its stderr
// and the warning of the line it skipped say [redacted] where the token
// was, and keep the rest of its words.
func TestExportHidesEnvValues(t *testing.T) {
	const token = "ghp_SUPERSECRET777"
	var stderr proctest.Buffer
	var warned []string
	var mu sync.Mutex
	tr := Transport{Stderr: &stderr, Warn: func(msg string) { mu.Lock(); warned = append(warned, msg); mu.Unlock() }}
	_, err := tr.Export(context.Background(), transport.Target{
		Location: "/bin/sh",
		Args:     []string{"-c", `echo "banner: token $GITHUB_TOKEN"; echo "auth failed for token $GITHUB_TOKEN" >&2; exit 3`},
		Env:      map[string]string{"GITHUB_TOKEN": token},
	})
	if err == nil {
		t.Fatal("a server that exits before initialize was read")
	}
	mu.Lock()
	defer mu.Unlock()
	for what, text := range map[string]string{"the error": err.Error(), "the stderr log": stderr.String(), "the warning": strings.Join(warned, "\n")} {
		if strings.Contains(text, token) {
			t.Errorf("%s quotes the token: %q", what, text)
		}
	}
	if !strings.Contains(err.Error(), "auth failed for token [redacted]") {
		t.Errorf("the error does not quote the server's stderr, redacted: %q", err)
	}
	if got := stderr.String(); got != "auth failed for token [redacted]\n" {
		t.Errorf("stderr logged as %q", got)
	}
}

// TestLauncherNotFound: a missing command that starts registry packages
// (uvx, npx, pipx, ...) is a failure for good that says what to install;
// another missing command says only that it is missing.
func TestLauncherNotFound(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no launcher on it, whatever this machine has
	for _, c := range []struct{ command, want string }{
		{"uvx", `cannot start "uvx": executable file not found in $PATH: it comes with uv: install uv (pip install uv, or see https://docs.astral.sh/uv/), which starts Python packages`},
		{"pipx", `cannot start "pipx": executable file not found in $PATH: install pipx (apt-get install pipx, or pip install pipx)`},
		{"npx", `cannot start "npx": executable file not found in $PATH: it comes with npm: install Node.js and npm (apt-get install nodejs npm, or see https://nodejs.org)`},
		{"my-server", `cannot start "my-server": executable file not found in $PATH`},
	} {
		t.Run(c.command, func(t *testing.T) {
			_, err := Transport{}.Export(context.Background(), transport.Target{Location: c.command, Args: []string{"some-mcp-server"}})
			if err == nil || err.Error() != c.want {
				t.Fatalf("%v\nwant %s", err, c.want)
			}
			if !transport.IsPermanent(err) {
				t.Errorf("not marked permanent: %v", err)
			}
		})
	}
}

// TestProgramInItsFolderNeedsAPath: a program named without a path is
// looked up on PATH only, as a shell does; when the server's working
// directory holds a file of that name, the failure says to name it
// ./NAME, where it said only that no such program was on PATH.
func TestProgramInItsFolderNeedsAPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "serve.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Transport{}.Export(context.Background(), transport.Target{Location: "serve.sh", Dir: dir})
	want := `cannot start "serve.sh": executable file not found in $PATH; serve.sh is in the server's working directory: name it ./serve.sh`
	if err == nil || err.Error() != want || !transport.IsPermanent(err) {
		t.Errorf("%v\nwant %s, for good", err, want)
	}
}

// TestCommandFileErrors: a command given by its path that cannot be run
// says which file was looked for (a relative one in the server's working
// directory, --cwd's, not the shell's) and what to do about it, each a
// failure for good; under --sandbox bwrap the same, where bwrap is
// installed, since the sandbox looks the program up first (a script whose
// interpreter is missing runs into the sandbox's own message instead).
func TestCommandFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("plain.js", "console.log(1)\n", 0o644)
	write("orphan.sh", "#!/no/such/interpreter\n", 0o755)
	if err := os.Mkdir(filepath.Join(dir, "srv"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, noBwrap := exec.LookPath("bwrap")
	for _, c := range []struct {
		name, command, dir, want string
		sandboxToo               bool
	}{
		{"relative, in --cwd", "./server", dir, `cannot start "./server": no file ` + dir + `/server (a relative command is looked for in the server's working directory, ` + dir + `): give the server program's path from there, or an absolute one`, true},
		{"absolute", dir + "/nope", "", `cannot start "` + dir + `/nope": no file ` + dir + `/nope: check the server program's path`, true},
		{"not executable", "./plain.js", dir, `cannot start "./plain.js": ` + dir + `/plain.js may not be run (permission denied): make it executable (chmod +x ` + dir + `/plain.js), or start it through its interpreter (node FILE, python3 FILE)`, true},
		{"a directory", "./srv", dir, `cannot start "./srv": ` + dir + `/srv is a directory: give the server program inside it`, true},
		{"no interpreter", "./orphan.sh", dir, `cannot start "./orphan.sh": ` + dir + `/orphan.sh is there, but the interpreter its #! line names is not: install that interpreter or correct the line, or start the script through one that is installed (node FILE, python3 FILE)`, false},
	} {
		for _, sandboxed := range []bool{false, true} {
			name := c.name
			target := transport.Target{Location: c.command, Dir: c.dir}
			if sandboxed {
				if !c.sandboxToo {
					continue
				}
				name += ", sandboxed"
				target.Sandbox = transport.Sandbox{Kind: transport.SandboxBwrap}
			}
			t.Run(name, func(t *testing.T) {
				if sandboxed && noBwrap != nil {
					t.Skip("bwrap is not installed (apt-get install bubblewrap)")
				}
				_, err := Transport{}.Export(context.Background(), target)
				if err == nil || err.Error() != c.want {
					t.Fatalf("%v\nwant %s", err, c.want)
				}
				if !transport.IsPermanent(err) {
					t.Errorf("not marked permanent: %v", err)
				}
			})
		}
	}
}

// TestExportUnsetEnv: a name in Target.Unset is not inherited from the
// environment rubric runs in (VS Code's "env": {"X": null}), and a name
// both unset and in Env gets Env's value. The fake names its tool after
// TOOL_NAME, which the test's own environment sets.
func TestExportUnsetEnv(t *testing.T) {
	t.Setenv("TOOL_NAME", "inherited")
	tests := []struct {
		name  string
		unset []string
		set   string
		want  string
	}{
		{name: "inherited", want: "inherited"},
		{name: "unset", unset: []string{"TOOL_NAME"}, want: ""},
		{name: "unset then set", unset: []string{"TOOL_NAME"}, set: "from_env", want: "from_env"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := fakeTarget("env", transport.Limits{})
			target.Unset = tt.unset
			if tt.set != "" {
				target.Env["TOOL_NAME"] = tt.set
			}
			s, err := Transport{}.Export(context.Background(), target)
			if tt.want == "" {
				if err == nil && len(s.Tools) == 1 && s.Tools[0].Name == "inherited" {
					t.Errorf("the server inherited the unset variable: %+v", s.Tools)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Tools) != 1 || s.Tools[0].Name != tt.want {
				t.Errorf("tools: %+v, want one named %q", s.Tools, tt.want)
			}
		})
	}
}

// TestBwrapHint: bwrap's complaint that it could not set the sandbox up
// is followed by the user-namespaces advice; its complaint that it could
// not run the program in a sandbox it did set up is not, since the
// advice would send the user to sysctl for a noexec mount.
func TestBwrapHint(t *testing.T) {
	for _, c := range []struct {
		name  string
		lines []string
		want  string // a part of the hint, or "" for none
	}{
		{"no bwrap line", []string{"listening", "Error: boom"}, ""},
		{"namespaces", []string{"bwrap: setting up uid map: Permission denied"}, "it needs user namespaces"},
		{"noexec", []string{"bwrap: execvp /mnt/srv/server: Permission denied"}, "mounted noexec"},
		{"execvp missing (said elsewhere)", []string{"bwrap: execvp ./server: No such file or directory"}, ""},
		{"after other lines", []string{"starting", "bwrap: Can't mount proc on /newroot/proc: Operation not permitted"}, "it needs user namespaces"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := bwrapHint(c.lines)
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("bwrapHint(%q) = %q, want one with %q", c.lines, got, c.want)
			}
			if c.want == "mounted noexec" && strings.Contains(got, "namespaces") {
				t.Errorf("the noexec hint speaks of namespaces: %q", got)
			}
		})
	}
}

// TestCommandFileErrorOfAProgramWithoutItsLoader: a program whose ELF
// header names a loader this system lacks (built against another libc)
// fails to start with "no such file or directory", as a script whose #!
// interpreter is missing does; the message names the loader, not a #!
// line the program does not have. The program is /bin/true with its
// loader's path overwritten by one of the same length that is not there.
func TestCommandFileErrorOfAProgramWithoutItsLoader(t *testing.T) {
	f, err := elf.Open("/bin/true")
	if err != nil {
		t.Skipf("no ELF program to copy: %v", err)
	}
	var loader string
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b := make([]byte, p.Filesz)
			if _, err := p.ReadAt(b, 0); err == nil {
				loader = strings.TrimRight(string(b), "\x00")
			}
		}
	}
	f.Close()
	if loader == "" {
		t.Skip("/bin/true names no loader (a static build)")
	}
	data, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(loader), []byte("/"+strings.Repeat("q", len(loader)-1)), 1)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "server"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Transport{}.Export(context.Background(), transport.Target{Location: "./server", Dir: dir})
	want := `cannot start "./server": ` + dir + `/server is there, but the loader it was linked to run with is not`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("%v\nwant one that begins %s", err, want)
	}
}

// TestCommandFileErrorOfAnExecutableRefused: a file with its execute
// bits set that may not be run (a noexec mount; permission denied) is
// not told to chmod +x, which it has; one without them is.
func TestCommandFileErrorOfAnExecutableRefused(t *testing.T) {
	dir := t.TempDir()
	for name, mode := range map[string]os.FileMode{"exec": 0o755, "plain": 0o644} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	denied := &fs.PathError{Op: "fork/exec", Path: "x", Err: syscall.EACCES}
	if got := commandFileError("./exec", dir, denied); !strings.Contains(got, "mounted noexec") || strings.Contains(got, "chmod") {
		t.Errorf("executable: %s", got)
	}
	if got := commandFileError("./plain", dir, denied); !strings.Contains(got, "chmod +x") {
		t.Errorf("not executable: %s", got)
	}
}
