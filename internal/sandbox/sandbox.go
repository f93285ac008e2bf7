// Package sandbox confines a spawned MCP server with bubblewrap (bwrap,
// Debian's bubblewrap package): Wrap turns the server's command into a
// bwrap command line and an environment.
//
// Inside, the server has namespaces of its own (user, process, mount,
// IPC, UTS, cgroup, and network unless Net is set, where only a loopback
// device exists), no capabilities, and a new session (so it cannot push
// keystrokes into the user's terminal). It sees the system directories
// read-only (/usr, /bin, /lib..., /etc with every entry that is not
// readable by all users hidden, /opt), an empty private HOME at the path
// of the real one and an empty /tmp, both writable and thrown away at the
// end, the working directory read-only, writable or not at all, and the
// extra read-only paths it is given. The rest of the root is read-only and
// empty: the real home directory, /tmp, /root, /home, /srv, /run and /var
// are not there. Its environment is only PATH, HOME, TMPDIR, the locale
// and user name, and what rubric adds.
package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/transport"
)

// Program is bubblewrap's command.
const Program = "bwrap"

// Package is the Debian (and Ubuntu) package that installs Program.
const Package = "bubblewrap"

// ErrNoBwrap is what Wrap returns, wrapped, when Program is not on PATH.
var ErrNoBwrap = errors.New("no " + Program + " program on $PATH")

// FallbackHome is the private HOME's path when the real HOME is unset,
// relative or the root.
const FallbackHome = "/home/sandbox"

// systemDirs are shown read-only where they exist; a symbolic link among
// them (/bin -> usr/bin on a merged /usr) is made again inside.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix"}

// passed are the host's variables the server gets, when set, besides
// PATH, HOME and TMPDIR: the locale and who the user is, nothing that
// points into the real home or holds a secret.
var passed = []string{"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "USER", "LOGNAME"}

// FailedHint follows bwrap's own complaint when it could not set the
// sandbox up (it writes "bwrap: ..." before the server runs).
const FailedHint = "bubblewrap could not set up the sandbox: it needs user namespaces, which some systems keep from users " +
	"(Ubuntu 24.04's AppArmor: sysctl kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for bwrap; " +
	"elsewhere kernel.unprivileged_userns_clone=1), and a container may forbid them (Docker's default seccomp profile does); " +
	"rubric does not run the server outside the sandbox instead"

// NotFoundHint follows the message about a command bwrap could not run
// inside the sandbox, or that exited with the shell's status for a
// command not found (127).
const NotFoundHint = "the sandbox shows only the system directories (/usr, /bin, /lib, /etc, /opt), the working directory, " +
	"the server's own program and the paths given with --sandbox-ro: a program the command runs from elsewhere " +
	"(a script's #! interpreter, a version manager's shim such as pyenv's or nvm's and what it runs, a tool in your home directory) " +
	"is not there. Show its folder with --sandbox-ro DIR, or give the real program's path as the command; another attempt will not help"

// Spec is the server to confine.
type Spec struct {
	// Name and Args are the command as the user gave it.
	Name string
	Args []string
	// Dir is the working directory; empty means the caller's.
	Dir string
	// Env are NAME=VALUE entries the server gets on top of the few Wrap
	// passes from the host; a later entry wins.
	Env []string
}

// Host is what Wrap reads of the machine, so that tests can give their
// own.
type Host struct {
	// Getenv reads a host variable.
	Getenv func(string) (string, bool)
	// Getwd is the caller's working directory.
	Getwd func() (string, error)
	// LookPath finds a program on the host's PATH.
	LookPath func(string) (string, error)
	// Etc is the directory whose entries not readable by all are hidden:
	// "/etc", or empty to hide none.
	Etc string
	// Null is the null device, which covers the hidden files.
	Null string
}

// System is the real host.
func System() Host {
	return Host{Getenv: os.LookupEnv, Getwd: os.Getwd, LookPath: exec.LookPath, Etc: "/etc", Null: os.DevNull}
}

// Command is the confined server: bwrap's path, its arguments (without
// argv[0]) and the whole environment the server gets.
type Command struct {
	Path string
	Args []string
	Env  []string
}

// Wrap builds the bwrap command that runs spec under opts (opts.Kind
// must be transport.SandboxBwrap). Its errors say what to change.
func Wrap(opts transport.Sandbox, spec Spec, h Host) (Command, error) {
	if opts.Kind != transport.SandboxBwrap {
		return Command{}, fmt.Errorf("unknown sandbox %q: the only one is %q", opts.Kind, transport.SandboxBwrap)
	}
	bwrap, err := h.LookPath(Program)
	if err != nil {
		return Command{}, fmt.Errorf("--sandbox %s needs bubblewrap: %w; install it (Debian, Ubuntu: apt-get install %s)", Program, ErrNoBwrap, Package)
	}
	home := privateHome(h)
	wd, err := h.Getwd()
	if err != nil {
		return Command{}, fmt.Errorf("cannot read the working directory: %w", err)
	}
	dir := spec.Dir
	if dir == "" {
		dir = wd
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(wd, dir)
	}
	dir = resolved(dir)

	a := []string{"--die-with-parent", "--new-session", "--unshare-all"}
	if opts.Net {
		a = append(a, "--share-net")
	}
	a = append(a, "--cap-drop", "ALL")

	var shown []string // host paths visible inside, read-only or not
	for _, d := range systemDirs {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
			continue
		case fi.Mode()&fs.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				a = append(a, "--symlink", target, d)
			}
		case fi.IsDir():
			a = append(a, "--ro-bind", d, d)
			shown = append(shown, d)
		}
	}
	if h.Etc != "" {
		// The covers are the host's /dev/null; a file put in its place
		// (a program that renamed its output over it) would show its
		// content instead.
		if fi, err := os.Stat(h.Null); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			return Command{}, fmt.Errorf("cannot hide the private files of %s: %s is not the null device (something replaced it with a file; as root: rm %[2]s && mknod -m 666 %[2]s c 1 3)", h.Etc, h.Null)
		}
		a = append(a, hidePrivate(h.Etc, h.Null)...)
	}
	if opts.Net {
		// /etc/resolv.conf may point into /run, which is not shown.
		if t, err := filepath.EvalSymlinks("/etc/resolv.conf"); err == nil && !under(t, shown) {
			a = append(a, "--ro-bind-try", t, t)
		}
	}
	a = append(a, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", home)

	chdir := home
	switch opts.Cwd {
	case "", transport.CwdReadOnly, transport.CwdWritable:
		if dir == "/" || within(resolved(home), dir) {
			return Command{}, fmt.Errorf("the working directory %s holds the home directory %s, which the sandbox would show to the server: run from the server's own directory, give --cwd DIR, or --sandbox-cwd %s", dir, home, transport.CwdHidden)
		}
		bind := "--ro-bind"
		if opts.Cwd == transport.CwdWritable {
			bind = "--bind"
		}
		a = append(a, bind, dir, dir)
		shown = append(shown, dir)
		chdir = dir
	case transport.CwdHidden:
	default:
		return Command{}, fmt.Errorf("--sandbox-cwd %q: give %s, %s or %s", opts.Cwd, transport.CwdReadOnly, transport.CwdWritable, transport.CwdHidden)
	}
	for _, p := range opts.ReadOnly {
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		if _, err := os.Stat(p); err != nil {
			return Command{}, fmt.Errorf("--sandbox-ro %s: %w", p, unwrapPath(err))
		}
		p = resolved(p)
		a = append(a, "--ro-bind", p, p)
		shown = append(shown, p)
	}

	// The program itself: found on the host as the user would find it,
	// and shown alone, read-only, when nothing shown holds it (a server
	// built into a temporary directory, say).
	name := spec.Name
	exe := name
	if !strings.Contains(name, "/") {
		if exe, err = h.LookPath(name); err != nil {
			return Command{}, err
		}
	} else if !filepath.IsAbs(name) {
		exe = filepath.Join(dir, name)
		name = exe
	}
	if !filepath.IsAbs(exe) {
		exe = filepath.Join(wd, exe)
	}
	st, err := os.Stat(exe)
	if err != nil {
		return Command{}, &exec.Error{Name: spec.Name, Err: unwrapPath(err)}
	}
	if st.IsDir() || st.Mode().Perm()&0o111 == 0 {
		// bwrap's execvp would fail inside a sandbox set up for
		// nothing, in words that read like a failure to set it up.
		return Command{}, &exec.Error{Name: spec.Name, Err: fs.ErrPermission}
	}
	// A link (~/bin/node -> /usr/bin/node) is shown as the file it names.
	if real := resolved(exe); !under(real, shown) || !under(exe, shown) {
		a = append(a, "--ro-bind", real, exe)
	}

	a = append(a, "--chdir", chdir, "--remount-ro", "/", "--", name)
	a = append(a, spec.Args...)
	return Command{Path: bwrap, Args: a, Env: environ(h, home, spec.Env)}, nil
}

// privateHome is where the server's empty HOME is mounted: the real
// HOME's path, so that paths the user knows still mean the same, unless
// that is unset, relative or the root.
func privateHome(h Host) string {
	home, ok := h.Getenv("HOME")
	home = filepath.Clean(home)
	if !ok || !filepath.IsAbs(home) || home == "/" {
		return FallbackHome
	}
	return home
}

// environ is the server's whole environment.
func environ(h Host, home string, extra []string) []string {
	path, ok := h.Getenv("PATH")
	if !ok || path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	env := []string{"PATH=" + path, "HOME=" + home, "TMPDIR=/tmp"}
	for _, k := range passed {
		if v, ok := h.Getenv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return append(env, extra...)
}

// hidePrivate covers every entry under dir that not all users may read
// (/etc/shadow, /etc/ssl/private, ...): a server run by root would read
// them otherwise. A file is covered by /dev/null, a directory by an empty
// read-only tmpfs.
func hidePrivate(dir, null string) []string {
	var a []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		m := fi.Mode()
		switch {
		case m.IsDir() && m.Perm()&0o005 != 0o005:
			if p == dir {
				return fs.SkipDir
			}
			a = append(a, "--tmpfs", p, "--remount-ro", p)
			return fs.SkipDir
		case m.IsRegular() && m.Perm()&0o004 == 0:
			a = append(a, "--ro-bind", null, p)
		}
		return nil
	})
	return a
}

// resolved is p with its symbolic links followed, or p when that fails.
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// within reports whether p is dir or lies below it.
func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// under reports whether p lies within one of dirs.
func under(p string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return within(p, d) })
}

// unwrapPath drops a PathError's path, which the message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
