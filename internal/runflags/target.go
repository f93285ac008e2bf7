package runflags

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/localconfig"
)

// AddTarget declares the flags that say how to read a server.
func AddTarget(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("transport", "", "how to read the target: file, registry, stdio, http, sse or an installed plugin (default: from the target)")
	f.StringArray("header", nil, "HTTP header NAME=VALUE for http and sse (repeatable)")
	f.StringArray("env", nil, "environment variable NAME=VALUE for a spawned server (repeatable)")
	f.String("cwd", "", "working directory of a spawned server")
	f.Duration("start-timeout", transport.DefaultStartTimeout, "longest wait from starting a server to its answer to initialize")
	f.Duration("request-timeout", transport.DefaultRequestTimeout, "longest wait for each later answer")
	f.String("max-bytes", boundedread.Size(transport.DefaultMaxBytes), "largest response (or file) read: bytes, or with KiB, MiB or GiB")
	f.Int("max-tools", transport.DefaultMaxTools, "most tools read from one server")
	f.Bool("strict-stdout", false, "refuse a spawned server at its first line on stdout that is not JSON-RPC")
	f.Bool("follow-redirects", false, "follow an HTTP redirect to another origin, sending it no headers")
	f.String("sandbox", "", "run a spawned server in a sandbox: bwrap (bubblewrap: no network, read-only system, private HOME and /tmp)")
	f.Bool("sandbox-net", false, "let a sandboxed server use the network")
	f.String("sandbox-cwd", "", "how a sandboxed server sees the working directory: ro (default), rw or none")
	f.StringArray("sandbox-ro", nil, "another host path a sandboxed server sees, read-only (repeatable; RUBRIC_SANDBOX_RO=/opt/a,/opt/b gives two)")
}

// Target chooses the transport and builds the target from the
// arguments: "-- COMMAND ARGS..." spawns a server, a URL names an HTTP
// endpoint (or an installed transport by its scheme), anything else is a
// file.
func (fl Flags) Target(args []string) (string, transport.Target, error) {
	cmd := fl.Cmd
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		if dash > 0 {
			return "", transport.Target{}, fmt.Errorf("give either a TARGET or -- COMMAND, not both (got %q before --)", strings.Join(args[:dash], " "))
		}
		if len(args) == 0 {
			return "", transport.Target{}, fmt.Errorf("nothing after --: give the command that starts the server, for example: rubric score -- npx -y @modelcontextprotocol/server-everything")
		}
		return fl.Build("", args)
	}
	if len(args) != 1 {
		return "", transport.Target{}, fmt.Errorf("%s takes one target, got %d (for example: rubric %s tools.json, or rubric %s -- COMMAND)", cmd.Name(), len(args), cmd.Name(), cmd.Name())
	}
	return fl.Build(args[0], nil)
}

// Build builds a target from the flags: command (not nil) is a server
// to spawn over stdio, else location is a file, a URL or SCHEME://...
// for an installed transport. It returns the transport's name,
// --transport when given.
func (fl Flags) Build(location string, command []string) (string, transport.Target, error) {
	v := fl.V
	var t transport.Target
	name := v.GetString("transport")
	if command != nil {
		t.Location, t.Args = command[0], command[1:]
		if name == "" {
			name = "stdio"
		}
	} else {
		t.Location = location
		if name == "" {
			name = run.TransportOf(location)
		}
	}
	t.Dir = v.GetString("cwd")
	var err error
	env, _ := fl.Cmd.Flags().GetStringArray("env")
	if t.Env, err = transport.Pairs("--env", env, false); err != nil {
		return "", t, err
	}
	if t.Headers, err = fl.headers(); err != nil {
		return "", t, err
	}
	maxBytes, err := transport.ParseSize(v.GetString("max-bytes"))
	if err != nil {
		return "", t, fmt.Errorf("--max-bytes %w", err)
	}
	t.Limits = transport.Limits{
		StartTimeout:   v.GetDuration("start-timeout"),
		RequestTimeout: v.GetDuration("request-timeout"),
		MaxBytes:       maxBytes,
		MaxTools:       v.GetInt("max-tools"),
	}
	if err := t.Limits.Check(); err != nil {
		return "", t, err
	}
	t.StrictStdout = v.GetBool("strict-stdout")
	t.FollowRedirects = v.GetBool("follow-redirects")
	if t.Sandbox, err = fl.sandbox(); err != nil {
		return "", t, err
	}
	if t.Sandbox.Enabled() && location != "" && name != "stdio" {
		return "", t, fmt.Errorf("--sandbox confines a server rubric starts, and %s is read by the %s transport: give the command that starts the server after --", location, name)
	}
	// A flag given on this command line for a target whose transport
	// does not use it was dropped without a word; one from rubric.yaml or
	// a RUBRIC_* variable is kept for every run, and goes to the targets
	// among them that use it. A base for many targets (location and
	// command empty) keeps it too.
	if location != "" || command != nil {
		what := location
		if command != nil {
			what = "the command after --"
		}
		for _, k := range targetKinds {
			if fl.Cmd.Flags().Changed(k.flag) && k.kind.refuses(name) {
				return "", t, fmt.Errorf("--%s applies to %s, and %s is read by the %s transport, %s: leave --%s out, or %s", k.flag, k.kind.appliesTo, what, name, k.not, k.flag, k.kind.instead)
			}
		}
	}
	return name, t, nil
}

// targetKind is a kind of target that some flags apply to alone, and
// how Build refuses such a flag for the others.
type targetKind struct {
	refuses   func(transport string) bool
	appliesTo string // the targets that use it
	instead   string // what to give instead
}

var (
	// httpTargets are the targets read at a URL.
	httpTargets = targetKind{func(n string) bool { return !sendsHeaders(n) },
		"HTTP targets only (a URL, read by the http or sse transport)", "give the server's URL"}
	// startedServers are the servers rubric starts.
	startedServers = targetKind{func(n string) bool { return !startsServer(n) },
		"a server rubric starts (the command after --, run by the stdio transport)", "give the command that starts the server after --"}
)

// targetKinds lists the target flags that only some transports use,
// with why a refused transport does not. The others apply to every
// target (the limits), or are checked against --sandbox itself (the
// --sandbox-* flags, see transport.Sandbox.Check).
var targetKinds = []struct {
	flag string
	kind targetKind
	not  string
}{
	{"header", httpTargets, "which sends no header"},
	{"follow-redirects", httpTargets, "which follows no redirect"},
	{"env", startedServers, "which starts none"},
	{"cwd", startedServers, "which starts none"},
	{"strict-stdout", startedServers, "which starts none"},
}

// sendsHeaders says whether the transport name may send --header's
// headers (or follow a redirect, as --follow-redirects allows): http and
// sse do, and an installed plugin may; the built-in file, registry and
// stdio transports send none.
func sendsHeaders(name string) bool {
	switch name {
	case "file", "registry", "stdio":
		return false
	}
	return true
}

// startsServer says whether the transport name may start a server, and
// so use --env, --cwd and --strict-stdout: stdio does, and an installed
// plugin may; the built-in file, registry, http and sse transports start
// none.
func startsServer(name string) bool {
	switch name {
	case "file", "registry", "http", "sse":
		return false
	}
	return true
}

// sandbox reads the --sandbox flags (see transport.Sandbox), which a
// config file found in the working directory, and not trusted, may ask
// for but not loosen (see localconfig.Settings.CheckSandbox).
func (fl Flags) sandbox() (transport.Sandbox, error) {
	flags := fl.Cmd.Flags()
	s := transport.Sandbox{
		Kind: fl.V.GetString("sandbox"),
		Net:  fl.V.GetBool("sandbox-net"),
		Cwd:  fl.V.GetString("sandbox-cwd"),
	}
	// The flags' paths as given; the environment's or the config
	// file's list as localconfig.List reads it.
	if flags.Changed("sandbox-ro") {
		s.ReadOnly, _ = flags.GetStringArray("sandbox-ro")
	} else if ro := localconfig.List(fl.V, "sandbox-ro"); len(ro) > 0 {
		s.ReadOnly = ro // nil otherwise, as in a target without a sandbox
	}
	if err := fl.Local.CheckSandbox(fl.V, flags.Changed, s); err != nil {
		return s, err
	}
	return s, s.Check()
}

// headers merges the config's headers, RUBRIC_HEADER (NAME=VALUE lines)
// and --header flags, later ones winning (see transport.MergeHeaders).
func (fl Flags) headers() (map[string]string, error) {
	var lines []string
	if env := os.Getenv("RUBRIC_HEADER"); env != "" {
		lines = strings.Split(strings.TrimSpace(env), "\n")
	}
	flags, _ := fl.Cmd.Flags().GetStringArray("header")
	return transport.MergeHeaders(fl.V.GetStringMapString("headers"), "--header", append(lines, flags...))
}
