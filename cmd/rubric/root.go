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

	"github.com/rubricmcp/rubric/internal/hugepages"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/internal/runflags"
	"github.com/rubricmcp/rubric/plugins/host"
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
	// trustLocal says the user consents to the working directory's
	// config and plugins (--trust-local-config, RUBRIC_TRUST_LOCAL_CONFIG).
	trustLocal bool
	// sess is the run's scan session once it has one: an interrupted run
	// that received answers says where they are kept.
	sess  *run.Session
	early *runflags.Early // the transport a score starts early
	// batches says the command has --batch (see runflags.Host.Batches).
	batches bool
	// spent is what a calibration's judge calls cost, when priced.
	spent *report.Cost
	// gateReported says that rubric gate wrote its report, or must not:
	// an error of a gate that did not is written as an INVALID report
	// (gateUsageReport).
	gateReported bool
	// hidden are the secrets the log hides (runflags.Logger): the
	// configuration's, a scan's servers' as each starts, a command
	// line's.
	hidden redact.Hidden
	// pluginGuard, under rubric gate, keeps the plugins the change
	// brings into the work tree from starting (gate_plugins.go).
	pluginGuard *pluginGuard
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
	ctx, stop := notifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd, err := root.ExecuteContextC(ctx)
	if ctx.Err() != nil && err != nil {
		// A scan says itself what its interruption left, and how to
		// resume it.
		if st := (*stoppedScan)(nil); errors.As(err, &st) {
			fmt.Fprintln(stderr, "rubric:", st.msg)
			return exitInvalid
		}
		msg := "rubric: interrupted"
		if w := unwritten(cmd); w != "" {
			msg += "; " + w
		}
		if sc := (*run.StoppedCalibration)(nil); errors.As(err, &sc) {
			// A calibration is taken up by its mark, not the cache alone.
			fmt.Fprintf(stderr, "rubric: interrupted; no calibration was written: the same command run again takes it up where it stopped, asking only what was not answered (%s keeps its place; remove it to start afresh)\n", sc.Mark)
			return exitInvalid
		}
		if f := (*run.Failure)(nil); errors.As(err, &f) && f.Written() != "" {
			msg += "; what was done is in " + f.Written()
		}
		if a.sess != nil && a.sess.Kept() {
			msg += " (the answers received so far are in the cache: run again to ask only the rest)"
		}
		fmt.Fprintln(stderr, msg)
		return exitInvalid
	}
	err = lostOutput(stdout, err)
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
	msg := err.Error()
	if cmd != nil {
		// A bad value from rubric.yaml or RUBRIC_*: named there, not
		// as a flag that was never given.
		var ve *localconfig.ValueError
		key := ""
		if errors.As(err, &ve) {
			key = ve.Key
		}
		msg = localconfig.Blame(a.v, cmd.Flags(), key, msg)
	}
	// A run that stopped names its failure record, as an interrupted
	// one does.
	if f := (*run.Failure)(nil); errors.As(err, &f) && f.Written() != "" && !strings.Contains(msg, f.Written()) {
		msg += "; " + f.Written() + " records where it stopped and what was done"
	}
	// A read limit the server passed names the flag that sets it, as a
	// scan's failure does: "no answer to tools/list within 1s" named
	// none.
	msg = transport.LimitAdvice(redact.Text(msg, extra...))
	a.gateUsageReport(cmd, args, msg)
	if strings.Contains(msg, "\n") {
		fmt.Fprintln(stderr, "rubric: "+indentLines(msg))
	} else {
		fmt.Fprintln(stderr, "rubric:", msg)
	}
	return exitInvalid
}

// lostOutput is the error of a command whose output stdout could not
// take (> /dev/full): a command that wrote it without looking at each
// write's error (fmt.Fprintf, a tabwriter's Flush) exits 2 with the
// write's error, as one that returned it does, not 0 with its result
// lost. An error of the command's own is kept, unless it only set the
// exit status with the result (1 below --fail-under, a lock that
// differs) or left its message to stdout: that result is lost, and the
// write's error says why. stdout is runflags.Stdout, which remembers
// its first error (Err); other writers (a test's buffer) do not fail.
func lostOutput(stdout io.Writer, err error) error {
	s, ok := stdout.(interface{ Err() error })
	if !ok {
		return err
	}
	werr := s.Err()
	if werr == nil {
		return err
	}
	var ee *exitError
	if err == nil || errors.As(err, &ee) && (ee.code != exitInvalid || ee.msg == "") {
		return werr
	}
	return err
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "rubric",
		Short:         "Grade the tool definitions of MCP servers against rubrics that are data",
		Long:          help("rubric"),
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Annotations[groupAnnotation] != "" {
				// rubric or a group given no command prints its help,
				// which reads no configuration.
				return nil
			}
			// A RUBRIC_* value viper would misread is refused by
			// name before anything reads it.
			if err := localconfig.CheckEnv(cmd.Flags(), os.Getenv); err != nil {
				return err
			}
			if cmd.Annotations[noConfigAnnotation] != "" {
				// The commands marked so (the Action's steps that read
				// GitHub's variables, version) read no config file: a
				// rubric.yaml rubric refuses must not stop them. Their
				// flags and RUBRIC_* variables still hold.
				if err := localconfig.LoadFlags(a.v, cmd); err != nil {
					return err
				}
				return runflags.CheckLogLevel(a.v.GetString("log-level"))
			}
			adviseHuge(cmd)
			// A credential on a server's command line (-- server
			// --token VALUE) is hidden from the log from the start: a
			// server may be started before its target is read.
			a.hidden.Add(redact.ArgSecrets(args)...)
			var err error
			if a.local, err = localconfig.Load(a.v, cmd); err != nil {
				return err
			}
			flag, _ := cmd.Flags().GetBool("trust-local-config")
			a.trustLocal = localconfig.Trusted(flag)
			if err := localconfig.SetMaxFileSize(a.v); err != nil {
				return err
			}
			if err := runflags.CheckCounts(a.v, cmd); err != nil {
				return err
			}
			if err := runflags.CheckDurations(a.v, cmd); err != nil {
				return err
			}
			if err := runflags.CheckDash(a.v, cmd); err != nil {
				return err
			}
			return runflags.CheckLogLevel(a.v.GetString("log-level"))
		},
	}
	root.PersistentFlags().String("config", "", "config file (default: ./rubric.yaml, then $XDG_CONFIG_HOME/rubric/rubric.yaml)")
	root.SetFlagErrorFunc(flagError)
	root.PersistentFlags().String("log-level", "warn", "log level of rubric and its plugins: off, error, warn, info, debug or trace")
	root.PersistentFlags().Bool("trust-local-config", false, "let a rubric.yaml in the working directory choose where a credential is sent (judge base URL, api_key_env, claude-cli command, plugin env) or a plugin to start, and plugins list start the plugins in ./.rubric/plugins; read from this flag or RUBRIC_TRUST_LOCAL_CONFIG only")
	root.PersistentFlags().StringArray("redact-param", nil, "a URL query parameter whose value is left out of reports, messages and logs, beside token, key, secret, password, auth, sig and the like (repeatable; RUBRIC_REDACT_PARAM=a,b gives two)")
	root.PersistentFlags().Duration(host.StartTimeoutSetting, host.DefaultStartTimeout, "longest wait for a plugin to start")
	root.PersistentFlags().Duration(host.JudgeTimeoutSetting, host.DefaultJudgeTimeout, "longest wait for a judge plugin to answer one call (a question, a batch's submission, poll or collection); past it the judge is taken for broken, as if it had crashed (score ends with exit 2, a scan fails that server), keeping the answers received. Keep it above the judge's own timeout (--judge-option timeout=DURATION)")
	root.PersistentFlags().Duration(host.ExportTimeoutSetting, host.DefaultExportTimeout, "longest wait for a transport plugin to read one target, from the server's start to its last page; past it the read fails (score ends with exit 2, a scan fails that server)")
	root.PersistentFlags().String("max-file-size", boundedread.Size(boundedread.DefaultMax), "largest file read whole (rubric, prompt, report, calibration record and its registry capture, answers, config; a tools/list file to score is held to --max-bytes): bytes, or with KiB, MiB or GiB")
	root.AddCommand(a.scoreCmd(), a.rubricsCmd(), a.explainCmd(), a.rescoreCmd(), a.pluginsCmd(), a.cacheCmd(), a.gateCmd(), a.calibrateCmd(), a.mcpCmd(), a.testCmd(), a.scanCmd())
	root.AddCommand(a.lockCmds()...)
	root.AddCommand(a.versionCmd(), a.githubCmd())
	// cobra adds help and completion as the command line runs, where
	// refuseUnknown would not see them: completion, a group, printed its
	// help and exited 0 for a shell it does not know.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	strictHelp(root)
	refuseUnknown(root)
	// rubric itself refuses an unknown command as its groups do, pointing
	// at its help: cobra's own refusal (rubric scroe) pointed nowhere.
	root.Args = unknownCommand
	root.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	root.Annotations = map[string]string{groupAnnotation: "true"}
	hintArgs(root)
	return root
}

// strictHelp makes rubric help refuse a topic that names no command
// (rubric help scroe), which cobra answered with the root's usage and
// exit 0, as if it had been asked for.
func strictHelp(root *cobra.Command) {
	for _, c := range root.Commands() {
		if c.Name() != "help" {
			continue
		}
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			if found, rest, err := root.Find(args); err == nil && found != nil && len(rest) == 0 {
				return nil
			}
			return fmt.Errorf("unknown help topic %q: name a command (see rubric --help)", strings.Join(args, " "))
		}
	}
}

// hintArgs ends the argument errors of every command that does work of
// its own with where its usage is (see rubric CMD --help), as flag
// errors end, when the message gives neither that nor an example.
func hintArgs(c *cobra.Command) {
	for _, sub := range c.Commands() {
		hintArgs(sub)
	}
	if c.Args == nil || c.Annotations[groupAnnotation] != "" {
		return
	}
	check := c.Args
	c.Args = func(cmd *cobra.Command, args []string) error {
		err := check(cmd, args)
		if err == nil || strings.Contains(err.Error(), "--help") || strings.Contains(err.Error(), "for example") {
			return err
		}
		return fmt.Errorf("%w (see %s --help)", err, cmd.CommandPath())
	}
}

// scoring names the commands that score servers, whose heap grows with
// the tools they read to hundreds of megabytes at a few thousand tools.
var scoring = map[string]bool{"score": true, "scan": true, "gate": true, "calibrate": true, "rescore": true}

// adviseHuge backs the heap a scoring command is about to grow with huge
// pages where the system leaves them to each program (hugepages.Advise):
// at 5,000 TDQS tools, a quarter less CPU, most of it the page faults of
// first touches (bench/README.md). It runs before the command reads
// anything, while the heap is small, and is left out of the commands
// that read little, whose start it would only slow.
func adviseHuge(cmd *cobra.Command) {
	for cmd.HasParent() && cmd.Parent().HasParent() {
		cmd = cmd.Parent()
	}
	if scoring[cmd.Name()] {
		hugepages.Advise()
	}
}

// refuseUnknown makes every command group under root (a command with
// subcommands and no work of its own) refuse an argument that names none
// of them, as the root does: cobra prints a group's help for anything
// after it and exits 0, so a typo, or a subcommand of a newer version,
// looked like success. Given nothing, a group still prints its help.
func refuseUnknown(root *cobra.Command) {
	for _, c := range root.Commands() {
		refuseUnknown(c)
		if !c.HasSubCommands() || c.Runnable() {
			continue
		}
		c.Args = unknownCommand
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations[groupAnnotation] = "true"
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
}

// flagError is a flag cobra could not parse, pointing at the help of
// the command it was given to (whose flags it lists), and, for a flag
// of another command that this one does without (score's given to the
// gate, --batch given to a scan), at what it does instead.
func flagError(cmd *cobra.Command, err error) error {
	if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
		if hint, ok := flagsInstead[cmd.CommandPath()][name]; ok {
			return fmt.Errorf("%w: %s (see %s --help)", err, hint, cmd.CommandPath())
		}
	}
	return fmt.Errorf("%w (see %s --help)", err, cmd.CommandPath())
}

// flagsInstead says, by command, what it does in place of a flag of
// another command that it does not take.
var flagsInstead = map[string]map[string]string{
	"rubric gate":        gateInstead,
	"rubric scan":        scanInstead,
	"rubric scan worker": scanInstead,
}

// scanInstead says, for the flags of score and calibrate that a scan
// and its workers do not take, how a scan does without them: a scan
// runs a session per server at once, and asks its judge a call at a
// time.
var scanInstead = func() map[string]string {
	batch := "--batch belongs to rubric score and rubric calibrate, which ask one run's questions through the provider's batch API; a scan asks its judge a call at a time, and --judge-rate N/min paces those calls (one limit per judge model, shared by every worker on the queue): leave --batch out, or score one server at the batch price with rubric score --batch"
	return map[string]string{"batch": batch, "batch-poll": batch}
}()

// unwritten says what an interrupted command did not write: a lock
// file for rubric lock, a verdict for rubric verify, nothing for the
// commands that only print (rubrics show, digest, diff), else a report.
func unwritten(cmd *cobra.Command) string {
	if cmd != nil {
		switch cmd.Name() {
		case "lock":
			return "no lock file was written"
		case "verify":
			return "no verdict was written"
		}
		if p := cmd.Parent(); p != nil && p.Name() == "rubrics" {
			return ""
		}
	}
	return "no report was written"
}

// signalled is the cause of a context a signal ended: which signal, for
// a message that names it.
type signalled struct{ sig os.Signal }

func (s signalled) Error() string { return s.sig.String() + " signal received" }

// notifyContext is signal.NotifyContext whose context's cause
// (context.Cause) is a signalled naming the signal: after the first,
// the signals stay caught until stop.
func notifyContext(parent context.Context, sigs ...os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	go func() {
		select {
		case s := <-ch:
			cancel(signalled{s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		cancel(nil)
		signal.Stop(ch)
	}
}

// signalName names the signal that ended ctx ("SIGTERM", "SIGINT"), or
// says that ctx was stopped when no signal did.
func signalName(ctx context.Context) string {
	var s signalled
	if !errors.As(context.Cause(ctx), &s) {
		return "a stop"
	}
	switch s.sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.sig.String()
}

// gateInstead says, for each flag of score that rubric gate does not
// take, what the gate does in its place: a team moving a score step to
// the gate reaches for them first.
var gateInstead = func() map[string]string {
	files := "the gate writes gate.json and gate.md to --report-dir (and --html); for this format of the head's score, run rubric score with it in a step of its own"
	m := map[string]string{
		"fail-under": "the gate has no floor: it compares the head with the base by the rubric's gate block (rubric rubrics show NAME prints it) and BLOCKs a drop; for a floor, run rubric score --fail-under in a step of its own",
	}
	for _, f := range []string{"sarif", "sarif-category", "junit", "gitlab", "markdown", "json", "out", "format", "badge"} {
		m[f] = files
	}
	return m
}()

// indentLines indents every line of msg after the first by two spaces,
// leaving an empty line empty: indented, the blank line before "Did you
// mean this?" ended in spaces.
func indentLines(msg string) string {
	lines := strings.Split(msg, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "" {
			lines[i] = ""
		} else {
			lines[i] = "  " + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// groupAnnotation marks a command group refuseUnknown has seen to.
const groupAnnotation = "rubric/group"

// noConfigAnnotation marks a command that reads no config file
// (rubric.yaml): its flags and RUBRIC_* variables alone.
const noConfigAnnotation = "rubric/noconfig"

// unknownCommand refuses any argument to a command group, naming the
// group and the subcommands the argument may have meant.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q (see %s --help)", args[0], cmd.CommandPath(), cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's own default for the root
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	}
	return errors.New(msg)
}

// noArgs refuses arguments to a command that takes none: cobra.NoArgs
// calls an extra argument an unknown command.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("%s takes no arguments, got %q", strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" "), args[0])
	}
	return nil
}

// redactParams are the --redact-param names (a config key as well).
func (a *app) redactParams() []string { return localconfig.List(a.v, "redact-param") }
