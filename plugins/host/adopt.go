package host

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync/atomic"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"

	"github.com/rubricmcp/rubric/internal/prestart"
)

// pluginDir is what go-plugin adds to the socket path of a plugin it
// starts through a runner: a directory of its own in the host's.
const pluginDir = "/plugin-dir4294967295"

// adopt takes, for p's start with env, the companion rubric started ahead
// of need (internal/prestart), when it is p's binary and p's start would
// be exactly its: a built-in's own binary, without arguments, checked by
// build (env) and not by sha256, with sockets in the host's directory dir.
// Nil when there is none to take.
func adopt(p Plugin, env []string, dir string) *prestart.Process {
	if len(env) == 0 || !p.Builtin() || len(p.Args) > 0 || p.SHA256 != "" || dir == "" || len(dir)+len(pluginDir) > maxSocketPath {
		return nil
	}
	return prestart.Take(p.Path, !p.Leaf)
}

// adoptInto makes cfg start pre in place of cmd: go-plugin's runner sends
// pre the environment cmd would have started with (base, which cmd.Env
// holds, then what go-plugin adds), and sockets go in dir. It returns
// the command that stands for pre in the host's records and the function
// that kills pre: one never sent its environment (go-plugin failed
// before starting it) is reaped there too, since go-plugin will not wait
// for it.
func adoptInto(cfg *plugin.ClientConfig, cmd *exec.Cmd, pre *prestart.Process, dir string) (*exec.Cmd, func()) {
	base := cmd.Env
	stand := &exec.Cmd{Path: pre.Path, Args: []string{pre.Path}, Env: base, Process: pre.Process}
	a := &adopted{pre: pre, cmd: stand}
	cfg.Cmd = nil
	cfg.SkipHostEnv = true
	cfg.UnixSocketConfig = &plugin.UnixSocketConfig{TempDir: dir}
	cfg.RunnerFunc = func(_ hclog.Logger, c *exec.Cmd, _ string) (runner.Runner, error) {
		a.env = append(base[:len(base):len(base)], c.Env...)
		return a, nil
	}
	kill := func() {
		if a.sent.Load() {
			_ = a.Kill(context.Background())
		} else {
			pre.Discard()
		}
	}
	return stand, kill
}

// adopted is a prestarted companion as go-plugin's runner: it is started
// by being sent its environment.
type adopted struct {
	pre *prestart.Process
	env []string
	// sent is set once pre has its environment: go-plugin then waits
	// for it.
	sent atomic.Bool
	// cmd stands for the process in the host's records (process.cmd).
	cmd *exec.Cmd
}

// Start implements runner.Runner.
func (a *adopted) Start(context.Context) error {
	if err := a.pre.Send(a.env); err != nil {
		return err // the host's kill reaps it
	}
	a.sent.Store(true)
	return nil
}

// Diagnose implements runner.Runner.
func (a *adopted) Diagnose(context.Context) string {
	return "the companion was started ahead by this rubric and sent its environment"
}

// Stdout implements runner.Runner.
func (a *adopted) Stdout() io.ReadCloser { return a.pre.Stdout }

// Stderr implements runner.Runner.
func (a *adopted) Stderr() io.ReadCloser { return a.pre.Stderr }

// Name implements runner.Runner.
func (a *adopted) Name() string { return a.pre.Path }

// Wait implements runner.AttachedRunner: the process's state is the
// host's command's, as exec.Cmd.Wait would have set it.
func (a *adopted) Wait(context.Context) error {
	st, err := a.pre.Wait()
	if err != nil {
		return err
	}
	a.cmd.ProcessState = st
	if !st.Success() {
		return errors.New(st.String())
	}
	return nil
}

// Kill implements runner.AttachedRunner.
func (a *adopted) Kill(context.Context) error {
	if err := a.pre.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}

// ID implements runner.AttachedRunner.
func (a *adopted) ID() string { return strconv.Itoa(a.pre.Pid) }

// PluginToHost implements runner.AddrTranslator: the same machine.
func (*adopted) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

// HostToPlugin implements runner.AddrTranslator: the same machine.
func (*adopted) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}
