package sandbox

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/proctest"
)

var bwrap = transport.Sandbox{Kind: transport.SandboxBwrap}

// fakeHost is a host with the given variables and working directory,
// where bwrap and sh are found in /usr/bin and nothing else is.
func fakeHost(wd string, env map[string]string) Host {
	return Host{
		Getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Getwd:  func() (string, error) { return wd, nil },
		LookPath: func(name string) (string, error) {
			if name == Program || name == "sh" {
				return "/usr/bin/" + name, nil
			}
			return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
		},
	}
}

func TestWrapRefuses(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	if err := os.Mkdir(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "plain.js"), []byte("console.log(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(proj, "srv"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "PATH": "/usr/bin"}
	noBwrap := fakeHost(proj, env)
	noBwrap.LookPath = func(name string) (string, error) { return "", exec.ErrNotFound }
	for _, tc := range []struct {
		name string
		opts transport.Sandbox
		spec Spec
		host Host
		want string
	}{
		{name: "no bwrap", opts: bwrap, spec: Spec{Name: "sh"}, host: noBwrap,
			want: "--sandbox bwrap needs bubblewrap: no bwrap program on $PATH; install it (Debian, Ubuntu: apt-get install bubblewrap)"},
		{name: "the home directory as the working directory", opts: bwrap, spec: Spec{Name: "sh"}, host: fakeHost(home, env),
			want: "the working directory " + home + " holds the home directory " + home + ", which the sandbox would show to the server: run from the server's own directory, give --cwd DIR, or --sandbox-cwd none"},
		{name: "a folder above the home directory, writable", opts: transport.Sandbox{Kind: transport.SandboxBwrap, Cwd: transport.CwdWritable}, spec: Spec{Name: "sh", Dir: filepath.Dir(home)}, host: fakeHost(proj, env),
			want: "the working directory " + filepath.Dir(home) + " holds the home directory " + home},
		{name: "the root", opts: bwrap, spec: Spec{Name: "sh", Dir: "/"}, host: fakeHost(proj, env),
			want: "the working directory / holds the home directory"},
		{name: "a read-only path that is not there", opts: transport.Sandbox{Kind: transport.SandboxBwrap, ReadOnly: []string{"no-such-dir"}}, spec: Spec{Name: "sh"}, host: fakeHost(proj, env),
			want: "--sandbox-ro " + filepath.Join(proj, "no-such-dir") + ": no such file or directory"},
		{name: "a program not on PATH", opts: bwrap, spec: Spec{Name: "no-such-server"}, host: fakeHost(proj, env),
			want: "exec: \"no-such-server\": executable file not found in $PATH"},
		{name: "a program not in the working directory", opts: bwrap, spec: Spec{Name: "./server"}, host: fakeHost(proj, env),
			want: "exec: \"./server\": no such file or directory"},
		{name: "a program that may not be run", opts: bwrap, spec: Spec{Name: "./plain.js"}, host: fakeHost(proj, env),
			want: "exec: \"./plain.js\": permission denied"},
		{name: "a directory as the program", opts: bwrap, spec: Spec{Name: "./srv"}, host: fakeHost(proj, env),
			want: "exec: \"./srv\": permission denied"},
		{name: "another sandbox", opts: transport.Sandbox{Kind: "firejail"}, spec: Spec{Name: "sh"}, host: fakeHost(proj, env),
			want: `unknown sandbox "firejail": the only one is "bwrap"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Wrap(tc.opts, tc.spec, tc.host)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("a file in place of /dev/null", func(t *testing.T) {
		h := fakeHost(proj, env)
		h.Etc, h.Null = t.TempDir(), filepath.Join(t.TempDir(), "null")
		if err := os.WriteFile(h.Null, []byte("someone's output"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Wrap(bwrap, Spec{Name: "sh"}, h)
		want := "cannot hide the private files of " + h.Etc + ": " + h.Null + " is not the null device (something replaced it with a file; as root: rm " + h.Null + " && mknod -m 666 " + h.Null + " c 1 3)"
		if err == nil || err.Error() != want {
			t.Errorf("error %v, want %q", err, want)
		}
	})
	t.Run("missing bwrap is ErrNoBwrap", func(t *testing.T) {
		if _, err := Wrap(bwrap, Spec{Name: "sh"}, noBwrap); !errors.Is(err, ErrNoBwrap) {
			t.Errorf("error %v is not ErrNoBwrap", err)
		}
	})
	t.Run("the home directory hidden is fine", func(t *testing.T) {
		if _, err := Wrap(transport.Sandbox{Kind: transport.SandboxBwrap, Cwd: transport.CwdHidden}, Spec{Name: "sh"}, fakeHost(home, env)); err != nil {
			t.Error(err)
		}
	})
}

// TestWrapCommandLine checks the parts of bwrap's command line that make
// the promises: the environment, where HOME is, how the working
// directory is shown, the network.
func TestWrapCommandLine(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	// A server outside what is shown, and a link to a shown program.
	server, link := filepath.Join(t.TempDir(), "server"), filepath.Join(t.TempDir(), "sh")
	if err := os.WriteFile(server, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/bin/sh", link); err != nil {
		t.Fatal(err)
	}
	sh, err := filepath.EvalSymlinks("/bin/sh")
	if err != nil {
		t.Fatal(err)
	}
	full := map[string]string{"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "OPENAI_API_KEY": "sk-x", "SSH_AUTH_SOCK": "/run/agent", "XDG_CONFIG_HOME": home + "/.config"}
	for _, tc := range []struct {
		name    string
		opts    transport.Sandbox
		env     map[string]string
		spec    Spec
		wantEnv []string
		has     [][]string // runs of arguments that must appear
		hasNot  []string   // arguments that must not
	}{
		{name: "defaults", opts: bwrap, env: full, spec: Spec{Name: "sh", Args: []string{"-c", "true"}, Env: []string{"API_KEY=given", "RUBRIC_SESSION=m"}},
			wantEnv: []string{"PATH=/usr/bin:/bin", "HOME=" + home, "TMPDIR=/tmp", "LANG=C.UTF-8", "API_KEY=given", "RUBRIC_SESSION=m"},
			has: [][]string{{"--unshare-all", "--cap-drop", "ALL"}, {"--ro-bind", "/usr", "/usr"}, {"--tmpfs", "/tmp", "--tmpfs", home},
				{"--ro-bind", proj, proj}, {"--chdir", proj, "--remount-ro", "/", "--", "sh", "-c", "true"}},
			hasNot: []string{"--share-net", "--bind"}},
		{name: "network and a writable working directory", opts: transport.Sandbox{Kind: transport.SandboxBwrap, Net: true, Cwd: transport.CwdWritable}, env: full, spec: Spec{Name: "sh"},
			has: [][]string{{"--unshare-all", "--share-net"}, {"--bind", proj, proj}}},
		{name: "the working directory hidden", opts: transport.Sandbox{Kind: transport.SandboxBwrap, Cwd: transport.CwdHidden}, env: full, spec: Spec{Name: "sh"},
			has: [][]string{{"--chdir", home}}, hasNot: []string{proj}},
		{name: "extra read-only paths", opts: transport.Sandbox{Kind: transport.SandboxBwrap, ReadOnly: []string{home}}, env: full, spec: Spec{Name: "sh"},
			has: [][]string{{"--tmpfs", home, "--ro-bind", proj, proj, "--ro-bind", home, home}}},
		{name: "a program outside what is shown", opts: bwrap, env: full, spec: Spec{Name: server},
			has: [][]string{{"--ro-bind", server, server, "--chdir"}}},
		{name: "a program shown", opts: bwrap, env: full, spec: Spec{Name: "sh"},
			hasNot: []string{"/usr/bin/sh"}},
		{name: "a link to a program shown", opts: bwrap, env: full, spec: Spec{Name: link},
			has: [][]string{{"--ro-bind", sh, link, "--chdir"}}},
		{name: "no HOME", opts: bwrap, env: map[string]string{}, spec: Spec{Name: "sh"},
			wantEnv: []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + FallbackHome, "TMPDIR=/tmp"},
			has:     [][]string{{"--tmpfs", FallbackHome}}},
		{name: "HOME is the root", opts: bwrap, env: map[string]string{"HOME": "/"}, spec: Spec{Name: "sh"},
			has: [][]string{{"--tmpfs", FallbackHome}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Wrap(tc.opts, tc.spec, fakeHost(proj, tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if c.Path != "/usr/bin/bwrap" {
				t.Errorf("path %q", c.Path)
			}
			if tc.wantEnv != nil && !slices.Equal(c.Env, tc.wantEnv) {
				t.Errorf("environment %q, want %q", c.Env, tc.wantEnv)
			}
			line := " " + strings.Join(c.Args, " ") + " "
			for _, run := range tc.has {
				if !strings.Contains(line, " "+strings.Join(run, " ")+" ") {
					t.Errorf("no %q in %s", run, line)
				}
			}
			for _, a := range tc.hasNot {
				if slices.Contains(c.Args, a) {
					t.Errorf("%q in %s", a, line)
				}
			}
		})
	}
}

// TestConfinement runs a shell under bwrap as Wrap builds it and checks,
// from inside, what the sandbox promises beyond what the hostile MCP
// server tries (plugins/transports/stdio's TestSandboxHostile): no
// capabilities, so the read-only mounts cannot be made writable again
// even by root; the root and the system read-only; files of /etc that not
// all users may read are empty.
func TestConfinement(t *testing.T) {
	if err := exec.Command(Program, "--unshare-all", "--ro-bind", "/", "/", "true").Run(); err != nil {
		if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
			t.Fatalf("bwrap does not run here (%v): apt-get install bubblewrap", err)
		}
		t.Skipf("bwrap does not run here (%v): apt-get install bubblewrap", err)
	}
	t.Setenv("HOME", t.TempDir())
	for _, tc := range []struct {
		name, script, want string
	}{
		{"no capabilities", `grep CapEff /proc/self/status`, "CapEff:\t0000000000000000\n"},
		{"no remounting", `mount -o remount,rw,bind /usr 2>/dev/null && echo remounted || echo refused`, "refused\n"},
		{"the system is read-only", `touch /usr/x /etc/x /x 2>/dev/null || echo refused`, "refused\n"},
		{"private files of /etc are empty", `for f in /etc/shadow /etc/gshadow; do [ -e $f ] && [ -s $f ] && echo $f has content; done; echo checked`, "checked\n"},
		{"HOME and /tmp are writable", `touch "$HOME/x" /tmp/x && echo wrote`, "wrote\n"},
		{"one process namespace", `echo $$`, "2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Wrap(bwrap, Spec{Name: "sh", Args: []string{"-c", tc.script}, Dir: t.TempDir()}, System())
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(c.Path, c.Args...)
			cmd.Env = c.Env
			out, err := cmd.CombinedOutput()
			if err != nil || string(out) != tc.want {
				t.Errorf("got %q (%v), want %q", out, err, tc.want)
			}
		})
	}
}

// TestKilledBwrapEndsAll kills bwrap outright (as happens when rubric is
// killed: bwrap gets SIGKILL from the kernel as its parent dies) while
// the server inside has a child in the background: nothing carrying the
// server's environment is left.
func TestKilledBwrapEndsAll(t *testing.T) {
	if err := exec.Command(Program, "--unshare-all", "--ro-bind", "/", "/", "true").Run(); err != nil {
		t.Skipf("bwrap does not run here (%v)", err)
	}
	t.Setenv("HOME", t.TempDir())
	tag := "SANDBOX_TEST_TAG=" + filepath.Base(t.TempDir())
	c, err := Wrap(bwrap, Spec{Name: "sh", Args: []string{"-c", "sleep 3600 & echo up; sleep 3600"}, Dir: t.TempDir(), Env: []string{tag}}, System())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = c.Env
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	up := make([]byte, 3)
	if _, err := io.ReadFull(out, up); err != nil || string(up) != "up\n" {
		t.Fatalf("the shell said %q (%v)", up, err)
	}
	if n := len(tagged(tag)); n < 2 {
		t.Errorf("%d processes carry the tag before the kill, want at least the shell and its sleep (bwrap has it too)", n)
	}
	inside := tagged(tag)
	cmd.Process.Kill()
	cmd.Wait()
	// The kernel tears the namespace down after bwrap is gone: wait for
	// each process that carried the tag to exit, as the kernel reports it
	// through a pidfd, not for a while. A process that outlives bwrap
	// fails the test after proctest's hang guard.
	for _, pid := range inside {
		awaitExit(t, pid)
	}
	if left := tagged(tag); len(left) > 0 {
		t.Fatalf("processes %v outlived bwrap", left)
	}
}

// awaitExit returns once the process pid has exited (at once when it is
// already gone).
func awaitExit(t *testing.T, pid string) {
	t.Helper()
	n, err := strconv.Atoi(pid)
	if err != nil {
		t.Fatal(err)
	}
	if !proctest.Gone(n, proctest.Guard) {
		t.Fatalf("process %d outlived bwrap by %v", n, proctest.Guard)
	}
}

// tagged lists the processes whose environment holds entry.
func tagged(entry string) []string {
	var pids []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		env, err := os.ReadFile("/proc/" + d.Name() + "/environ")
		if err == nil && slices.Contains(strings.Split(string(env), "\x00"), entry) {
			pids = append(pids, d.Name())
		}
	}
	return pids
}
