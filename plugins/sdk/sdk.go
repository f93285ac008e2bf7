// Package sdk serves a judge or a transport as a rubric plugin. A plugin is
// a program whose main calls ServeJudge or ServeTransport and nothing else:
//
//	func main() { sdk.ServeTransport(myTransport{}) }
//
// A judge implements engine/judge.Judge and a transport
// engine/transport.Transport: the interfaces the engine itself uses. The
// rubric binary serves its own built-in plugins with ServeBuiltin.
//
// Build it as rubric-judge-NAME or rubric-transport-NAME, put it in the
// plugin directory (or name its path in the config) and rubric starts it as
// a separate process when a run needs it, speaking the protocol in
// plugins/proto over gRPC. plugins/README.md describes the protocol.
//
// A plugin logs through Logger: lines reach the host's log at their level.
// It must not write to standard output before it serves, which carries
// the handshake; once it serves, what it writes to standard output or
// standard error reaches the host's log at debug level, and the end of it
// the message that reports its crash.
package sdk

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/internal/prestart"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// Logger writes JSON lines to standard error, which the host relays into
// its own log at each line's level. Its level is the host's.
var Logger = hclog.New(&hclog.LoggerOptions{
	Name:       "plugin",
	Level:      level(),
	Output:     os.Stderr,
	JSONFormat: true,
})

func level() hclog.Level {
	if l := hclog.LevelFromString(os.Getenv(protocol.LogLevelEnv)); l != hclog.NoLevel {
		return l
	}
	return hclog.Info
}

// ServeJudge serves j until the host ends the plugin. It does not return
// when started by a host; run by hand, it explains that it is a plugin and
// exits with status 1.
func ServeJudge(j judge.Judge) {
	serve(protocol.KindJudge, &protocol.JudgePlugin{Impl: j})
}

// serveJudgeOn serves j as ServeJudge does, on n processors until it
// falls behind its questions (protocol.JudgePlugin.Behind), and then on
// as many as it had before.
func serveJudgeOn(j judge.Judge, n int) {
	before := runtime.GOMAXPROCS(n)
	serve(protocol.KindJudge, &protocol.JudgePlugin{Impl: j, Behind: sync.OnceFunc(func() {
		runtime.GOMAXPROCS(before)
		Logger.Debug("the judge fell behind its questions: serving on more processors", "processors", before)
	})})
}

// ServeTransport serves t until the host ends the plugin; see ServeJudge.
func ServeTransport(t transport.Transport) {
	serve(protocol.KindTransport, &protocol.TransportPlugin{Impl: t})
}

func serve(kind string, p plugin.Plugin) {
	endGroupOnTerm()
	// The files a plugin reads whole (an answers file) have rubric's
	// --max-file-size as their limit.
	boundedread.SetLimitFromEnv()
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: protocol.Handshake(protocol.Version),
		VersionedPlugins: map[int]plugin.PluginSet{
			protocol.Version: {kind: p},
		},
		GRPCServer: stderrServer(os.Stderr),
		Logger:     Logger,
	})
}

// stderrServer is protocol.Server with os.Stderr given back its file,
// stderr, before the first call is served, and os.Stdout pointed there
// too. go-plugin points both at pipes it relays to the host over gRPC
// once it has handshaken, and a line a plugin printed just before it
// exited (its reason, from fmt or the log package) died with the
// process, unrelayed, so its crash said only its exit status; what it
// printed on stdout the host never showed at all. Written to the file,
// the host reads both as it reads a panic: into its log at debug level,
// and the end of it into the crash message. The first call follows the
// handshake, and with it go-plugin's change of os.Stdout and os.Stderr.
func stderrServer(stderr *os.File) func([]grpc.ServerOption) *grpc.Server {
	restore := sync.OnceFunc(func() { os.Stderr, os.Stdout = stderr, stderr })
	unary := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		restore()
		return h(ctx, req)
	}
	stream := func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
		restore()
		return h(srv, ss)
	}
	return func(opts []grpc.ServerOption) *grpc.Server {
		return protocol.Server(append(opts, grpc.ChainUnaryInterceptor(unary), grpc.ChainStreamInterceptor(stream)))
	}
}

// ServeBuiltin serves the built-in plugin that args (a host binary's
// os.Args[1:]) name, "__serve-plugin KIND NAME", from list, and reports
// whether args asked for one. Asked for one, it returns only after the
// host has ended the plugin; asked for one that list lacks, it exits with
// status 2.
func ServeBuiltin(args []string, list []protocol.Builtin) bool {
	if len(args) != 3 || args[0] != protocol.ServeArg {
		return false
	}
	kind, name := args[1], args[2]
	for _, b := range list {
		if b.Kind() != kind || b.Name != name {
			continue
		}
		if pct, ok := gcPercent(b, os.Getenv("GOGC")); ok {
			debug.SetGCPercent(pct)
		}
		switch n, ok := maxProcs(b, os.Getenv("GOMAXPROCS")); {
		case b.Judge != nil && ok:
			serveJudgeOn(b.Judge(), n)
		case b.Judge != nil:
			ServeJudge(b.Judge())
		default:
			ServeTransport(b.Transport())
		}
		return true
	}
	fmt.Fprintf(os.Stderr, "rubric: no built-in %s plugin %q\n", kind, name)
	os.Exit(2)
	return true
}

// ServeCompanion serves b, a built-in plugin, from its companion binary
// (protocol.Builtin.Companion): a main of its own that calls this and
// nothing else. Started by a host that names another build than this one
// (protocol.BuildEnv), it says so on stderr and exits with status 3
// before the handshake, and the host serves the built-in from its own
// binary instead: a companion left over from another install is never
// used in its place. Started with no build named, it serves as any
// plugin does.
func ServeCompanion(b protocol.Builtin) {
	AwaitHost()
	if want := os.Getenv(protocol.BuildEnv); want != "" && want != buildinfo.ID() {
		fmt.Fprintf(os.Stderr, "%s: this binary is build %q but the rubric that started it is %q: install both from one build\n", b.Companion, buildinfo.ID(), want)
		os.Exit(3)
	}
	if b.Judge != nil {
		ServeJudge(b.Judge())
	} else {
		ServeTransport(b.Transport())
	}
}

// AwaitHost, in a companion rubric started ahead of need
// (internal/prestart), waits for the environment rubric sends it, makes it
// the process's own and sets Logger's level from it; a companion rubric
// does not take ends there, without serving. Anywhere else it returns at
// once. ServeCompanion calls it; a companion's main calls it first when it
// reads the environment before serving.
func AwaitHost() {
	if os.Getenv(prestart.Env) == "" {
		return
	}
	prestart.Await()
	Logger.SetLevel(level())
}

// NowKey is the key of a log entry's argument that asks the host to show
// the entry at once. The host holds a plugin's other warnings and errors
// until the plugin ends (an error it returns may quote them instead).
const NowKey = protocol.LogNowKey

// Warn logs a warning through Logger that the host shows the user at
// once, while the call that caused it goes on: for a wait the user
// should hear the reason for before it ends.
func Warn(msg string, args ...any) {
	Logger.Warn(msg, append(args[:len(args):len(args)], NowKey, true)...)
}

// DebugLog is a writer that relays each line written to it into Logger
// at debug level, after prefix: a spawned server's stderr, say.
func DebugLog(prefix string) *LineLog { return &LineLog{prefix: prefix} }

// LineLog relays lines into Logger; see DebugLog.
type LineLog struct{ prefix string }

// Write implements io.Writer, a debug log line per line written.
func (l *LineLog) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		Logger.Debug(l.prefix + line)
	}
	return len(p), nil
}

// gcPercent is the garbage collector's target the built-in b is served
// with, and whether to set it: b's GCPercent, unless gogc (the GOGC
// variable) sets a target of its own.
func gcPercent(b protocol.Builtin, gogc string) (int, bool) {
	if b.GCPercent <= 0 || gogc != "" {
		return 0, false
	}
	return b.GCPercent, true
}

// maxProcs is how many processors the built-in b starts serving on, and
// whether to set it: b's MaxProcs, unless gomaxprocs (the GOMAXPROCS
// variable) sets a number of its own.
func maxProcs(b protocol.Builtin, gomaxprocs string) (int, bool) {
	if b.MaxProcs <= 0 || gomaxprocs != "" {
		return 0, false
	}
	return b.MaxProcs, true
}
