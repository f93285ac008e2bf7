package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/report/html"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/internal/runflags"
	"github.com/rubricmcp/rubric/rubrics"
)

// defaultReportDir is where the gate writes gate.json and gate.md.
const defaultReportDir = ".rubric"

func (a *app) gateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "gate --base REV [flags] -- COMMAND [ARGS...] | TARGET",
		Short:   "Compare a base's tool definitions with the head's: PASS, BLOCK or INVALID",
		Long:    help("gate"),
		Example: help("gate-example"),
		RunE:    a.runGate,
	}
	f := cmd.Flags()
	f.String("rubric", defaultRubric, "built-in rubric name or path of a .hcl file")
	f.String("base", "", "the revision to compare against, such as origin/main")
	f.String("head", "", "the head revision (default: the working tree)")
	f.String("report-dir", defaultReportDir, "the folder gate.json and gate.md are written to")
	runflags.Folder(f, "report-dir")
	f.String("html", "", "also write the gate as one HTML page (changed tools side by side, with a line diff) to this file")
	f.String("check", "", "check a saved gate.json against today's exports instead of scoring")
	f.Int("workers", 0, "tools scored in parallel (0: one per CPU)")
	f.Bool("fail-on-breaking", false, "block on a breaking change to the tools' contract, whatever the quality says")
	f.String("lock", "", "block when the head's tools differ from this lock file (rubric lock)")
	runflags.AddTarget(cmd)
	runflags.AddJudge(cmd)
	return cmd
}

func (a *app) runGate(cmd *cobra.Command, args []string) error {
	v := a.v
	if v.GetString("record") != "" {
		return fmt.Errorf("--record is for rubric score: the gate scores each side more than once")
	}
	var saved *gate.Report
	if path := v.GetString("check"); path != "" {
		if v.GetString("html") != "" {
			return fmt.Errorf("--html is for the gate that writes the report: --check compares a saved report with today's exports and writes nothing")
		}
		if cmd.Flags().Changed("fail-on-breaking") {
			return fmt.Errorf("--fail-on-breaking is for the gate that decides: --check compares a saved report with today's exports, and its decision stands as it was made, under the policy it records; run the gate again (without --check) to decide under another")
		}
		var err error
		if saved, err = gate.Read(path); err != nil {
			return err
		}
	}
	// --check compares with the rubric the report names unless --rubric
	// names another.
	ref := v.GetString("rubric")
	if saved != nil && !cmd.Flags().Changed("rubric") {
		ref = cmp.Or(saved.Rubric.File, saved.Rubric.Name)
	}
	r, err := rubrics.FindContext(cmd.Context(), ref)
	if err != nil && ref == v.GetString("rubric") {
		return &localconfig.ValueError{Key: "rubric", Err: err}
	}
	if err != nil {
		return err
	}
	if err := refuseLocalRevisions(v, cmd.Flags()); err != nil {
		return err
	}
	g := run.GateRun{Base: v.GetString("base"), Head: v.GetString("head"), Saved: saved, FailOnBreaking: v.GetBool("fail-on-breaking"),
		CheckJudge: v.GetString("judge") != "" || v.GetString("model") != "", Lock: v.GetString("lock")}
	if saved != nil {
		g.Base = cmp.Or(g.Base, saved.Base.Commit)
		g.Head = cmp.Or(g.Head, saved.Head.Commit)
	}
	// The outputs are checked before anything runs: a gate decided and
	// then unable to write its report would leave CI without either.
	inputs := []run.Flagged{{Flag: "--rubric", Path: r.File}, {Flag: "--lock", Path: g.Lock}, {Flag: "--check", Path: v.GetString("check")}, {Flag: "--config", Path: v.ConfigFileUsed()}}
	if err := run.CheckOutputs(inputs, a.gateOutputs(saved == nil), run.Flagged{}); err != nil {
		a.gateReported = true // the report's own place is what is wrong
		return err
	}
	// From here on a failure is INVALID, with its report written (but
	// not for --check) like any other, so CI shows why.
	ctx := cmd.Context()
	rep := gate.New(r, gate.Side{Rev: g.Base}, gate.Side{Rev: g.Head}, version())
	invalid := func(err error) error { return a.finishGate(ctx, rep, nil, saved == nil, rep.Fail(err)) }
	tname, target, err := a.flags(cmd).Target(args)
	if err != nil {
		return invalid(err)
	}
	if err := run.CheckOutputs([]run.Flagged{{Flag: "the target", Path: target.Location}}, a.gateOutputs(saved == nil), run.Flagged{}); err != nil {
		a.gateReported = true // writing the report would replace the target
		return err
	}
	// The plugins the session starts are the base's, when the head's
	// config file of the repository points a name at another program
	// (gate_plugins.go).
	if saved == nil {
		if g.PluginChange, err = a.basePlugins(ctx, g.Base); err != nil {
			return invalid(err)
		}
	}
	// Nor does a plugin of the work tree start that the base does not
	// have as it is (pluginGuard).
	a.pluginGuard = newPluginGuard(ctx, g.Base)
	sess, done, err := a.session(true)
	if err != nil {
		return invalid(err)
	}
	defer done()
	if err := a.noteUnusedJudge(cmd, sess, r, true); err != nil {
		return invalid(err)
	}
	g.Source = run.Source{Transport: tname, Target: target}
	// A rubric of the repository is read from each side: the base's
	// scores both (gate_rubric.go).
	fromConfig := saved == nil && !cmd.Flags().Changed("rubric") && !localconfig.EnvGives("rubric")
	if sr := a.newGateRubrics(r, ref, fromConfig); sr != nil {
		g.Rubrics = sr
	}
	// So are the judge settings no flag or variable gives: the base's
	// answer both sides (gate_judge.go). --check starts a judge only to
	// compare it with the report's, when a judge or a model is set (a
	// flag, a variable or the config file).
	if sj := a.newGateJudges(cmd.Flags()); sj != nil && (saved == nil || g.CheckJudge) {
		defer sj.close()
		g.Judges = sj
	}
	// And so are fail-on-breaking and lock: the base's decide whether a
	// breaking change or a tool that differs from the lock blocks
	// (gate_policy.go). --check keeps the saved verdict.
	if sp := a.newGatePolicy(cmd.Flags()); sp != nil && saved == nil {
		g.Policy = sp
		if sp.governs("lock") {
			g.Lock = "" // read once the base's is known
		}
	}
	// And answers the change brings into a cache directory of the
	// repository are not read (gate_cache.go).
	if saved == nil {
		if g.CacheChange, err = distrustChangedCache(ctx, sess.Cache(), g.Base, g.Head); err != nil {
			return invalid(err)
		}
	}
	rep, in, err := sess.RunGate(ctx, r, rep, g)
	return a.finishGate(ctx, rep, in, saved == nil, err)
}

// gateOutputs are the files the gate writes: gate.json and gate.md in
// --report-dir, and the --html page; none for --check, which writes
// nothing.
func (a *app) gateOutputs(write bool) []run.Flagged {
	if !write {
		return nil
	}
	jsonPath, mdPath := run.GatePaths(a.v.GetString("report-dir"))
	return []run.Flagged{
		{Flag: "--report-dir", Path: jsonPath},
		{Flag: "--report-dir", Path: mdPath},
		{Flag: "--html", Path: a.v.GetString("html")},
	}
}

// finishGate prints the decision and writes the report files when
// write is set (run.FinishGate), with the --html page beside them, of
// an INVALID gate too (in, the two sides, is nil when they were not
// both read); and returns the exit status as an error for BLOCK and
// INVALID, with no message: the decision line already says why, and is
// printed once.
func (a *app) finishGate(ctx context.Context, rep *gate.Report, in []gate.Input, write bool, runErr error) error {
	a.gateReported = true
	rep.PluginsRefused = a.pluginGuard.report()
	if err := run.FinishGate(ctx, a.stdout, rep, a.v.GetString("report-dir"), os.Getenv("GITHUB_STEP_SUMMARY"), write, runErr); err != nil {
		return err
	}
	if path := a.v.GetString("html"); path != "" && write {
		var base, head *surface.Surface
		if len(in) == 2 {
			base, head = in[0].Surface, in[1].Surface
		}
		if err := atomicfile.Write(path, func(w io.Writer) error { return html.WriteGate(w, rep, base, head) }); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		fmt.Fprintf(a.stdout, "page: %s\n", path)
	}
	if rep.Decision == gate.Pass {
		return nil
	}
	return &exitError{code: rep.ExitCode}
}

// gateUsageReport writes, when an error stopped rubric gate before its
// report was written (an unknown flag, a value that does not parse, a
// rubric not found, a setting refused), gate.json and gate.md in its
// --report-dir as INVALID, with msg (the error as stderr shows it) as
// the reason, as the gate does for any other failure: CI reads the
// decision from gate.json and would find none, or an earlier run's.
// stdout says where the report is. Not for --check, which writes
// nothing, nor when the report's own place was refused. cmd is the
// command that ran and args the whole command line. A report that
// cannot be written is said on stderr.
func (a *app) gateUsageReport(cmd *cobra.Command, args []string, msg string) {
	if cmd == nil || cmd.Name() != "gate" || cmd.Parent() != cmd.Root() || a.gateReported {
		return
	}
	dir, check := gateDirFromArgs(args)
	if check || a.v.GetString("check") != "" {
		return
	}
	// Once the flags are parsed and the configuration read, viper has
	// --report-dir from the flag, the environment or the config file;
	// when they did not parse, the command line is read leniently.
	dir = cmp.Or(dir, a.v.GetString("report-dir"), os.Getenv(localconfig.EnvName("report-dir")), defaultReportDir)
	if dir == "-" {
		return // refused by runflags.CheckDash: the report's own place is what is wrong
	}
	rep := gate.Usage(version(), errors.New(strings.TrimSpace(msg)))
	jsonPath, mdPath, werr := run.WriteGate(dir, os.Getenv("GITHUB_STEP_SUMMARY"), rep)
	if werr != nil {
		fmt.Fprintln(a.stderr, "rubric: the INVALID gate report is not written either:", werr)
		return
	}
	fmt.Fprintf(a.stdout, "report: %s · %s\n", jsonPath, mdPath)
}

// gateDirFromArgs reads --report-dir (and whether --check is given)
// from a gate command line whose flags may not parse: unknown flags are
// passed over, and nothing after "--" is read.
func gateDirFromArgs(args []string) (dir string, check bool) {
	fs := pflag.NewFlagSet("gate", pflag.ContinueOnError)
	fs.ParseErrorsAllowlist.UnknownFlags = true
	fs.SetOutput(io.Discard)
	fs.StringVar(&dir, "report-dir", "", "")
	c := fs.String("check", "", "")
	_ = fs.Parse(args) // what parsed before an error is kept
	return dir, *c != ""
}

// refuseLocalRevisions refuses base and head taken from the working
// directory's config file: a file of the repository, which the change
// being gated can edit, so that base: HEAD (or head: main) would have
// the gate compare a side with itself and pass. A flag, RUBRIC_BASE and
// RUBRIC_HEAD, and the user's own config file, name them.
func refuseLocalRevisions(v *viper.Viper, flags *pflag.FlagSet) error {
	if v.GetString("config") != "" {
		return nil
	}
	path, _, local := localconfig.Search()
	if !local {
		return nil
	}
	for _, k := range []string{"base", "head"} {
		if localconfig.FromFile(v, flags.Changed, k)[k] {
			return fmt.Errorf("%s: the gate does not read %s, a revision it compares, from a file of the repository, which the change being gated can edit (%s: %s would compare a side with itself): give --%s on the command line (or %s), and remove %s from %s",
				localconfig.Origin(v, flags, k), k, k, cmp.Or(v.GetString(k), `""`), k, localconfig.EnvName(k), k, path)
		}
	}
	return nil
}
