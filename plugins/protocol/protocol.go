// Package protocol is the plugin protocol's Go side, shared by the host
// (plugins/host) and the plugin SDK (plugins/sdk): the go-plugin handshake,
// the interfaces a plugin implements, and the gRPC adapters between those
// interfaces and the generated code in plugins/proto/pluginv1.
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
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/proto/pluginv1"
)

// Version is the plugin protocol version this build speaks.
const Version = 1

// LogLevelEnv is the environment variable through which the host tells a
// plugin the level it logs at (trace, debug, info, warn, error or off).
const LogLevelEnv = "RUBRIC_PLUGIN_LOG_LEVEL"

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

// Judge is what a judge plugin implements.
type Judge interface {
	// Describe returns the judge's identity before configuration.
	Describe(ctx context.Context) (judge.Identity, error)
	// Configure sets the model and options and returns the identity the
	// judge answers under from then on.
	Configure(ctx context.Context, c judge.Config) (judge.Identity, error)
	// Ask answers one question.
	Ask(ctx context.Context, q judge.Question) (judge.Answer, error)
}

// TransportInfo describes a transport plugin.
type TransportInfo struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Schemes []string `json:"schemes"`
}

// Transport is what a transport plugin implements.
type Transport interface {
	// Info names the transport, its version and the target schemes it
	// handles (such as "http" and "https").
	Info() TransportInfo
	// Export reads a target's surface.
	Export(ctx context.Context, t transport.Target) (*surface.Surface, error)
}

// DocumentExporter is implemented by a transport that already holds its
// surface as a JSON document (a file, say): the document is sent as it is
// and parsed once, by the host.
type DocumentExporter interface {
	ExportDocument(ctx context.Context, t transport.Target) (source string, doc []byte, err error)
}

// JudgePlugin adapts a Judge to go-plugin. Host side, Impl is nil and
// the dispensed value is a *JudgeClient.
type JudgePlugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Judge
}

// GRPCServer implements plugin.GRPCPlugin.
func (p *JudgePlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	pluginv1.RegisterJudgeServer(s, &judgeServer{impl: p.Impl})
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
	Impl Transport
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
