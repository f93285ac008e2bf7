package main

import (
	"fmt"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/plugins/host"
)

// logger returns the log that host messages and plugin stderr go to:
// standard error at --log-level. It is made once per invocation.
func (a *app) logger() hclog.Logger {
	if a.log == nil {
		a.log = hclog.New(&hclog.LoggerOptions{
			Name:        "rubric",
			Level:       hclog.LevelFromString(a.v.GetString("log-level")),
			Output:      redact.Writer(a.stderr, a.redactParams()...),
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
	pins := map[string]host.Pin{}
	if err := a.v.UnmarshalKey("plugins", &pins); err != nil {
		return nil, nil, fmt.Errorf("config: plugins: %w", err)
	}
	if err := a.local.CheckRun(a.v, host.PinEnv(pins)); err != nil {
		return nil, nil, err
	}
	return host.Open(builtins, pins, host.Options{Log: a.logger(), StartTimeout: a.v.GetDuration("plugin-start-timeout")})
}

// plugins are the catalog's plugins, started on a new host; the returned
// function ends them all.
func (a *app) plugins() (run.Plugins, func(), error) {
	h, c, err := a.newHost()
	if err != nil {
		return nil, nil, err
	}
	return host.Launcher{Host: h, Catalog: c}, h.Close, nil
}

func (a *app) pluginsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "List the judges and transports rubric can start",
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List built-in and installed plugins: kind, name, version, where, sha256",
		Long:  strings.ReplaceAll(help("plugins-list"), "{{dirs}}", strings.Join(host.DefaultDirs(), "\n  ")),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, c, err := a.newHost()
			if err != nil {
				return err
			}
			defer h.Close()
			failed, err := host.WriteList(a.stdout, a.stderr, h.List(cmd.Context(), c, builtins), a.v.GetBool("json"))
			if err != nil {
				return err
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
