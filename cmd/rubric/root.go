package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/internal/redact"
)

// Exit codes.
const (
	exitOK      = 0
	exitBelow   = 1 // --fail-under was not met
	exitInvalid = 2 // usage or input error
)

// exitError carries an exit code other than exitInvalid.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// app is one invocation: its streams and its configuration.
type app struct {
	stdout, stderr io.Writer
	v              *viper.Viper
	log            hclog.Logger // made by logger, once
	// local is the config file found in the working directory, when
	// the user has not said it is trusted (see internal/localconfig).
	local *localconfig.Settings
	// sess is the run's scan session once it has one: an interrupted run
	// that received answers says where they are kept.
	sess *run.Session
}

func version() string { return buildinfo.Version() }

// execute runs the command line and returns the exit code.
// Standard input is the process's own: the file transport plugin, which
// reads "-", inherits it.
func execute(args []string, stdout, stderr io.Writer) int {
	a := &app{stdout: stdout, stderr: stderr, v: viper.New()}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// Ctrl-C or SIGTERM stops scoring between tools; nothing half-scored
	// is written.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := root.ExecuteContext(ctx)
	if ctx.Err() != nil && err != nil {
		if a.sess != nil && a.sess.Kept() {
			fmt.Fprintln(stderr, "rubric: interrupted; no report was written (the answers received so far are in the cache: run again to ask only the rest)")
		} else {
			fmt.Fprintln(stderr, "rubric: interrupted; no report was written")
		}
		return exitInvalid
	}
	if err == nil {
		return exitOK
	}
	// Messages quote URLs (a plugin's error, a failed request): their
	// credentials are left out.
	extra := a.redactParams()
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "rubric:", redact.Text(ee.msg, extra...))
		}
		return ee.code
	}
	msg := redact.Text(err.Error(), extra...)
	if strings.Contains(msg, "\n") {
		fmt.Fprintln(stderr, "rubric: "+strings.ReplaceAll(msg, "\n", "\n  "))
	} else {
		fmt.Fprintln(stderr, "rubric:", msg)
	}
	return exitInvalid
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "rubric",
		Short: "Grade the tool definitions of MCP servers against rubrics that are data",
		Long: `rubric grades what an MCP server shows a model (its tools' names,
descriptions and input schemas) against a rubric written in HCL with CEL
formulas. Scores are a pure function of the rubric and the recorded
observations, so any report can be explained and rescored.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.loadConfig(cmd); err != nil {
				return err
			}
			if err := setMaxFileSize(a.v); err != nil {
				return err
			}
			return checkLogLevel(a.v.GetString("log-level"))
		},
	}
	root.PersistentFlags().String("config", "", "config file (default: ./rubric.yaml, then $XDG_CONFIG_HOME/rubric/rubric.yaml)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return fmt.Errorf("%w (see rubric --help)", err)
	})
	root.PersistentFlags().String("log-level", "warn", "log level of rubric and its plugins: off, error, warn, info, debug or trace")
	root.PersistentFlags().Bool("trust-local-config", false, "let a rubric.yaml in the working directory choose where a credential is sent (judge base URL, api_key_env, claude-cli command, plugin env); read from this flag or RUBRIC_TRUST_LOCAL_CONFIG only")
	root.PersistentFlags().StringArray("redact-param", nil, "a URL query parameter whose value is left out of reports, messages and logs, beside token, key, secret, password, auth, sig and the like (repeatable)")
	root.PersistentFlags().Duration("plugin-start-timeout", 10*time.Second, "longest wait for a plugin to start")
	root.PersistentFlags().String("max-file-size", boundedread.Size(boundedread.DefaultMax), "largest file read whole (rubric, prompt, report, capture, record, answers, config): bytes, or with KiB, MiB or GiB")
	root.AddCommand(a.scoreCmd(), a.rubricsCmd(), a.explainCmd(), a.rescoreCmd(), a.pluginsCmd(), a.cacheCmd(), a.gateCmd(), a.calibrateCmd(), a.mcpCmd(), a.testCmd(), a.scanCmd())
	root.AddCommand(a.lockCmds()...)
	root.AddCommand(a.versionCmd(), a.githubCmd())
	return root
}

// redactParams are the --redact-param names (a config key as well).
func (a *app) redactParams() []string { return a.v.GetStringSlice("redact-param") }

// loadConfig sets up precedence: flag > RUBRIC_* environment > config file
// > default. Every flag of the command is bound under its own name.
func (a *app) loadConfig(cmd *cobra.Command) error {
	v := a.v
	v.SetEnvPrefix("RUBRIC")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))
	v.AutomaticEnv()
	if err := v.BindPFlags(cmd.Flags()); err != nil {
		return err
	}
	// The config file is read under the limit of the flag or environment.
	if err := setMaxFileSize(v); err != nil {
		return err
	}
	v.SetConfigType("yaml")
	if path, _ := cmd.Flags().GetString("config"); path != "" {
		return readConfig(cmd.Root(), v, path)
	}
	path, user, local := localconfig.Search()
	if path == "" {
		return nil
	}
	if err := readConfig(cmd.Root(), v, path); err != nil {
		return err
	}
	// A file in the working directory may not choose where a credential
	// goes (localconfig), unless it is the user's own.
	if trust, _ := cmd.Flags().GetBool("trust-local-config"); local {
		a.local = localconfig.Found(v, cmd.Flags().Changed, path, user, trust)
	}
	return nil
}

// setMaxFileSize sets the limit of every file read whole from
// --max-file-size.
func setMaxFileSize(v *viper.Viper) error {
	n, err := transport.ParseSize(v.GetString("max-file-size"))
	if err != nil {
		return fmt.Errorf("--max-file-size %w", err)
	}
	boundedread.SetLimit(n)
	return nil
}

// readConfig reads the config file at path into v and refuses a key
// that is neither a flag of any command nor a config-only key (see
// localconfig.Read).
func readConfig(root *cobra.Command, v *viper.Viper, path string) error {
	var known []string
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) { known = append(known, f.Name) })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { known = append(known, f.Name) })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return localconfig.Read(v, path, known)
}
