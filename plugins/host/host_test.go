package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/internal/proctest"
	"github.com/rubricmcp/rubric/plugins/protocol"
	"github.com/rubricmcp/rubric/plugins/sdk"
)

// The test binary doubles as misbehaving plugins: started with
// RUBRIC_TEST_PLUGIN set, it serves one instead of running tests.
func TestMain(m *testing.M) {
	switch os.Getenv("RUBRIC_TEST_PLUGIN") {
	case "":
		os.Exit(m.Run())
	case "judge":
		sdk.ServeJudge(testJudge{})
	case "judge-v2":
		plugin.Serve(&plugin.ServeConfig{
			HandshakeConfig:  protocol.Handshake(2),
			VersionedPlugins: map[int]plugin.PluginSet{2: {protocol.KindJudge: &protocol.JudgePlugin{Impl: testJudge{}}}},
			GRPCServer:       plugin.DefaultGRPCServer,
		})
	case "silent":
		fmt.Fprintln(os.Stderr, "starting up slowly")
		// Tell the test it has printed, through the FIFO it names.
		if fifo := os.Getenv("RUBRIC_TEST_PRINTED"); fifo != "" {
			os.WriteFile(fifo, []byte("printed\n"), 0)
		}
		time.Sleep(time.Minute)
	case "banner":
		// A plugin that announces itself on stdout before it serves.
		fmt.Println("acme judge v1 starting")
		sdk.ServeJudge(testJudge{})
	case "transport":
		sdk.ServeTransport(testTransport{})
	case "companion":
		// Both sides of a built-in with a companion: started with the
		// serve arguments, the host binary; without, the companion,
		// which checks the build the host names.
		if len(os.Args) == 4 && os.Args[1] == protocol.ServeArg {
			sdk.ServeBuiltin(os.Args[1:], []protocol.Builtin{companionBuiltin("host binary")})
		} else {
			sdk.ServeCompanion(companionBuiltin("companion"))
		}
	}
	os.Exit(0)
}

// testJudge behaves as the question's kind says.
type testJudge struct{}

func (testJudge) Describe(context.Context) (judge.Identity, error) {
	return judge.Identity{Plugin: "test", Version: "1", Model: "m"}, nil
}

// configured is the configuration the plugin process's judge was given,
// for the "leak" question.
var configured judge.Config

func (testJudge) Configure(_ context.Context, c judge.Config) (judge.Identity, error) {
	configured = c
	if c.Model == "anonymous" {
		// A plugin that forgot to say who it is.
		return judge.Identity{Model: c.Model}, nil
	}
	return judge.Identity{Plugin: "test", Version: "1", Model: c.Model, Params: map[string]any{"temperature": 0.0}}, nil
}

func (testJudge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	switch q.Kind {
	case "hang":
		// A subject is the loopback address of a test waiting to hear
		// that the question arrived.
		if q.Subject != "" {
			if conn, err := net.Dial("tcp", q.Subject); err == nil {
				conn.Close()
			}
		}
		<-ctx.Done()
		return judge.Answer{}, ctx.Err()
	case "exit":
		sdk.Logger.Error("giving up on " + q.Kind)
		os.Exit(3)
	case "panic":
		panic("the judge lost its mind")
	case "stdout-exit":
		// A debugging print on stdout, while serving, then an exit.
		fmt.Println("asked about", q.Kind)
		os.Exit(3)
	case "stderr-exit":
		// What a plugin's own code does: print its reason to os.Stderr
		// (fmt, not sdk.Logger) and exit at once.
		fmt.Fprintln(os.Stderr, "cannot load the model's weights")
		os.Exit(3)
	case "leak":
		// What a judge with a bad key might print before it dies: its
		// key, as rubric gave it through the environment or an option.
		fmt.Fprintf(os.NewFile(2, "stderr"), "invalid key %s (from the environment), %s (option api_key), %s (the variable api_key_env names)\n",
			os.Getenv("RUBRIC_TEST_KEY"), configured.Options["api_key"], os.Getenv(configured.Options["api_key_env"]))
		os.Exit(4)
	case "refuse":
		return judge.Answer{}, errors.New("no answer for you")
	case "own-deadline":
		// A judge that gives up on a deadline of its own, and returns
		// that context's error.
		own, cancel := context.WithDeadline(ctx, time.Unix(0, 0))
		defer cancel()
		<-own.Done()
		return judge.Answer{}, own.Err()
	case "own-deadline-text":
		// The same, said as text alone.
		return judge.Answer{}, errors.New("context deadline exceeded")
	case "log":
		sdk.Logger.Warn("careful now", "kind", q.Kind)
		sdk.Logger.Debug("a detail below the host's level")
	}
	return judge.Answer{JSON: q.Input, Model: "m", Tokens: judge.Tokens{Input: len(q.User), Output: len(q.Input)}}, nil
}

// testTransport's Export starts a long sleep (the server it would read),
// writes its pid to the file named by the target and hangs, so a test can
// kill the plugin and look for the orphan.
type testTransport struct{}

func (testTransport) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "test", Version: "1", Schemes: []string{"test"}, Locality: transport.Path}, nil
}

func (testTransport) Export(ctx context.Context, t transport.Target) (*surface.Surface, error) {
	if t.Location == "leak" {
		// What a transport might print before it dies: the credentials
		// rubric gave it for the server.
		fmt.Fprintf(os.NewFile(2, "stderr"), "refused: Authorization %s, SERVER_TOKEN %s\n", t.Headers["Authorization"], t.Env["SERVER_TOKEN"])
		os.Exit(5)
	}
	if t.Location == "nothing" {
		// A transport with a bug: neither a surface nor an error.
		return nil, nil
	}
	if t.Location == "bare" {
		// Another: a tool made by hand, without its definition.
		return &surface.Surface{Source: "bare", Tools: []surface.Tool{{Name: "a"}}}, nil
	}
	if t.Location == "big" {
		var b strings.Builder
		b.WriteString(`{"tools":[`)
		for i := range 3000 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"name":"t%d","description":%q}`, i, strings.Repeat("x", 1000))
		}
		b.WriteString("]}")
		return surface.Parse("big", []byte(b.String()))
	}
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if err := os.WriteFile(t.Location, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
		return nil, err
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func self(t testing.TB, kind, mode string) Plugin {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("RUBRIC_TEST_PLUGIN", mode)
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	return Plugin{Kind: kind, Name: mode, Path: exe, From: FromPath, Env: []string{"RUBRIC_TEST_PLUGIN", "GORACE"}}
}

func newHost(t *testing.T) *Host {
	h := New(Options{StartTimeout: time.Minute})
	t.Cleanup(h.Close)
	return h
}

func TestJudgeRoundTrip(t *testing.T) {
	h := newHost(t)
	j, err := h.Judge(context.Background(), self(t, protocol.KindJudge, "judge"), judge.Config{Model: "pinned-model"})
	if err != nil {
		t.Fatal(err)
	}
	id := j.Identity()
	if id.Plugin != "test" || id.Model != "pinned-model" || id.Params["temperature"] != 0.0 {
		t.Errorf("identity after configure: %+v", id)
	}
	q := judge.Question{Kind: "echo", User: "four", Input: []byte(`{"tool":"x"}`), AnswerSchema: []byte(`{}`)}
	a, err := j.Ask(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if string(a.JSON) != `{"tool":"x"}` || a.Model != "m" || a.Tokens != (judge.Tokens{Input: 4, Output: 12}) {
		t.Errorf("answer: %+v", a)
	}
	if _, err := j.Ask(context.Background(), judge.Question{Kind: "refuse"}); err == nil || err.Error() != "no answer for you" {
		t.Errorf("a plugin's own error: %v", err)
	}
}

// TestOwnDeadline: a plugin that gives up on a deadline of its own and
// says only "context deadline exceeded" (as gRPC's DeadlineExceeded, or
// as text) is named as having reported it, while rubric's time had not
// run out; its error is no context's, so that no caller takes it for
// the run's --timeout.
func TestOwnDeadline(t *testing.T) {
	h := newHost(t)
	j, err := h.Judge(context.Background(), self(t, protocol.KindJudge, "judge"), judge.Config{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	const want = `the judge plugin "judge" reported "context deadline exceeded" during ask: a deadline the plugin keeps itself passed, not rubric's (--judge-timeout, or a scan's --timeout), which had not; raise the plugin's own timeout setting if it has one, or see its log for what it waited for`
	for _, kind := range []string{"own-deadline", "own-deadline-text"} {
		_, err := j.Ask(context.Background(), judge.Question{Kind: kind})
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v (%T), want %q", kind, err, err, want)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v reads as a context's deadline", kind, err)
		}
		// The caller's deadline has passed, and its timer has not yet
		// fired here, as on a busy machine when the plugin, handed that
		// deadline by gRPC, reports it first: it is the caller's.
		_, err = j.Ask(lateTimer{context.Background()}, judge.Question{Kind: kind})
		var own *OwnDeadlineError
		if errors.As(err, &own) {
			t.Errorf("%s past the caller's deadline: %v, want no plugin's own deadline", kind, err)
		}
	}
}

// lateTimer is a context whose deadline has passed while its timer has
// not fired: Err is still nil.
type lateTimer struct{ context.Context }

func (lateTimer) Deadline() (time.Time, bool) { return time.Unix(0, 0), true }

// TestJudgeWithoutIdentity: a judge whose configured identity names no
// plugin or version is refused, naming what is missing; its answers would
// share cache keys with any other judge that left it empty.
func TestJudgeWithoutIdentity(t *testing.T) {
	h := newHost(t)
	_, err := h.Judge(context.Background(), self(t, protocol.KindJudge, "judge"), judge.Config{Model: "anonymous"})
	want := `the judge plugin "judge" (` + os.Args[0] + `) configured an identity with no plugin and no version: its Configure must return the identity it answers under`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestJudgeCrashMidCall(t *testing.T) {
	for _, tc := range []struct {
		name string
		kill bool
		want []string
	}{
		{"exit", false, []string{`the judge plugin "judge"`, "crashed during ask", "exit status 3", "error: giving up on exit"}},
		{"panic", false, []string{"crashed during ask", "exit status 2", "panic: the judge lost its mind"}},
		// A line written to os.Stderr just before the exit is in the
		// message: go-plugin's relay of os.Stderr lost it with the process.
		{"stderr-exit", false, []string{"crashed during ask", "exit status 3", "its stderr ended with:\ncannot load the model's weights"}},
		// So is what it printed on stdout once serving, which the host
		// never showed.
		{"stdout-exit", false, []string{"crashed during ask", "exit status 3", "its stderr ended with:\nasked about stdout-exit"}},
		{"killed", true, []string{`the judge plugin "judge"`, "crashed during ask", "signal: killed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHost(t)
			j, err := h.Judge(context.Background(), self(t, protocol.KindJudge, "judge"), judge.Config{})
			if err != nil {
				t.Fatal(err)
			}
			q := judge.Question{Kind: tc.name}
			if tc.kill {
				// The plugin is killed once it holds the question.
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				q = judge.Question{Kind: "hang", Subject: ln.Addr().String()}
				go func() {
					if conn, err := ln.Accept(); err == nil {
						conn.Close()
						_ = syscall.Kill(j.PID(), syscall.SIGKILL)
					}
				}()
			}
			_, err = j.Ask(context.Background(), q)
			var crash *CrashError
			if !errors.As(err, &crash) {
				t.Fatalf("want a CrashError, got %v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
		})
	}
}

// TestCrashHidesSecrets: a plugin that prints the credentials rubric gave
// it and crashes is quoted without them, in the crash message and in the
// log: a judge's key from its environment (a pinned plugin's env, or any
// credential-named variable a built-in inherits) or its options (api_key,
// or the variable api_key_env names), a transport's headers and the
// server's environment it was given.
func TestCrashHidesSecrets(t *testing.T) {
	secrets := []string{"sk-env-0123456789", "sk-option-0123456789", "sk-named-0123456789", "tok-header-0123456789", "tok-env-0123456789"}
	t.Setenv("RUBRIC_TEST_KEY", secrets[0])
	t.Setenv("RUBRIC_TEST_NAMED", secrets[2])
	opts := judge.Config{Options: map[string]string{"api_key": secrets[1], "api_key_env": "RUBRIC_TEST_NAMED"}}
	// askLeak starts the judge p with opts and asks it the question
	// whose error echoes its key.
	askLeak := func(h *Host, p Plugin) error {
		j, err := h.Judge(context.Background(), p, opts)
		if err != nil {
			return err
		}
		_, err = j.Ask(context.Background(), judge.Question{Kind: "leak"})
		return err
	}
	for _, c := range []struct {
		name string
		call func(h *Host) error
		want string
	}{
		{"a pinned judge", func(h *Host) error {
			p := self(t, protocol.KindJudge, "judge")
			p.Env = append(p.Env, "RUBRIC_TEST_KEY", "RUBRIC_TEST_NAMED")
			return askLeak(h, p)
		}, "invalid key [redacted] (from the environment), [redacted] (option api_key), [redacted] (the variable api_key_env names)"},
		{"a built-in judge", func(h *Host) error {
			p := self(t, protocol.KindJudge, "judge")
			p.From = FromBuiltin
			return askLeak(h, p)
		}, "invalid key [redacted] (from the environment), [redacted] (option api_key), [redacted] (the variable api_key_env names)"},
		{"a transport", func(h *Host) error {
			tr, err := h.Transport(context.Background(), self(t, protocol.KindTransport, "transport"))
			if err != nil {
				return err
			}
			_, err = tr.Export(context.Background(), transport.Target{Location: "leak",
				Headers: map[string]string{"Authorization": "Bearer " + secrets[3]}, Env: map[string]string{"SERVER_TOKEN": secrets[4]}})
			return err
		}, "refused: Authorization [redacted], SERVER_TOKEN [redacted]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf proctest.Buffer
			h := New(Options{Log: hclog.New(&hclog.LoggerOptions{Level: hclog.Debug, Output: &buf, DisableTime: true}), StartTimeout: time.Minute})
			defer h.Close()
			err := c.call(h)
			if _, ok := errors.AsType[*CrashError](err); !ok {
				t.Fatalf("want a CrashError, got %v", err)
			}
			h.Close()
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("the crash message does not quote the plugin's words with the values hidden:\n%s\nwant it to contain %q", err, c.want)
			}
			for _, s := range secrets {
				if strings.Contains(err.Error(), s) {
					t.Errorf("the crash message quotes %s:\n%s", s, err)
				}
				if strings.Contains(buf.String(), s) {
					t.Errorf("the log quotes %s:\n%s", s, buf.String())
				}
			}
		})
	}
}

func TestStartFailures(t *testing.T) {
	exe, _ := os.Executable()
	sum, err := FileSHA256(exe)
	if err != nil {
		t.Fatal(err)
	}
	wrong := strings.Repeat("0", 64)
	notPlugin := filepath.Join(t.TempDir(), "rubric-judge-echo")
	if err := os.WriteFile(notPlugin, []byte("#!/bin/sh\necho hello there\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// cause is what errors.Is must still find under the host's message,
	// for a caller that tells causes apart; nil checks nothing.
	for _, tc := range []struct {
		name  string
		p     func(t *testing.T) Plugin
		want  []string
		cause error
	}{
		{"sha256 mismatch", func(t *testing.T) Plugin {
			p := self(t, protocol.KindJudge, "judge")
			p.SHA256 = wrong
			return p
		}, []string{"refusing to start", "its sha256 is " + sum, "plugins.judge.sha256 pins " + wrong}, plugin.ErrChecksumsDoNotMatch},
		{"sha256 mismatch of a pin the config did not give", func(t *testing.T) Plugin {
			p := self(t, protocol.KindJudge, "judge")
			p.SHA256, p.PinnedBy = wrong, "main:bin/judge has sha256 "+wrong
			return p
		}, []string{"refusing to start", "its sha256 is " + sum + " but main:bin/judge has sha256 " + wrong}, plugin.ErrChecksumsDoNotMatch},
		{"malformed pin", func(t *testing.T) Plugin {
			p := self(t, protocol.KindJudge, "judge")
			p.SHA256 = "abc"
			return p
		}, []string{`plugins.judge.sha256 "abc" is not a sha256 hex digest (64 hex digits): pin the whole digest of ` + exe + `, which rubric plugins list --json prints`}, nil},
		{"other protocol version", func(t *testing.T) Plugin { return self(t, protocol.KindJudge, "judge-v2") },
			[]string{"speaks plugin protocol version 2, but this rubric speaks version 1"}, nil},
		{"no handshake", func(t *testing.T) Plugin {
			p := self(t, protocol.KindJudge, "silent")
			p.Env = append(p.Env, "RUBRIC_TEST_PRINTED")
			return p
		},
			[]string{"did not complete its handshake within 2s: raise --plugin-start-timeout (config key plugin-start-timeout) if it needs longer to start, or fix the plugin; its stderr ended with:", "starting up slowly"}, errStartTimeout},
		{"not a plugin", func(*testing.T) Plugin {
			return Plugin{Kind: protocol.KindJudge, Name: "echo", Path: notPlugin, From: FromPath}
		}, []string{"is not a working rubric plugin: it printed \"hello there\" on standard output before its handshake"}, nil},
		{"a banner on stdout", func(t *testing.T) Plugin { return self(t, protocol.KindJudge, "banner") },
			[]string{`judge plugin "banner"`, `is not a working rubric plugin: it printed "acme judge v1 starting" on standard output before its handshake, where rubric reads the handshake; a plugin must write nothing else there (log with sdk.Logger, or to standard error)`}, nil},
		{"another kind", func(t *testing.T) Plugin {
			p := self(t, protocol.KindJudge, "transport")
			return p
		}, []string{`the judge plugin "transport"`, "does not serve the judge protocol; is it a plugin of another kind?"}, nil},
		{"missing binary", func(*testing.T) Plugin {
			return Plugin{Kind: protocol.KindJudge, Name: "gone", Path: "/nonexistent/rubric-judge-gone", From: FromPath}
		}, []string{"cannot start judge plugin \"gone\""}, fs.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Only the silent plugin runs out of time to start: its
			// clock ends once it has printed (a FIFO says so), whatever
			// the 2 s its message names. Every other plugin has a minute,
			// which no load makes it use up.
			o := Options{StartTimeout: time.Minute}
			if tc.name == "no handshake" {
				o = Options{StartTimeout: 2 * time.Second, StartTimer: printed(t)}
			}
			h := New(o)
			defer h.Close()
			_, err := h.Judge(context.Background(), tc.p(t), judge.Config{})
			if err == nil {
				t.Fatal("started")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
			if tc.cause != nil && !errors.Is(err, tc.cause) {
				t.Errorf("%q: its cause %q is lost (errors.Is is false)", err, tc.cause)
			}
		})
	}
}

// printed is a StartTimer whose clock ends when the silent plugin has
// written to the FIFO that RUBRIC_TEST_PRINTED names, which it does once
// its line is on stderr.
func printed(t *testing.T) func(time.Duration) (<-chan time.Time, func()) {
	fifo := filepath.Join(t.TempDir(), "printed")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RUBRIC_TEST_PRINTED", fifo)
	return func(time.Duration) (<-chan time.Time, func()) {
		c := make(chan time.Time, 1)
		go func() {
			// Opening a FIFO waits for its writer; reading ends when
			// the writer closes it.
			os.ReadFile(fifo)
			c <- time.Time{}
		}()
		return c, func() {}
	}
}

func TestPinnedPluginStarts(t *testing.T) {
	p := self(t, protocol.KindJudge, "judge")
	sum, err := FileSHA256(p.Path)
	if err != nil {
		t.Fatal(err)
	}
	p.SHA256 = strings.ToUpper(sum)[:0] + sum
	h := newHost(t)
	if _, err := h.Judge(context.Background(), p, judge.Config{}); err != nil {
		t.Fatal(err)
	}
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	if !proctest.Gone(pid, proctest.Guard) {
		t.Errorf("process %d outlived its plugin", pid)
	}
}

// readPID reads the pid of what the plugin started from the FIFO path,
// which the plugin's Export writes once the child is up: the read ends
// when it has, with no polling. An Export that ends first, having written
// nothing, fails the test.
func readPID(t *testing.T, path string, exported <-chan error) int {
	t.Helper()
	read := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(path)
		read <- b
	}()
	select {
	case b := <-read:
		pid, err := strconv.Atoi(string(b))
		if err != nil {
			t.Fatalf("the plugin wrote %q for its child's pid: %v", b, err)
		}
		return pid
	case err := <-exported:
		t.Fatalf("the export ended before the plugin started its child: %v", err)
	}
	return 0
}

// TestNoOrphans: whatever a transport plugin started ends with it, when
// the host closes it, when the run is cancelled, and when it is killed.
func TestNoOrphans(t *testing.T) {
	for _, how := range []string{"close", "cancel", "kill"} {
		t.Run(how, func(t *testing.T) {
			// A minute, as newHost gives: the start is not what is tested,
			// and a race-built plugin on a loaded machine can take
			// seconds to start.
			h := New(Options{StartTimeout: time.Minute})
			tr, err := h.Transport(context.Background(), self(t, protocol.KindTransport, "transport"))
			if err != nil {
				t.Fatal(err)
			}
			if !tr.Handles("test") || tr.Handles("http") || tr.Name() != "transport" || tr.Info().Locality != transport.Path {
				t.Errorf("info: %+v", tr.Info())
			}
			pidFile := filepath.Join(t.TempDir(), "pid")
			if err := syscall.Mkfifo(pidFile, 0o600); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			errc := make(chan error, 1)
			go func() {
				_, err := tr.Export(ctx, transport.Target{Location: pidFile})
				errc <- err
			}()
			child := readPID(t, pidFile, errc)
			plug := tr.PID()
			switch how {
			case "close":
				h.Close()
			case "cancel":
				cancel()
				if err := <-errc; !errors.Is(err, context.Canceled) {
					t.Errorf("export after cancel: %v", err)
				}
				h.Close()
			case "kill":
				_ = syscall.Kill(plug, syscall.SIGKILL)
				err := <-errc
				if !strings.Contains(fmt.Sprint(err), "crashed during export") {
					t.Errorf("export of a killed plugin: %v", err)
				}
				h.Close()
			}
			waitGone(t, child)
			waitGone(t, plug)
		})
	}
}

func TestExportLargeDocument(t *testing.T) {
	heavytest.Later(t)
	h := newHost(t)
	tr, err := h.Transport(context.Background(), self(t, protocol.KindTransport, "transport"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tr.Export(context.Background(), transport.Target{Location: "big"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 3000 || s.Tools[2999].Name != "t2999" {
		t.Fatalf("got %d tools", len(s.Tools))
	}
	_, err = tr.Export(context.Background(), transport.Target{Location: "big", Limits: transport.Limits{MaxTools: 2999}})
	if err == nil || err.Error() != "big holds 3000 tools, more than 2999 (raise --max-tools)" {
		t.Errorf("more tools than the limit: %v", err)
	}
	// The same through a host bound of 4 × 64 KiB + 1 MiB: refused.
	_, err = tr.Export(context.Background(), transport.Target{Location: "big", Limits: transport.Limits{MaxBytes: 64 << 10}})
	if err == nil || !strings.Contains(err.Error(), "more than 1280 KiB (raise --max-bytes)") {
		t.Errorf("an oversized document: %v", err)
	}
}

// TestExportNothing: a transport whose Export returns neither a surface
// nor an error is refused by name, its process left running, instead of
// crashing in the SDK with a nil dereference; and one that returns a tool
// without its definition is refused, where the tool vanished and a
// surface of none was scored.
func TestExportNothing(t *testing.T) {
	h := newHost(t)
	tr, err := h.Transport(context.Background(), self(t, protocol.KindTransport, "transport"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.Export(context.Background(), transport.Target{Location: "nothing"})
	var crash *CrashError
	if errors.As(err, &crash) {
		t.Fatalf("the plugin crashed: %v", err)
	}
	want := `the transport "test" returned neither a surface nor an error: a bug in the transport plugin, which must return the tools it read (an empty list for a server with none) or an error saying why it could not`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want it to contain %q", err, want)
	}
	_, err = tr.Export(context.Background(), transport.Target{Location: "bare"})
	want = `the transport "test" returned tool 0 ("a") without its definition: a bug in the transport plugin, which must make each tool with surface.NewTool, or the whole surface with surface.Parse`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("a tool without its definition: got %v, want it to contain %q", err, want)
	}
	// The plugin still serves.
	if _, err := tr.Export(context.Background(), transport.Target{Location: "big", Limits: transport.Limits{MaxTools: 1}}); err == nil || strings.Contains(err.Error(), "crashed") {
		t.Errorf("after: %v", err)
	}
}

func TestIdentityParamsCrossAsJSON(t *testing.T) {
	h := newHost(t)
	j, err := h.Judge(context.Background(), self(t, protocol.KindJudge, "judge"), judge.Config{Model: "x"})
	if err != nil {
		t.Fatal(err)
	}
	id := j.Identity()
	b, _ := json.Marshal(id)
	if string(b) != `{"plugin":"test","version":"1","model":"x","params":{"temperature":0}}` {
		t.Errorf("identity: %s", b)
	}
}

// TestPluginLogReachesHostLog: what a plugin logs through sdk.Logger
// arrives in the host's log at its own level, and the host's level
// reaches the plugin.
func TestPluginLogReachesHostLog(t *testing.T) {
	var buf proctest.Buffer
	log := hclog.New(&hclog.LoggerOptions{Level: hclog.Info, Output: &buf, DisableTime: true})
	h := New(Options{Log: log, StartTimeout: time.Minute})
	defer h.Close()
	j, err := h.Judge(context.Background(), self(t, protocol.KindJudge, "judge"), judge.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Ask(context.Background(), judge.Question{Kind: "log", Input: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	h.Close()
	got := buf.String()
	if !regexp.MustCompile(`\[WARN\] +judge\.judge.*: careful now: .*kind=log`).MatchString(got) {
		t.Errorf("the plugin's warning is not in the host log:\n%s", got)
	}
	if strings.Contains(got, "a detail below") {
		t.Errorf("a debug line passed an info log:\n%s", got)
	}
}

// TestStartTimeoutEndsChildren: a plugin that never completes its
// handshake, and whose child holds its stdout open, is killed with that
// child once its start times out, and the start returns then: not when
// the child would have ended. The plugin blocks forever on a FIFO no one
// writes; its clock ends once it has said its pids.
func TestStartTimeoutEndsChildren(t *testing.T) {
	dir := t.TempDir()
	block, pids := filepath.Join(dir, "block"), filepath.Join(dir, "pids")
	for _, f := range []string{block, pids} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(dir, "rubric-judge-stuck")
	body := fmt.Sprintf("#!/bin/sh\ncat %[1]q &\necho \"$$ $!\" > %[2]q\nread never < %[1]q\n", block, pids)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	var plugin, child int
	timer := func(time.Duration) (<-chan time.Time, func()) {
		c := make(chan time.Time, 1)
		go func() {
			b, _ := os.ReadFile(pids)
			fmt.Sscan(string(b), &plugin, &child)
			c <- time.Time{}
		}()
		return c, func() {}
	}
	h := New(Options{StartTimeout: 2 * time.Second, StartTimer: timer})
	defer h.Close()
	errc := make(chan error, 1)
	go func() {
		_, err := h.Judge(context.Background(), Plugin{Kind: protocol.KindJudge, Name: "stuck", Path: script, From: FromPath}, judge.Config{})
		errc <- err
	}()
	// The start returns once its clock has ended; before the fix it
	// waited for the plugin's child, which never ends, so this receive
	// held the test until go test's -timeout failed it. No timer here
	// decides the outcome.
	err := <-errc
	if err == nil || !strings.Contains(err.Error(), `judge plugin "stuck"`) || !strings.Contains(err.Error(), "did not complete its handshake within 2s") {
		t.Errorf("error: %v", err)
	}
	if plugin == 0 || child == 0 {
		t.Fatalf("the plugin said no pids (%d, %d)", plugin, child)
	}
	waitGone(t, plugin)
	waitGone(t, child)
}
