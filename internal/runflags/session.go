package runflags

import (
	"context"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/clientconfig"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/judge/panel"
	"github.com/rubricmcp/rubric/engine/mcpserver"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/plugins/host"
	"github.com/rubricmcp/rubric/plugins/protocol"
	"github.com/rubricmcp/rubric/rubrics"
)

// Logger returns the log that host messages and plugin stderr go to:
// stderr at --log-level, with the credentials of URLs left out
// (--redact-param), and the secrets --config-file's entries take from
// the environment (a server's stderr at debug level may echo its
// command line). hidden, when not nil, is a set of secrets the run adds
// to as it learns them (a scan's servers', a command line's), which the
// log hides from then on; the configuration's are added to it.
func Logger(v *viper.Viper, stderr io.Writer, hidden *redact.Hidden) hclog.Logger {
	if hidden == nil {
		hidden = &redact.Hidden{}
	}
	out := hidden.Writer(redact.Writer(stderr, localconfig.List(v, "redact-param")...))
	if path := v.GetString("config-file"); path != "" {
		// Read again when the run reads it; a file that does not read
		// has no secrets to hide, and its error comes then.
		format, _ := clientconfig.ParseFormat(v.GetString("config-format"))
		if f, err := clientconfig.Read(context.Background(), path, clientconfig.Options{Format: format}); err == nil {
			hidden.Add(f.Secrets()...)
		}
	}
	return hclog.New(&hclog.LoggerOptions{
		Name:        "rubric",
		Level:       hclog.LevelFromString(v.GetString("log-level")),
		Output:      out,
		DisableTime: true,
	})
}

// CheckLogLevel refuses a level hclog would not know (it would silently
// log at info).
func CheckLogLevel(level string) error {
	switch strings.ToLower(strings.TrimSpace(level)) {
	case "off", "error", "warn", "info", "debug", "trace":
		return nil
	}
	return fmt.Errorf("--log-level %q: use off, error, warn, info, debug or trace", level)
}

// Host is what starting plugins takes: the settings (the config's
// plugins.NAME entries, --plugin-start-timeout, --judge-timeout,
// --export-timeout), the built-in plugins
// and the log.
type Host struct {
	V *viper.Viper
	// Local is the config file found in the working directory, when
	// not trusted: it may not pass a plugin environment variables.
	Local *localconfig.Settings
	// TrustLocal is the user's consent to the working directory's
	// config and plugins (see localconfig.Trusted).
	TrustLocal bool
	Builtins   []protocol.Builtin
	Log        hclog.Logger
	// Batches says the command has --batch (score, calibrate): its
	// sessions refuse to ask again the questions of a batch left running
	// (see run.Options.RefusePendingBatch).
	Batches bool
	// Early, when set, is the plugin host opened before the session,
	// with a transport started on it (see StartEarly): the session
	// starts its plugins there.
	Early *Early
	// Hidden, when set, is the secrets the log hides (see Logger): a
	// scanner adds each job's as the job starts.
	Hidden *redact.Hidden
	// Guard, when set, vets every external plugin before it may start
	// (host.Catalog.Guard): rubric gate's refusal of a program the
	// change brings.
	Guard func(host.Plugin) (host.Plugin, error)
}

// Open returns a plugin host and the catalog of plugins (built-ins, the
// config's plugins.NAME entries and the plugin directories); the caller
// closes the host.
func (h Host) Open() (*host.Host, *host.Catalog, error) {
	pins := map[string]host.Pin{}
	if err := h.V.UnmarshalKey("plugins", &pins); err != nil {
		return nil, nil, fmt.Errorf("config: plugins: %w", err)
	}
	if err := h.Local.CheckRun(h.V, host.PinEnv(pins)); err != nil {
		return nil, nil, err
	}
	hst, c, err := host.Open(h.Builtins, configRelative(pins, h.V.ConfigFileUsed()), host.Options{
		Log:           h.Log,
		StartTimeout:  h.V.GetDuration("plugin-start-timeout"),
		JudgeTimeout:  h.V.GetDuration(host.JudgeTimeoutSetting),
		ExportTimeout: h.V.GetDuration(host.ExportTimeoutSetting),
		TrustLocal:    h.TrustLocal,
	})
	if err != nil {
		return nil, nil, err
	}
	if h.Guard != nil {
		c.Guard(h.Guard)
	}
	if err := h.checkPrograms(c, pins); err != nil {
		hst.Close()
		return nil, nil, err
	}
	return hst, c, nil
}

// checkPrograms refuses the plugins the working directory's config
// would have rubric start, when the user has not said to trust it: a
// plugins entry's path, and a judge or transport of the file's that is
// not built in (a path, or a plugin found in ./.rubric/plugins). A
// repository's rubric.yaml would otherwise run its own program as the
// user who only meant to score a file in it. Plugins the user names
// with a flag or the environment start as before.
func (h Host) checkPrograms(c *host.Catalog, pins map[string]host.Pin) error {
	if h.Local == nil {
		return nil
	}
	if h.Local.FromFile["plugins"] {
		for _, name := range slices.Sorted(maps.Keys(pins)) {
			if p := pins[name].Path; p != "" {
				return h.Local.RefuseProgram(fmt.Sprintf("plugins.%s.path %s", name, p), "plugins in your own config")
			}
		}
	}
	for _, kind := range []string{protocol.KindJudge, protocol.KindTransport} {
		ref := h.V.GetString(kind)
		if ref == "" || !h.Local.FromFile[kind] {
			continue
		}
		refs, ok := panel.Members(ref)
		if !ok {
			refs = []string{ref}
		}
		for _, r := range refs {
			name, _ := judge.SplitRef(r)
			if kind == protocol.KindTransport {
				name = r
			}
			p, err := c.Find(kind, name)
			if err != nil || p.Builtin() {
				continue // a name nothing answers to fails later, as from a flag
			}
			return h.Local.RefuseProgram(fmt.Sprintf("%s %s, the %s plugin %s", kind, r, kind, p.Path), "--"+kind)
		}
	}
	return nil
}

// Plugins are the catalog's plugins, started on a new host; the
// returned function ends them all.
func (h Host) Plugins() (run.Plugins, func(), error) {
	if h.Early != nil {
		return h.Early, h.Early.Close, nil
	}
	hst, c, err := h.Open()
	if err != nil {
		return nil, nil, err
	}
	return host.Launcher{Host: hst, Catalog: c}, hst.Close, nil
}

// Options are the run options every scan takes from the settings:
// --workers, the version reports name, the log, --redact-param and
// --config-file.
func (h Host) Options() run.Options {
	return run.Options{Workers: h.V.GetInt("workers"), Version: buildinfo.Version(), Log: h.Log, RedactParams: localconfig.List(h.V, "redact-param"), ConfigFile: h.V.GetString("config-file")}
}

// SessionOptions are the options of a session of the settings, with the
// plugins started; judging says the command has the judge flags (see
// Judging), whose progress bar goes to stderr. The returned function
// ends the plugins.
func (h Host) SessionOptions(judging bool, stderr io.Writer) (run.Options, func(), error) {
	plugins, closeHost, err := h.Plugins()
	if err != nil {
		return run.Options{}, nil, err
	}
	o := h.Options()
	o.Plugins = plugins
	o.RefusePendingBatch = h.Batches
	if judging {
		if err := Judging(h.V, &o, stderr); err != nil {
			closeHost()
			return run.Options{}, nil, err
		}
	}
	if h.Batches {
		// Only a command with --batch reads it: RUBRIC_BATCH, or a
		// config's batch: meant for score, turned a scan (which has no
		// --batch-poll either) into a refusal of a poll of 0s.
		if o.Batch, o.BatchPoll = h.V.GetBool("batch"), h.V.GetDuration("batch-poll"); o.Batch && o.BatchPoll <= 0 {
			closeHost()
			return run.Options{}, nil, fmt.Errorf("--batch-poll %s: wait a while between two looks at a batch", o.BatchPoll)
		}
	}
	return o, closeHost, nil
}

// Session starts the plugins and a scan session of the settings (see
// SessionOptions). Closing it ends the judge and every plugin.
func (h Host) Session(judging bool, stderr io.Writer) (*run.Session, func(), error) {
	o, closeHost, err := h.SessionOptions(judging, stderr)
	if err != nil {
		return nil, nil, err
	}
	s := run.New(o)
	return s, func() { s.Close(); closeHost() }, nil
}

// PinnedSession starts a session whose judge is ref, a plugin or a
// panel of them, as a calibration record names it: the config must pin
// each one's binary, and the session takes its answers unpinned, since
// run.CheckCalibration compares the judge's identity with the record's
// itself. Its type is what run.CheckCalibration starts judges with.
func (h Host) PinnedSession(ref string, cfg judge.Config) (*run.Session, func(), error) {
	hst, c, err := h.Open()
	if err != nil {
		return nil, nil, err
	}
	refs := []string{ref}
	if members, ok := panel.Members(ref); ok {
		refs = members
	}
	for _, m := range refs {
		if _, err := c.FindPinned(protocol.KindJudge, m); err != nil {
			hst.Close()
			return nil, nil, fmt.Errorf("the record's judge: %w", err)
		}
	}
	sess := run.New(run.Options{Plugins: host.Launcher{Host: hst, Catalog: c}, Judge: ref, JudgeConfig: cfg, Unpinned: true, Version: buildinfo.Version(), Log: h.Log})
	return sess, func() { sess.Close(); hst.Close() }, nil
}

// MCPServer is the server of rubric mcp's flags (--max-calls,
// --max-reports), on plugins h starts, reading targets with the limits
// of the target flags and scoring with defaultRubric unless a call names
// another; done ends it and its plugins. Without an answer cache it
// warns and asks afresh.
func (fl Flags) MCPServer(h Host, defaultRubric string) (srv *mcpserver.Server, done func(), err error) {
	calls, reports := h.V.GetInt("max-calls"), h.V.GetInt("max-reports")
	if calls < 1 || reports < 1 {
		return nil, nil, fmt.Errorf("--max-calls and --max-reports must be at least 1 (got %d and %d)", calls, reports)
	}
	if fl.Cmd.Flags().Changed("transport") {
		// Each call's target says how it is read; the flag was taken
		// and ignored, so that --transport sse read a URL as streamable
		// HTTP all the same.
		return nil, nil, fmt.Errorf("--transport does not apply to rubric mcp: each score call's target says how the server is read (command over stdio, url over streamable HTTP, file or tools); leave --transport out")
	}
	_, base, err := fl.Build("", nil)
	if err != nil {
		return nil, nil, err
	}
	plugins, closeHost, err := h.Plugins()
	if err != nil {
		return nil, nil, err
	}
	o := mcpserver.Options{
		Run:    run.Options{Plugins: plugins, Version: buildinfo.Version(), Log: h.Log},
		Target: base, DefaultRubric: defaultRubric, Lint: rubrics.Lint,
		Rubrics:    mcpserver.Rubrics{Find: rubrics.FindContext, Source: rubrics.Source, Builtins: rubrics.Names()},
		MaxReports: reports, MaxCalls: calls,
	}
	if o.Run.Cache, err = cache.Open(h.V.GetString("cache-dir")); err != nil {
		h.Log.Warn("no answer cache", "error", err)
	}
	srv = mcpserver.New(o)
	return srv, func() { srv.Close(); closeHost() }, nil
}

// configRelative returns pins with each relative plugins.NAME.path made
// relative to the directory of the config file that gave it (file), as a
// team's config is read from wherever rubric runs (a user config,
// --config), not relative to the working directory of the moment.
func configRelative(pins map[string]host.Pin, file string) map[string]host.Pin {
	dir, err := filepath.Abs(filepath.Dir(file))
	if file == "" || err != nil {
		return pins
	}
	out := make(map[string]host.Pin, len(pins))
	for name, p := range pins {
		if p.Path != "" && !filepath.IsAbs(p.Path) {
			p.Path = filepath.Join(dir, p.Path)
		}
		out[name] = p
	}
	return out
}
