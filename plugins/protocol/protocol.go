// Package protocol is the plugin protocol's Go side, shared by the host
// (plugins/host) and the plugin SDK (plugins/sdk): the go-plugin handshake,
// the gRPC adapters between the interfaces the engine owns
// (engine/judge.Judge, engine/transport.Transport) and the generated code in
// plugins/proto/pluginv1, and the description of a built-in plugin.
//
// A plugin binary serves one kind, "judge" or "transport". Version is the
// protocol version carried by the handshake; a host refuses a plugin that
// speaks another.
package protocol

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/proto/pluginv1"
)

// Version is the plugin protocol version this build speaks.
const Version = 1

// LogLevelEnv is the environment variable through which the host tells a
// plugin the level it logs at (trace, debug, info, warn, error or off).
const LogLevelEnv = "RUBRIC_PLUGIN_LOG_LEVEL"

// LogNowKey is the key of a plugin's log entry argument that, set to
// true, asks the host to show the entry at once rather than hold it
// until the plugin ends (sdk.Warn writes it).
const LogNowKey = "rubric_now"

// BuildEnv is the environment variable through which a host tells a
// built-in's companion binary (Builtin.Companion) which build the host
// is (internal/buildinfo.ID): a companion of another build ends before
// the handshake, and the host serves the built-in from its own binary.
const BuildEnv = "RUBRIC_PLUGIN_BUILD"

// The two plugin kinds, as dispensed by go-plugin.
const (
	KindJudge     = "judge"
	KindTransport = "transport"
)

// Handshake returns the go-plugin handshake for a protocol version. The
// magic cookie only keeps a plugin binary from being run by hand by
// mistake; it is not a secret.
func Handshake(version int) plugin.HandshakeConfig {
	return plugin.HandshakeConfig{
		ProtocolVersion:  uint(version),
		MagicCookieKey:   "RUBRIC_PLUGIN_MAGIC_COOKIE",
		MagicCookieValue: "c3f4c5f0-grade-the-tools-not-the-server",
	}
}

// DocumentExporter is implemented by a transport that already holds its
// surface as a JSON document (a file, say): the document is sent as it is
// and parsed once, by the host.
type DocumentExporter interface {
	ExportDocument(ctx context.Context, t transport.Target) (source string, doc []byte, err error)
}

// PathExporter is implemented by a transport whose document may be a
// whole local file (the file transport): asked by a host that reads the
// plugin's files itself (TransportClient.LocalFiles), it names the file
// instead of sending its bytes, which the host would only copy.
type PathExporter interface {
	// ExportPath returns the absolute path and the size of the regular
	// file that is the target's document, after the checks a read would
	// make (it exists, can be opened, is within the target's limit), or
	// path "" when the document is no such file (standard input), to be
	// sent as bytes.
	ExportPath(ctx context.Context, t transport.Target) (source, path string, size int64, err error)
}

// JudgePlugin adapts a Judge to go-plugin. Host side, Impl is nil and
// the dispensed value is a *JudgeClient.
type JudgePlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl judge.Judge
	// Behind, when set, is called (plugin side) whenever a question
	// arrives on the answer stream while BehindAt or more are still being
	// answered: the judge is the slower end.
	Behind func()
}

// BehindAt is how many questions still being answered when another
// arrives make a judge behind (JudgePlugin.Behind). A host keeps 6 in
// flight by default; a judge quicker than the host has one or two. A
// judge that answers locally (judge.CapabilityLocal) gets 128, in the
// bursts the host builds them in, so that the heuristic falls behind
// early in a large TDQS run and serves on its processors: measured at
// 5,000 tools, 1.84 s wall against 2.11 s on one processor (medians of
// seven alternated runs, bench/README.md).
const BehindAt = 4

// BehindStreak is how many questions in a row must find a judge behind
// (BehindAt) before it is.
const BehindStreak = 32

// GRPCServer implements plugin.GRPCPlugin.
func (p *JudgePlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pluginv1.RegisterJudgeServer(s, &judgeServer{impl: p.Impl, behind: p.Behind})
	return nil
}

// GRPCClient implements plugin.GRPCPlugin.
func (p *JudgePlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &JudgeClient{c: pluginv1.NewJudgeClient(c)}, nil
}

// TransportPlugin adapts a Transport to go-plugin. Host side, Impl is nil
// and the dispensed value is a *TransportClient.
type TransportPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl transport.Transport
}

// GRPCServer implements plugin.GRPCPlugin.
func (p *TransportPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pluginv1.RegisterTransportServer(s, &transportServer{impl: p.Impl})
	return nil
}

// GRPCClient implements plugin.GRPCPlugin.
func (p *TransportPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return &TransportClient{c: pluginv1.NewTransportClient(c)}, nil
}

// PluginSet is the set a host offers for a protocol version: both kinds,
// with no implementation.
func PluginSet() plugin.PluginSet {
	return plugin.PluginSet{KindJudge: &JudgePlugin{}, KindTransport: &TransportPlugin{}}
}

// ServeArg is the first argument that makes a host binary serve one of
// its built-in plugins: BINARY __serve-plugin KIND NAME.
const ServeArg = "__serve-plugin"

// Builtin is a judge or a transport compiled into the host binary, which
// serves it when started again with ServeArg KIND NAME: one binary to
// install, and still every plugin runs in a process of its own.
type Builtin struct {
	// Name is what the user calls it, such as "heuristic" or "stdio".
	Name string
	// Judge makes the judge; nil for a transport.
	Judge func() judge.Judge
	// Transport makes the transport; nil for a judge.
	Transport func() transport.Transport
	// Leaf is true for a plugin that starts no processes of its own, so
	// it need not lead a process group (and may read the terminal).
	Leaf bool
	// Companion, when set, is the file name of a small binary that
	// serves this built-in alone (plugins/sdk.ServeCompanion), built from
	// the same commit and installed beside the host binary. Its import
	// graph holds only what the plugin needs, so it starts in a fraction
	// of the host binary's time; the host starts it when it lies beside
	// the host and was built as the host was, and otherwise starts the
	// host binary again.
	Companion string
	// GCPercent, when above 0, is the garbage collector's target
	// (runtime/debug.SetGCPercent) the plugin's process serves with,
	// unless GOGC sets one: for a judge whose own live heap is a few
	// megabytes while it allocates steadily (the heuristic), which the
	// default target of 100 makes collect every few megabytes.
	GCPercent int
	// MaxProcs, when above 0, is how many processors (runtime.GOMAXPROCS)
	// the plugin's process starts serving on, unless GOMAXPROCS sets its
	// own: for a judge whose work per question is small beside the
	// host's (the heuristic at TDQS), where the idle processors of two
	// runtimes sharing the machine's cores spin and wake each other. A
	// judge that falls behind its questions (JudgePlugin.Behind) gets the
	// processors it would have had back.
	MaxProcs int
}

// Kind is KindJudge or KindTransport.
func (b Builtin) Kind() string {
	if b.Judge != nil {
		return KindJudge
	}
	return KindTransport
}
