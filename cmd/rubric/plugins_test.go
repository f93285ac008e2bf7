package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-plugin"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/proctest"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/judges/replay"
	"github.com/rubricmcp/rubric/plugins/host"
	"github.com/rubricmcp/rubric/plugins/protocol"
	"github.com/rubricmcp/rubric/plugins/sdk"
)

// crashTransport kills its own process in the middle of an export.
type crashTransport struct{}

func (crashTransport) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "crash", Version: "0.0.1", Schemes: []string{"crash"}, Locality: transport.Endpoint}, nil
}

func (crashTransport) Export(context.Context, transport.Target) (*surface.Surface, error) {
	sdk.Logger.Error("reading the server, then dying")
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}

func crashTransportMain() { sdk.ServeTransport(crashTransport{}) }

// futureJudge speaks plugin protocol version 2.
type futureJudge struct{}

func (futureJudge) Describe(context.Context) (judge.Identity, error) { return judge.Identity{}, nil }
func (futureJudge) Configure(context.Context, judge.Config) (judge.Identity, error) {
	return judge.Identity{}, nil
}
func (futureJudge) Ask(context.Context, judge.Question) (judge.Answer, error) {
	return judge.Answer{}, nil
}

func futureJudgeMain() {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  protocol.Handshake(protocol.Version + 1),
		VersionedPlugins: map[int]plugin.PluginSet{protocol.Version + 1: {protocol.KindJudge: &protocol.JudgePlugin{Impl: futureJudge{}}}},
		GRPCServer:       plugin.DefaultGRPCServer,
	})
}

// installPluginCmd is "installplugin NAME [DIR]": it puts a copy of the
// test binary named NAME (one of the plugins TestMain knows) into DIR,
// .rubric/plugins by default.
func installPluginCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: installplugin NAME [DIR]")
	}
	dir := ".rubric/plugins"
	if len(args) == 2 {
		dir = args[1]
	}
	dir = ts.MkAbs(dir)
	ts.Check(os.MkdirAll(dir, 0o755))
	dst := filepath.Join(dir, args[0])
	if err := os.Link(os.Args[0], dst); err == nil {
		return
	}
	src, err := os.Open(os.Args[0])
	ts.Check(err)
	defer src.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	ts.Check(err)
	_, err = io.Copy(out, src)
	ts.Check(err)
	ts.Check(out.Close())
}

// sha256Cmd is "sha256 FILE VAR": it sets VAR to FILE's hex sha256.
func sha256Cmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sha256 FILE VAR")
	}
	sum, err := host.FileSHA256(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Setenv(args[1], sum)
}

// waitFileCmd is "waitfile FILE": it waits for FILE to exist, failing
// after 2 minutes only so that a run that never gets there does not hang.
func waitFileCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile FILE")
	}
	for range 12000 {
		if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	ts.Fatalf("%s did not appear", args[0])
}

// goneCmd is "gone PIDFILE": every pid in the file (space separated) must
// end (a zombie counts as ended); it gives up only after proctest.Guard.
func goneCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gone PIDFILE")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		ts.Check(err)
		if !proctest.Gone(pid, proctest.Guard) {
			ts.Fatalf("process %d is still running", pid)
		}
	}
}

// flakyJudge answers as the replay judge does, under its own name, and
// dies on the question after the number in the file crash-after (in the
// working directory), if there is one: a judge that crashes mid-run.
type flakyJudge struct {
	*replay.Judge
	after int64
	asked atomic.Int64
}

func (f *flakyJudge) rename(id judge.Identity, err error) (judge.Identity, error) {
	id.Plugin = "flaky"
	return id, err
}

func (f *flakyJudge) Describe(ctx context.Context) (judge.Identity, error) {
	return f.rename(f.Judge.Describe(ctx))
}

func (f *flakyJudge) Configure(ctx context.Context, c judge.Config) (judge.Identity, error) {
	return f.rename(f.Judge.Configure(ctx, c))
}

func (f *flakyJudge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	if f.after > 0 && f.asked.Add(1) > f.after {
		sdk.Logger.Error("flaky judge: dying in the middle of a question")
		os.Exit(3)
	}
	return f.Judge.Ask(ctx, q)
}

func flakyJudgeMain() {
	f := &flakyJudge{Judge: replay.New()}
	if b, err := os.ReadFile("crash-after"); err == nil {
		f.after, _ = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	}
	sdk.ServeJudge(f)
}

// panicJudge answers as the offline judge does, under its own name, and
// panics on its first question: a judge whose crash leaves a Go stack on
// its stderr.
type panicJudge struct{ *heuristic.Judge }

func (p panicJudge) rename(id judge.Identity, err error) (judge.Identity, error) {
	id.Plugin = "panicky"
	return id, err
}

func (p panicJudge) Describe(ctx context.Context) (judge.Identity, error) {
	return p.rename(p.Judge.Describe(ctx))
}

func (p panicJudge) Configure(ctx context.Context, c judge.Config) (judge.Identity, error) {
	return p.rename(p.Judge.Configure(ctx, c))
}

func (p panicJudge) Ask(context.Context, judge.Question) (judge.Answer, error) {
	panic("panicky judge: deliberate panic")
}

func panicJudgeMain() { sdk.ServeJudge(panicJudge{heuristic.New()}) }

// plainJudge answers as the offline judge does, under its own name: a
// judge plugin that works, beside those that misbehave.
type plainJudge struct{ *heuristic.Judge }

func (p plainJudge) rename(id judge.Identity, err error) (judge.Identity, error) {
	id.Plugin = "plain"
	return id, err
}

func (p plainJudge) Describe(ctx context.Context) (judge.Identity, error) {
	return p.rename(p.Judge.Describe(ctx))
}

func (p plainJudge) Configure(ctx context.Context, c judge.Config) (judge.Identity, error) {
	return p.rename(p.Judge.Configure(ctx, c))
}

func plainJudgeMain() { sdk.ServeJudge(plainJudge{heuristic.New()}) }

// hungJudge answers as the offline judge does, under its own name, until
// a file named hang is in its working directory: from then on each
// question it is asked writes the file hanging and waits for an answer
// that never comes, as a judge deadlocked or with a hung model client
// does, while its process stays alive and its other calls answer.
type hungJudge struct{ *heuristic.Judge }

func (h hungJudge) rename(id judge.Identity, err error) (judge.Identity, error) {
	id.Plugin = "hung"
	return id, err
}

func (h hungJudge) Describe(ctx context.Context) (judge.Identity, error) {
	return h.rename(h.Judge.Describe(ctx))
}

func (h hungJudge) Configure(ctx context.Context, c judge.Config) (judge.Identity, error) {
	return h.rename(h.Judge.Configure(ctx, c))
}

func (h hungJudge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	if _, err := os.Stat("hang"); err == nil {
		os.WriteFile("hanging", nil, 0o644)
		select {} // deaf to its context too: only its end ends this
	}
	return h.Judge.Ask(ctx, q)
}

func hungJudgeMain() { sdk.ServeJudge(hungJudge{heuristic.New()}) }
