// Package sdk serves a judge or a transport as a rubric plugin. A plugin is
// a program whose main calls ServeJudge or ServeTransport and nothing else:
//
//	func main() { sdk.ServeTransport(myTransport{}) }
//
// Build it as rubric-judge-NAME or rubric-transport-NAME, put it in the
// plugin directory (or name its path in the config) and rubric starts it as
// a separate process when a run needs it, speaking the protocol in
// plugins/proto over gRPC. plugins/README.md describes the protocol.
//
// A plugin logs through Logger: lines reach the host's log at their level.
// It must not write to standard output, which carries the handshake.
package sdk

import (
	"os"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/rubricmcp/rubric/plugins/protocol"
)

// Judge is what a judge plugin implements; see protocol.Judge.
type Judge = protocol.Judge

// Transport is what a transport plugin implements; see protocol.Transport.
type Transport = protocol.Transport

// TransportInfo describes a transport; see protocol.TransportInfo.
type TransportInfo = protocol.TransportInfo

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
func ServeJudge(j Judge) {
	serve(protocol.KindJudge, &protocol.JudgePlugin{Impl: j})
}

// ServeTransport serves t until the host ends the plugin; see ServeJudge.
func ServeTransport(t Transport) {
	serve(protocol.KindTransport, &protocol.TransportPlugin{Impl: t})
}

func serve(kind string, p plugin.Plugin) {
	endGroupOnTerm()
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: protocol.Handshake(protocol.Version),
		VersionedPlugins: map[int]plugin.PluginSet{
			protocol.Version: {kind: p},
		},
		GRPCServer: protocol.Server,
		Logger:     Logger,
	})
}
