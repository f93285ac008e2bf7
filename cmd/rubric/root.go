package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/internal/nearest"
	"github.com/rubricmcp/rubric/internal/termtext"
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
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "rubric:", ee.msg)
		}
		return ee.code
	}
	msg := err.Error()
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
			return checkLogLevel(a.v.GetString("log-level"))
		},
	}
	root.PersistentFlags().String("config", "", "config file (default: ./rubric.yaml, then $XDG_CONFIG_HOME/rubric/rubric.yaml)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return fmt.Errorf("%w (see rubric --help)", err)
	})
	root.PersistentFlags().String("log-level", "warn", "log level of rubric and its plugins: off, error, warn, info, debug or trace")
	root.PersistentFlags().Duration("plugin-start-timeout", 10*time.Second, "longest wait for a plugin to start")
	root.AddCommand(a.scoreCmd(), a.rubricsCmd(), a.explainCmd(), a.rescoreCmd(), a.pluginsCmd(), a.cacheCmd(), a.gateCmd(), a.calibrateCmd())
	root.AddCommand(a.lockCmds()...)
	return root
}

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
	v.SetConfigType("yaml")
	if path, _ := cmd.Flags().GetString("config"); path != "" {
		return readConfig(cmd.Root(), v, path)
	}
	// Only rubric.yaml (or .yml) counts: viper's own search would also
	// take a file named plain "rubric", such as the binary itself.
	dirs := []string{"."}
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" {
		dirs = append(dirs, filepath.Join(dir, "rubric"))
	} else if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".config", "rubric"))
	}
	for _, dir := range dirs {
		for _, name := range []string{"rubric.yaml", "rubric.yml"} {
			path := filepath.Join(dir, name)
			if st, err := os.Stat(path); err != nil || st.IsDir() {
				continue
			}
			return readConfig(cmd.Root(), v, path)
		}
	}
	return nil
}

// configOnly are the config file's keys that no flag has.
var configOnly = []string{"headers", "plugins"}

// readConfig reads the config file at path into v and refuses a key that
// is neither a flag of any command nor a config-only key, naming the
// nearest valid one: a typo such as "rubrc: tdqs" would otherwise be
// ignored and the default run. Every other key v holds is a bound flag,
// so a key of v that no flag has came from the file.
func readConfig(root *cobra.Command, v *viper.Viper, path string) error {
	v.SetConfigFile(path)
	if err := v.ReadInConfig(); err != nil {
		return fmt.Errorf("read config %s: %w", path, err)
	}
	known := slices.Clone(configOnly)
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) { known = append(known, f.Name) })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { known = append(known, f.Name) })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, k := range slices.Sorted(maps.Keys(v.AllSettings())) {
		if slices.Contains(known, k) {
			continue
		}
		msg := fmt.Sprintf("config %s: unknown key %q", path, termtext.Printable(k))
		if near := nearest.Key(k, known); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return errors.New(msg + "; the keys are the long flags' names, plus headers and plugins")
	}
	return nil
}
