package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/builtin"
	"github.com/rubricmcp/rubric/plugins/host"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// logger returns the log that host messages and plugin stderr go to:
// standard error at --log-level.
func (a *app) logger() hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{
		Name:        "rubric",
		Level:       hclog.LevelFromString(a.v.GetString("log-level")),
		Output:      a.stderr,
		DisableTime: true,
	})
}

// checkLogLevel refuses a level hclog would not know (it would silently
// log at info).
func checkLogLevel(level string) error {
	switch strings.ToLower(strings.TrimSpace(level)) {
	case "off", "error", "warn", "info", "debug", "trace":
		return nil
	}
	return fmt.Errorf("--log-level %q: use off, error, warn, info, debug or trace", level)
}

// catalog discovers the plugins: built-ins, the config's plugins.NAME
// entries and the plugin directories.
func (a *app) catalog() (*host.Catalog, error) {
	self, err := builtin.Self()
	if err != nil {
		return nil, err
	}
	pins := map[string]host.Pin{}
	if err := a.v.UnmarshalKey("plugins", &pins); err != nil {
		return nil, fmt.Errorf("config: plugins: %w", err)
	}
	c := host.Discover(builtin.Plugins(self), host.DefaultDirs(), pins)
	return c, nil
}

// newHost returns a plugin host and the catalog; the caller closes the host.
func (a *app) newHost() (*host.Host, *host.Catalog, error) {
	c, err := a.catalog()
	if err != nil {
		return nil, nil, err
	}
	log := a.logger()
	for _, w := range c.Warnings {
		log.Warn(w)
	}
	h := host.New(host.Options{Log: log, StartTimeout: a.v.GetDuration("plugin-start-timeout")})
	return h, c, nil
}

// targetFlags are the flags that say how to read a server.
func targetFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("transport", "", "how to read the target: file, registry, stdio, http, sse or an installed plugin (default: from the target)")
	f.StringArray("header", nil, "HTTP header NAME=VALUE for http and sse (repeatable)")
	f.StringArray("env", nil, "environment variable NAME=VALUE for a spawned server (repeatable)")
	f.String("cwd", "", "working directory of a spawned server")
	f.Duration("start-timeout", transport.DefaultStartTimeout, "longest wait from starting a server to its answer to initialize")
	f.Duration("request-timeout", transport.DefaultRequestTimeout, "longest wait for each later answer")
	f.String("max-bytes", "64MiB", "largest response (or file) read: bytes, or with KiB, MiB or GiB")
	f.Int("max-tools", transport.DefaultMaxTools, "most tools read from one server")
	f.String("judge", "", "judge plugin: a name or the path of an executable")
	f.String("model", "", "the model the judge must answer with")
}

// resolveTarget chooses the transport and builds the target from the
// arguments: "-- COMMAND ARGS..." spawns a server, a URL names an HTTP
// endpoint (or an installed transport by its scheme), anything else is a
// file.
func (a *app) resolveTarget(cmd *cobra.Command, args []string) (string, transport.Target, error) {
	v := a.v
	var t transport.Target
	name := v.GetString("transport")
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		if dash > 0 {
			return "", t, fmt.Errorf("give either a TARGET or -- COMMAND, not both (got %q before --)", strings.Join(args[:dash], " "))
		}
		if len(args) == 0 {
			return "", t, fmt.Errorf("nothing after --: give the command that starts the server, for example: rubric score -- npx -y @modelcontextprotocol/server-everything")
		}
		t.Location, t.Args = args[0], args[1:]
		if name == "" {
			name = "stdio"
		}
	} else {
		if len(args) != 1 {
			return "", t, fmt.Errorf("score takes one target, got %d (for example: rubric score tools.json, or rubric score -- COMMAND)", len(args))
		}
		t.Location = args[0]
		if name == "" {
			name = "file"
			if u, err := url.Parse(t.Location); err == nil && len(u.Scheme) > 1 && strings.Contains(t.Location, "://") {
				switch u.Scheme {
				case "http", "https":
					name = "http"
				default:
					name = u.Scheme
				}
			}
		}
	}
	t.Dir = v.GetString("cwd")
	var err error
	env, _ := cmd.Flags().GetStringArray("env")
	if t.Env, err = pairs("--env", env); err != nil {
		return "", t, err
	}
	if t.Headers, err = a.headers(cmd); err != nil {
		return "", t, err
	}
	maxBytes, err := parseSize(v.GetString("max-bytes"))
	if err != nil {
		return "", t, err
	}
	t.Limits = transport.Limits{
		StartTimeout:   v.GetDuration("start-timeout"),
		RequestTimeout: v.GetDuration("request-timeout"),
		MaxBytes:       maxBytes,
		MaxTools:       v.GetInt("max-tools"),
	}
	return name, t, nil
}

// headers merges the config's headers (values may name environment
// variables as ${NAME}, so secrets stay out of the file), RUBRIC_HEADER
// (NAME=VALUE lines) and --header flags, later ones winning.
func (a *app) headers(cmd *cobra.Command) (map[string]string, error) {
	// Names are canonicalised (viper lowercases the config's), so one
	// header given twice is one header, the later value winning.
	h := map[string]string{}
	for k, val := range a.v.GetStringMapString("headers") {
		h[http.CanonicalHeaderKey(k)] = os.ExpandEnv(val)
	}
	var lines []string
	if env := os.Getenv("RUBRIC_HEADER"); env != "" {
		lines = strings.Split(strings.TrimSpace(env), "\n")
	}
	flags, _ := cmd.Flags().GetStringArray("header")
	lines = append(lines, flags...)
	more, err := pairs("--header", lines)
	if err != nil {
		return nil, err
	}
	for k, val := range more {
		h[http.CanonicalHeaderKey(k)] = val
	}
	if len(h) == 0 {
		return nil, nil
	}
	return h, nil
}

// pairs parses NAME=VALUE items.
func pairs(flag string, items []string) (map[string]string, error) {
	if len(items) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, it := range items {
		k, val, ok := strings.Cut(it, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%s %q: want NAME=VALUE", flag, redact(it))
		}
		m[strings.TrimSpace(k)] = val
	}
	return m, nil
}

// redact keeps a malformed pair's first characters only: it may hold a
// secret.
func redact(s string) string {
	if len(s) > 12 {
		return s[:12] + "..."
	}
	return s
}

// parseSize reads "1048576", "64MiB", "512KiB", "1GiB" (also KB, MB, GB
// as powers of 1000).
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"B", 1}}
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(strings.ToUpper(t), strings.ToUpper(u.suffix)) && (u.suffix != "B" || !strings.ContainsAny(t[len(t)-2:len(t)-1], "KkMmGgIi")) {
			t = strings.TrimSpace(t[:len(t)-len(u.suffix)])
			mult = u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("--max-bytes %q: want a positive size such as 67108864, 64MiB or 1GiB", s)
	}
	return n * mult, nil
}

// openTransport starts the named transport plugin. When the target is a
// URL, the plugin must handle its scheme.
func openTransport(ctx context.Context, h *host.Host, c *host.Catalog, name string, t transport.Target) (*host.Transport, error) {
	p, err := c.Find(protocol.KindTransport, name)
	if err != nil {
		return nil, err
	}
	tr, err := h.Transport(ctx, p)
	if err != nil {
		return nil, err
	}
	if u, err := url.Parse(t.Location); err == nil && u.Scheme != "" && strings.Contains(t.Location, "://") && !tr.Handles(u.Scheme) {
		tr.Close()
		return nil, fmt.Errorf("the %s transport does not read %s:// targets (it reads: %s)", name, u.Scheme, strings.Join(tr.Info().Schemes, ", "))
	}
	return tr, nil
}

// startJudge starts and configures the judge named by --judge, if any.
func (a *app) startJudge(ctx context.Context, h *host.Host, c *host.Catalog) (*host.Judge, error) {
	ref := a.v.GetString("judge")
	if ref == "" {
		return nil, nil
	}
	p, err := c.Find(protocol.KindJudge, ref)
	if err != nil {
		return nil, err
	}
	return h.Judge(ctx, p, judge.Config{Model: a.v.GetString("model")})
}

func (a *app) pluginsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "List the judges and transports rubric can start",
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List built-in and installed plugins: kind, name, version, where, sha256",
		Long: `List shows every plugin rubric can start: the built-ins (served by the
rubric binary itself), the plugins named by path in the config
(plugins.NAME.path), and binaries named rubric-judge-NAME or
rubric-transport-NAME in the plugin directories:

  ` + strings.Join(host.DefaultDirs(), "\n  ") + `

External plugins are started once to ask their version. PIN says whether
the config pins the binary's sha256 (plugins.NAME.sha256) and whether the
file still matches.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, c, err := a.newHost()
			if err != nil {
				return err
			}
			defer h.Close()
			rows := listPlugins(cmd.Context(), h, c)
			if a.v.GetBool("json") {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			lines := [][]string{{"KIND", "NAME", "VERSION", "FROM", "PIN", "SHA256", "PATH"}}
			failed := 0
			for _, r := range rows {
				lines = append(lines, []string{r.Kind, r.Name, r.Version, r.From, r.Pin, shortHash(r.SHA256), r.Path})
				if r.Error != "" || r.Pin == "MISMATCH" {
					failed++
				}
			}
			table(a.stdout, "", "", lines)
			for _, r := range rows {
				switch {
				case r.Pin == "MISMATCH":
					fmt.Fprintf(a.stderr, "%s %s: its sha256 %s does not match the pin in plugins.%s.sha256\n", r.Kind, r.Name, r.SHA256, r.Name)
				case r.Error != "":
					fmt.Fprintf(a.stderr, "%s %s: %s\n", r.Kind, r.Name, r.Error)
				}
			}
			if failed > 0 {
				return &exitError{code: exitInvalid, msg: fmt.Sprintf("%d plugin(s) cannot be used", failed)}
			}
			return nil
		},
	}
	list.Flags().Bool("json", false, "print JSON")
	cmd.AddCommand(list)
	return cmd
}

// pluginRow is one line of rubric plugins list.
type pluginRow struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Version string `json:"version"`
	From    string `json:"from"`
	Path    string `json:"path"`
	SHA256  string `json:"sha256"`
	// Pin is "built-in", "pinned", "unpinned" or "MISMATCH".
	Pin     string   `json:"pin"`
	Schemes []string `json:"schemes,omitempty"`
	Error   string   `json:"error,omitempty"`
}

func listPlugins(ctx context.Context, h *host.Host, c *host.Catalog) []pluginRow {
	var rows []pluginRow
	for _, p := range c.Plugins {
		r := pluginRow{Kind: p.Kind, Name: p.Name, From: p.From, Path: p.Path}
		sum, err := host.FileSHA256(p.Path)
		if err != nil {
			r.Error = err.Error()
		}
		r.SHA256 = sum
		switch {
		case p.Builtin():
			r.Pin = "built-in"
		case p.SHA256 == "":
			r.Pin = "unpinned"
		case strings.EqualFold(p.SHA256, sum):
			r.Pin = "pinned"
		default:
			r.Pin = "MISMATCH"
		}
		if r.Pin != "MISMATCH" {
			if r.Version, r.Schemes, err = describe(ctx, h, p); err != nil {
				r.Version, r.Error = "?", err.Error()
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// describe starts an external plugin to ask its version.
func describe(ctx context.Context, h *host.Host, p host.Plugin) (string, []string, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if p.Kind == protocol.KindTransport {
		t, err := h.Transport(ctx, p)
		if err != nil {
			return "", nil, err
		}
		defer t.Close()
		return t.Info().Version, t.Info().Schemes, nil
	}
	j, err := h.Judge(ctx, p, judge.Config{})
	if err != nil {
		return "", nil, err
	}
	defer j.Close()
	id, _ := j.Identity(ctx)
	return id.Version, nil, nil
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
