package stdio

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/fakemcp"
	"github.com/rubricmcp/rubric/internal/procgroup"
	"github.com/rubricmcp/rubric/internal/sandbox"
)

// needBwrap skips the test where bubblewrap is missing or cannot make
// namespaces, unless RUBRIC_REQUIRE_SERVERS says the machine was set up
// for every test (.ci/run installs bubblewrap).
func needBwrap(t *testing.T) {
	t.Helper()
	err := exec.Command("bwrap", "--unshare-all", "--ro-bind", "/", "/", "true").Run()
	if err == nil {
		return
	}
	if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
		t.Fatalf("bwrap does not run here (%v): apt-get install bubblewrap", err)
	}
	t.Skipf("bwrap does not run here (%v): apt-get install bubblewrap", err)
}

// TestSandboxHostile runs the hostile fake server, which reads a file
// outside its reach, writes into the real HOME, connects to a listener
// the test opens on 127.0.0.1 and writes into its working directory. As
// a plain child process every attempt succeeds (the case that shows the
// test sees an escape); under bwrap each fails, while its tools are still
// read. The listener is checked without a timer: after Export the test
// connects to it itself, and the kernel hands connections over in the
// order they were made, so the first one accepted is the server's if it
// ever connected.
func TestSandboxHostile(t *testing.T) {
	needBwrap(t)
	bwrap := transport.Sandbox{Kind: transport.SandboxBwrap}
	with := func(f func(*transport.Sandbox)) transport.Sandbox { s := bwrap; f(&s); return s }
	type want struct {
		read, writeHome, dial, writeCwd string // outcomes, as regular expressions
		homeWritten, cwdWritten, dialed bool   // what reached the host
		leaks                           bool   // the server saw the test's own environment
	}
	escaped := want{read: `^got the secret$`, writeHome: `^wrote$`, dial: `^connected$`, writeCwd: `^wrote$`,
		homeWritten: true, cwdWritten: true, dialed: true, leaks: true}
	confined := want{read: `no such file or directory`, writeHome: `^wrote$`, dial: `connection refused|network is unreachable`, writeCwd: `read-only file system`}
	for _, tc := range []struct {
		name    string
		sandbox transport.Sandbox
		want    want
	}{
		{name: "a plain child process gets everywhere", want: escaped},
		{name: "bwrap", sandbox: bwrap, want: confined},
		{name: "bwrap with a writable working directory", sandbox: with(func(s *transport.Sandbox) { s.Cwd = transport.CwdWritable }),
			want: want{read: confined.read, writeHome: `^wrote$`, dial: confined.dial, writeCwd: `^wrote$`, cwdWritten: true}},
		{name: "bwrap with the working directory hidden", sandbox: with(func(s *transport.Sandbox) { s.Cwd = transport.CwdHidden }),
			want: want{read: confined.read, writeHome: `^wrote$`, dial: confined.dial, writeCwd: `^wrote$`}},
		{name: "bwrap with the network", sandbox: with(func(s *transport.Sandbox) { s.Net = true }),
			want: want{read: confined.read, writeHome: `^wrote$`, dial: `^connected$`, writeCwd: confined.writeCwd, dialed: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, work := t.TempDir(), t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("RUBRIC_TEST_CANARY", "the test's own environment")
			secret := filepath.Join(t.TempDir(), "secret")
			if err := os.WriteFile(secret, []byte("the secret"), 0o600); err != nil {
				t.Fatal(err)
			}
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			conns := make(chan net.Conn, 4)
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						close(conns)
						return
					}
					conns <- c
				}
			}()
			defer func() {
				l.Close()
				for c := range conns {
					c.Close()
				}
			}()

			target := fakeTarget("hostile", transport.Limits{})
			target.Env[fakemcp.HostileRead] = secret
			target.Env[fakemcp.HostileWrite] = filepath.Join(home, "pwned")
			target.Env[fakemcp.HostileDial] = l.Addr().String()
			target.Dir = work
			target.Sandbox = tc.sandbox
			s, err := Transport{}.Export(context.Background(), target)
			if err != nil {
				t.Fatalf("Export: %v", err)
			}
			got := map[string]string{}
			for _, tool := range s.Tools {
				desc, _ := tool.Def["description"].(string)
				if _, outcome, ok := strings.Cut(desc, ": "); ok && tool.Name != "look_around" {
					desc = outcome
				}
				got[tool.Name] = desc
			}
			for tool, re := range map[string]string{"read_outside": tc.want.read, "write_home": tc.want.writeHome, "dial_local": tc.want.dial, "write_cwd": tc.want.writeCwd} {
				if !regexp.MustCompile(re).MatchString(got[tool]) {
					t.Errorf("%s: %q, want %s", tool, got[tool], re)
				}
			}

			for _, f := range []struct {
				path string
				want bool
			}{{filepath.Join(home, "pwned"), tc.want.homeWritten}, {filepath.Join(work, fakemcp.WroteCwd), tc.want.cwdWritten}} {
				_, err := os.Stat(f.path)
				if written := err == nil; written != f.want {
					t.Errorf("%s on the host: written %v, want %v", f.path, written, f.want)
				} else if !written && !errors.Is(err, os.ErrNotExist) {
					t.Error(err)
				}
			}

			mine, err := net.Dial("tcp", l.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer mine.Close()
			first := <-conns
			if dialed := first.RemoteAddr().String() != mine.LocalAddr().String(); dialed != tc.want.dialed {
				t.Errorf("the listener was reached by the server: %v, want %v", dialed, tc.want.dialed)
			}

			look := got["look_around"]
			if leaks := strings.Contains(look, "RUBRIC_TEST_CANARY"); leaks != tc.want.leaks {
				t.Errorf("the server saw the test's environment: %v, want %v (%s)", leaks, tc.want.leaks, look)
			}
			if tc.sandbox.Enabled() {
				// Its HOME is empty but for what it wrote there, its /tmp
				// holds only the folders above what the sandbox shows
				// there (the working directory, the server's binary, its
				// HOME), and it sees only what rubric gives it (bwrap adds
				// PWD).
				homeHolds := "[pwned]"
				if tc.sandbox.Cwd == transport.CwdHidden {
					homeHolds = "[" + fakemcp.WroteCwd + " pwned]"
				}
				if want := "home " + homeHolds + " · tmp ["; !strings.HasPrefix(look, want) {
					t.Errorf("look_around: %q, want it to start %q", look, want)
				}
				tmpShown := map[string]bool{}
				shown := []string{fakeServer, home}
				if tc.sandbox.Cwd != transport.CwdHidden {
					shown = append(shown, work)
				}
				for _, p := range shown {
					if rel, err := filepath.Rel("/tmp", p); err == nil && !strings.HasPrefix(rel, "..") {
						tmpShown[strings.Split(rel, "/")[0]] = true
					}
				}
				_, tmp, _ := strings.Cut(look, " · tmp [")
				tmp, _, _ = strings.Cut(tmp, "]")
				for _, name := range strings.Fields(tmp) {
					if !tmpShown[name] {
						t.Errorf("the server's /tmp holds %s", name)
					}
				}
				_, names, _ := strings.Cut(look, "env [")
				env := strings.Fields(strings.TrimSuffix(names, "]"))
				allowed := map[string]bool{"PATH": true, "HOME": true, "TMPDIR": true, "RUBRIC_SESSION": true, "PWD": true,
					fakeEnv: true, fakemcp.HostileRead: true, fakemcp.HostileWrite: true, fakemcp.HostileDial: true,
					"LANG": true, "LANGUAGE": true, "LC_ALL": true, "LC_CTYPE": true, "LC_MESSAGES": true, "TZ": true, "USER": true, "LOGNAME": true}
				for _, name := range env {
					if !allowed[name] {
						t.Errorf("the server's environment holds %s, which rubric did not give it", name)
					}
				}
			}
		})
	}
}

// TestSandboxStops reads a sandboxed server that ignores SIGTERM and the
// end of its input and leaves a child that does the same: Export returns
// its tool, and afterwards no process on the host carries the variable
// the test gave the server, which every process inside inherits.
func TestSandboxStops(t *testing.T) {
	needBwrap(t)
	t.Setenv("HOME", t.TempDir())
	tag := "FAKE_TAG=" + filepath.Base(t.TempDir())
	target := fakeTarget("family-ok", transport.Limits{})
	k, v, _ := strings.Cut(tag, "=")
	target.Env[k] = v
	target.Dir = t.TempDir()
	target.Sandbox = transport.Sandbox{Kind: transport.SandboxBwrap}
	s, err := Transport{}.Export(context.Background(), target)
	if err != nil {
		t.Fatalf("Export: %v", err)
	}
	if len(s.Tools) != 1 || s.Tools[0].Name != "one" {
		t.Errorf("tools %v, want one", s.Tools)
	}
	if n := procgroup.KillMarked(tag); n != 0 {
		t.Errorf("%d processes of the sandboxed server outlived Export", n)
	}
}

// TestSandboxSetupFails runs a bwrap that cannot make its namespaces, as
// on a system that keeps user namespaces from users: the error quotes
// bwrap and says what to change, and nothing runs unconfined instead.
func TestSandboxSetupFails(t *testing.T) {
	bin := t.TempDir()
	fake := "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "bwrap"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("HOME", t.TempDir())
	target := fakeTarget("hostile", transport.Limits{})
	target.Dir = t.TempDir()
	target.Sandbox = transport.Sandbox{Kind: transport.SandboxBwrap}
	_, err := Transport{}.Export(context.Background(), target)
	want := "server exited with status 1 before answering initialize; its stderr ended with: bwrap: setting up uid map: Permission denied\n" + sandbox.FailedHint
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}

// TestSandboxCommandNotFound runs, under the real bwrap, commands that
// work on the host but need a program the sandbox does not show (one in
// the test's /tmp, which is empty inside): a script whose #! interpreter
// is there, which bwrap cannot execute, and a shell that runs a program
// there, which exits with status 127. Each is said to be missing inside
// the sandbox, with what to do, and is permanent: another attempt would
// meet the same sandbox. Outside the sandbox, status 127 stays an exit.
func TestSandboxCommandNotFound(t *testing.T) {
	needBwrap(t)
	t.Setenv("HOME", t.TempDir())
	outside := t.TempDir() // under /tmp: not shown inside
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	shell, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	interp := filepath.Join(outside, "interp")
	if err := os.WriteFile(interp, shell, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "server")
	if err := os.WriteFile(script, []byte("#!"+interp+"\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	bwrap := transport.Sandbox{Kind: transport.SandboxBwrap}
	for _, c := range []struct {
		name   string
		target transport.Target
		// want is the whole message, save for the shell's own words
		// where the shell's line stands (dash and bash differ).
		want      string
		permanent bool
	}{
		{
			name:   "a script whose interpreter is outside",
			target: transport.Target{Location: script, Sandbox: bwrap},
			want: `"` + script + `" is not found inside the sandbox: bwrap could not run it, and its #! line names ` + interp +
				`; its stderr ended with: bwrap: execvp ` + script + `: No such file or directory` + "\n" + sandbox.NotFoundHint,
			permanent: true,
		},
		{
			name:   "a shell running a program outside",
			target: transport.Target{Location: "sh", Args: []string{"-c", interp}, Sandbox: bwrap},
			want: `"sh" (or a program it runs) is not found inside the sandbox: it exited with status 127, a shell's status for a command not found; ` +
				`its stderr ended with: SHELL'S LINE` + "\n" + sandbox.NotFoundHint,
			permanent: true,
		},
		{
			name:   "status 127 outside the sandbox",
			target: transport.Target{Location: "sh", Args: []string{"-c", "exit 127"}},
			want:   "server exited with status 127 before answering initialize (it wrote nothing on stderr)",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.target.Dir = t.TempDir()
			_, err := Transport{}.Export(context.Background(), c.target)
			start, end, shellLine := strings.Cut(c.want, "SHELL'S LINE")
			switch {
			case err == nil:
				t.Fatalf("no error, want %s", c.want)
			case !shellLine && err.Error() != c.want,
				shellLine && !(strings.HasPrefix(err.Error(), start) && strings.HasSuffix(err.Error(), end) && strings.Contains(err.Error(), interp)):
				t.Errorf("error %v\nwant  %s", err, c.want)
			}
			if transport.IsPermanent(err) != c.permanent {
				t.Errorf("permanent %v, want %v", transport.IsPermanent(err), c.permanent)
			}
		})
	}
}

// TestSandboxHints: under the real bwrap, a node server whose module lies
// outside what the sandbox shows is told so, with what to show, and for
// good; a launcher that downloads its server (here a stand-in npx that
// fails as npx does with no network) is told the sandbox has no network,
// and not told so once --sandbox-net gives it one.
func TestSandboxHints(t *testing.T) {
	needBwrap(t)
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	t.Setenv("HOME", t.TempDir())
	outside := t.TempDir() // under /tmp: not shown inside
	mod := filepath.Join(outside, "tools.js")
	if err := os.WriteFile(mod, []byte("module.exports = [];\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	npx := filepath.Join(t.TempDir(), "npx")
	if err := os.WriteFile(npx, []byte("#!/bin/sh\necho 'npm error code EAI_AGAIN' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A stand-in go that fails as go run does in the sandbox.
	goDir := t.TempDir()
	goBin := filepath.Join(goDir, "go")
	if err := os.WriteFile(goBin, []byte("#!/bin/sh\necho 'go: downloading github.com/mark3labs/mcp-go v1.2.1' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	goRun := "go run ran in the sandbox (--sandbox bwrap), which shows it neither your module cache nor your build cache, and no network without --sandbox-net: build the server first (go build -o server ./PACKAGE) and give rubric that binary"
	bwrap := transport.Sandbox{Kind: transport.SandboxBwrap}
	offline := "npx ran in the sandbox without the network (--sandbox bwrap): if it had to download the server, give --sandbox-net, or install the server and run it from its folder"
	for _, c := range []struct {
		name      string
		target    transport.Target
		want      string // the end of the message
		not       string // what it must not say
		permanent bool
	}{
		{name: "node module outside", target: transport.Target{Location: "node", Args: []string{"-e", "require(" + strconv.Quote(mod) + ")"}, Sandbox: bwrap},
			want: "\nthe server could not load a module it needs, which is likely outside the sandbox: " + sandbox.NotFoundHint, permanent: true},
		{name: "node module outside, no sandbox", target: transport.Target{Location: "node", Args: []string{"-e", "require('/nonexistent/tools.js')"}},
			not: "could not load a module"},
		{name: "npx offline", target: transport.Target{Location: npx, Args: []string{"-y", "some-mcp-server"}, Sandbox: bwrap},
			want: "npm error code EAI_AGAIN\n" + offline},
		{name: "npx with the network", target: transport.Target{Location: npx, Sandbox: transport.Sandbox{Kind: transport.SandboxBwrap, Net: true}},
			not: "without the network"},
		{name: "go run", target: transport.Target{Location: goBin, Args: []string{"run", "./cmd/server"}, Sandbox: bwrap},
			want: "go: downloading github.com/mark3labs/mcp-go v1.2.1\n" + goRun},
		{name: "go run with the network", target: transport.Target{Location: goBin, Args: []string{"run", "."}, Sandbox: transport.Sandbox{Kind: transport.SandboxBwrap, Net: true}},
			want: "\n" + goRun},
		{name: "go run, no sandbox", target: transport.Target{Location: goBin, Args: []string{"run", "."}},
			not: "go run ran in the sandbox"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.target.Dir = t.TempDir()
			_, err := Transport{}.Export(context.Background(), c.target)
			switch {
			case err == nil:
				t.Fatal("no error")
			case c.want != "" && !strings.HasSuffix(err.Error(), c.want):
				t.Errorf("error %v\nwant it to end with %s", err, c.want)
			case c.not != "" && strings.Contains(err.Error(), c.not):
				t.Errorf("error %v says %q", err, c.not)
			}
			if transport.IsPermanent(err) != c.permanent {
				t.Errorf("permanent %v, want %v", transport.IsPermanent(err), c.permanent)
			}
		})
	}
}
