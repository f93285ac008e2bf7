// Package builtin lists the judges and transports that ship inside the
// rubric binary and serves them when the binary is started again as a
// plugin process: one binary to install, and still every judge and
// transport is reached through the plugin protocol, in a process of its
// own.
package builtin

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/judges/anthropic"
	"github.com/rubricmcp/rubric/judges/claudecli"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/judges/openai"
	"github.com/rubricmcp/rubric/judges/replay"
	"github.com/rubricmcp/rubric/plugins/host"
	"github.com/rubricmcp/rubric/plugins/protocol"
	"github.com/rubricmcp/rubric/plugins/sdk"
	"github.com/rubricmcp/rubric/plugins/transports/file"
	"github.com/rubricmcp/rubric/plugins/transports/mcphttp"
	"github.com/rubricmcp/rubric/plugins/transports/registry"
	"github.com/rubricmcp/rubric/plugins/transports/stdio"
)

// ServeArg is the first argument that makes the rubric binary serve a
// built-in plugin: rubric __serve-plugin KIND NAME.
const ServeArg = "__serve-plugin"

// builtinTransport is a built-in transport and what it serves.
type builtinTransport struct {
	// leaf is true when the transport starts no processes.
	leaf bool
	make func() protocol.Transport
}

var transports = map[string]builtinTransport{
	"file":     {leaf: true, make: func() protocol.Transport { return file.Transport{} }},
	"registry": {leaf: true, make: func() protocol.Transport { return registry.Transport{} }},
	"stdio": {make: func() protocol.Transport {
		return described{stdio.Transport{ClientVersion: buildinfo.Version(), Stderr: serverLog{}}, nil}
	}},
	"http": {make: func() protocol.Transport {
		return described{mcphttp.Streamable{ClientVersion: buildinfo.Version()}, []string{"http", "https"}}
	}},
	"sse": {make: func() protocol.Transport {
		return described{mcphttp.SSE{ClientVersion: buildinfo.Version()}, []string{"http", "https"}}
	}},
}

// serverLog relays a spawned server's stderr into the plugin's log, and so
// into the host's, at debug level.
type serverLog struct{}

// Write implements io.Writer, a debug log line per line written.
func (serverLog) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		sdk.Logger.Debug("server stderr: " + line)
	}
	return len(p), nil
}

// judges are the built-in judges, by name.
var judges = map[string]func() protocol.Judge{
	"heuristic":  func() protocol.Judge { return heuristic.New() },
	"openai":     func() protocol.Judge { return openai.New() },
	"anthropic":  func() protocol.Judge { return anthropic.New() },
	"claude-cli": func() protocol.Judge { return claudecli.New() },
	"replay":     func() protocol.Judge { return replay.New() },
}

// Plugins returns the built-in plugins as the host starts them: self
// (the rubric binary) with serve arguments.
func Plugins(self string) []host.Plugin {
	var ps []host.Plugin
	for _, name := range slices.Sorted(maps.Keys(judges)) {
		ps = append(ps, host.Plugin{Kind: protocol.KindJudge, Name: name, Path: self, Args: []string{ServeArg, protocol.KindJudge, name}, From: host.FromBuiltin})
	}
	for _, name := range slices.Sorted(maps.Keys(transports)) {
		ps = append(ps, host.Plugin{Kind: protocol.KindTransport, Name: name, Path: self, Args: []string{ServeArg, protocol.KindTransport, name}, From: host.FromBuiltin, Leaf: transports[name].leaf})
	}
	return ps
}

// Describe returns a built-in plugin's version and, for a transport, the
// schemes it reads, in process: a built-in is this binary, so starting it
// to ask would only say what is compiled in here.
func Describe(ctx context.Context, kind, name string) (string, []string, error) {
	switch kind {
	case protocol.KindTransport:
		if t, ok := transports[name]; ok {
			info := t.make().Info()
			return info.Version, info.Schemes, nil
		}
	case protocol.KindJudge:
		if j, ok := judges[name]; ok {
			id, err := j().Describe(ctx)
			return id.Version, nil, err
		}
	}
	return "", nil, fmt.Errorf("no built-in %s plugin %q", kind, name)
}

// Serve serves the built-in plugin args name (args being os.Args[1:]) and
// reports whether args asked for one. It returns only after the host has
// ended the plugin, or at once with false.
func Serve(args []string) bool {
	if len(args) != 3 || args[0] != ServeArg {
		return false
	}
	kind, name := args[1], args[2]
	switch kind {
	case protocol.KindTransport:
		if t, ok := transports[name]; ok {
			sdk.ServeTransport(t.make())
			return true
		}
	case protocol.KindJudge:
		if j, ok := judges[name]; ok {
			sdk.ServeJudge(j())
			return true
		}
	}
	fmt.Fprintf(os.Stderr, "rubric: no built-in %s plugin %q\n", kind, name)
	os.Exit(2)
	return true
}

// Self returns the path of the running rubric binary, to start built-ins
// from. When the binary was started under another name than the file it
// resolves to (a test binary standing in for rubric), the name it was
// started by is looked up instead, so the re-executed binary sees the same
// name.
func Self() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find the rubric binary to start built-in plugins: %w", err)
	}
	arg0 := os.Args[0]
	if filepath.Base(arg0) == filepath.Base(exe) {
		return exe, nil
	}
	if filepath.IsAbs(arg0) {
		return arg0, nil
	}
	if p, err := exec.LookPath(arg0); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, nil
		}
	}
	return exe, nil
}

// described gives an engine transport the Info a plugin needs.
type described struct {
	transport.Transport
	schemes []string
}

// Info implements protocol.Transport.
func (d described) Info() protocol.TransportInfo {
	return protocol.TransportInfo{Name: d.Name(), Version: buildinfo.Version(), Schemes: d.schemes}
}
