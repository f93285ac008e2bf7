package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/builtin"
	"github.com/rubricmcp/rubric/plugins/host"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// logger returns the log that host messages and plugin stderr go to:
// standard error at --log-level. It is made once per invocation.
func (a *app) logger() hclog.Logger {
	if a.log == nil {
		a.log = hclog.New(&hclog.LoggerOptions{
			Name:        "rubric",
			Level:       hclog.LevelFromString(a.v.GetString("log-level")),
			Output:      a.stderr,
			DisableTime: true,
		})
	}
	return a.log
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

// newHost returns a plugin host and the catalog of plugins (built-ins,
// the config's plugins.NAME entries and the plugin directories); the
// caller closes the host.
func (a *app) newHost() (*host.Host, *host.Catalog, error) {
	self, err := builtin.Self()
	if err != nil {
		return nil, nil, err
	}
	pins := map[string]host.Pin{}
	if err := a.v.UnmarshalKey("plugins", &pins); err != nil {
		return nil, nil, fmt.Errorf("config: plugins: %w", err)
	}
	c := host.Discover(builtin.Plugins(self), host.DefaultDirs(), pins)
	log := a.logger()
	for _, w := range c.Warnings {
		log.Warn(w)
	}
	h := host.New(host.Options{Log: log, StartTimeout: a.v.GetDuration("plugin-start-timeout")})
	return h, c, nil
}

// export reads the target's surface with the named transport plugin,
// started for this alone. When the target is a URL, the plugin must
// handle its scheme.
func export(ctx context.Context, h *host.Host, c *host.Catalog, name string, t transport.Target) (*surface.Surface, error) {
	p, err := c.Find(protocol.KindTransport, name)
	if err != nil {
		return nil, err
	}
	tr, err := h.Transport(ctx, p)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	if s := scheme(t.Location); s != "" && !tr.Handles(s) {
		return nil, fmt.Errorf("the %s transport does not read %s:// targets (it reads: %s)", name, s, strings.Join(tr.Info().Schemes, ", "))
	}
	return tr.Export(ctx, t)
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
				lines = append(lines, []string{r.Kind, r.Name, r.Version, r.From, r.Pin, report.ShortHash(r.SHA256), r.Path})
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
	// Every built-in is the rubric binary: hash each file once.
	sums := map[string]string{}
	for _, p := range c.Plugins {
		r := pluginRow{Kind: p.Kind, Name: p.Name, From: p.From, Path: p.Path}
		sum, ok := sums[p.Path]
		if !ok {
			var err error
			if sum, err = host.FileSHA256(p.Path); err != nil {
				r.Error = err.Error()
			} else {
				sums[p.Path] = sum
			}
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
			var err error
			if r.Version, r.Schemes, err = describe(ctx, h, p); err != nil {
				r.Version, r.Error = "?", err.Error()
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// describe asks a plugin its version: a built-in in process, an external
// one by starting it.
func describe(ctx context.Context, h *host.Host, p host.Plugin) (string, []string, error) {
	if p.Builtin() {
		return builtin.Describe(ctx, p.Kind, p.Name)
	}
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
	id, err := h.DescribeJudge(ctx, p)
	if err != nil {
		return "", nil, err
	}
	return id.Version, nil, nil
}
