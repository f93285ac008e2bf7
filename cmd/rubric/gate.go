package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/report/html"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/rubrics"
)

// defaultReportDir is where the gate writes gate.json and gate.md.
const defaultReportDir = ".rubric"

func (a *app) gateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "gate --base REV [flags] -- COMMAND [ARGS...] | TARGET",
		Short: "Compare a base's tool definitions with the head's: PASS, BLOCK or INVALID",
		Long: `Gate exports the tools of the base revision and of the head, scores both
with the rubric, and decides as the rubric's gate block says (rubric
rubrics show NAME prints the rule).

The base is checked out into a temporary detached git worktree, and the
server command runs there; the head is the working tree, or --head REV
checked out the same way. A file TARGET (file or registry transport) and
--cwd are taken from each side's checkout, and must lie in the
repository; an HTTP endpoint is refused, since it serves the same
definitions to both sides. Equal tool definitions pass at once, with no
judge started.

Beside the quality, the gate reports the contract diff of the two sides,
computed from the definitions alone: breaking changes (a tool removed or
renamed, a parameter removed or newly required, a type changed or
narrowed, enum values removed, an output field no longer promised), risky
ones (an annotation that weakens a promise: readOnlyHint or
idempotentHint gone, destructiveHint now true), information (a
description whose side-effect wording changed) and compatible ones
(additions), each with its JSON Pointer into the tool and its values
before and after. Breaking changes are reported and do not decide unless
--fail-on-breaking is given; then any one of them is BLOCK.

--lock FILE verifies the head's tools against a lock file (rubric lock;
read from the working tree as given): a tool added, removed or changed
since it was locked is BLOCK, whatever the quality says, with the diff in
the reports. A change that is meant is approved by running rubric lock
again and committing the lock file with it.

Exit status: 0 PASS, 1 BLOCK, 2 INVALID (the change could not be
scored completely: no --base, a revision the clone lacks, a server that
does not export, a judge that fails or answers with another model, an
answer still unreadable after its retries, or with --check a saved
report that no longer matches the exports, the rubric or the judge).

gate.json and gate.md go to --report-dir, INVALID included; gate.md is
also appended to $GITHUB_STEP_SUMMARY when that is set. --check writes
nothing: it compares a saved report with today's exports and the rubric
it names (or --rubric), and with the judge when --judge or --model
names one.`,
		Example: `  rubric gate --base origin/main --rubric tdqs -- python -m my_server
  rubric gate --base v1.2.0 --head HEAD --judge claude-cli --model opus -- ./server
  rubric gate --base origin/main --fail-on-breaking -- node dist/server.js
  rubric gate --base origin/main --lock rubric.lock.json -- node dist/server.js
  rubric gate --check .rubric/gate.json -- ./server`,
		RunE: a.runGate,
	}
	f := cmd.Flags()
	f.String("rubric", defaultRubric, "built-in rubric name or path of a .hcl file")
	f.String("base", "", "the revision to compare against, such as origin/main")
	f.String("head", "", "the head revision (default: the working tree)")
	f.String("report-dir", defaultReportDir, "where gate.json and gate.md are written")
	f.String("html", "", "also write the gate as one HTML page (changed tools side by side, with a line diff) to this file")
	f.String("check", "", "check a saved gate.json against today's exports instead of scoring")
	f.Int("workers", 0, "tools scored in parallel (0: one per CPU)")
	f.Bool("fail-on-breaking", false, "block on a breaking change to the tools' contract, whatever the quality says")
	f.String("lock", "", "block when the head's tools differ from this lock file (rubric lock)")
	targetFlags(cmd)
	judgeFlags(cmd)
	return cmd
}

func (a *app) runGate(cmd *cobra.Command, args []string) error {
	v := a.v
	if v.GetString("record") != "" {
		return fmt.Errorf("--record is for rubric score: the gate scores each side more than once")
	}
	var saved *gate.Report
	if path := v.GetString("check"); path != "" {
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
	r, err := rubrics.Find(ref)
	if err != nil {
		return err
	}
	g := run.GateRun{Base: v.GetString("base"), Head: v.GetString("head"), Saved: saved, FailOnBreaking: v.GetBool("fail-on-breaking"),
		CheckJudge: v.GetString("judge") != "" || v.GetString("model") != "", Lock: v.GetString("lock")}
	if saved != nil {
		g.Base = cmp.Or(g.Base, saved.Base.Commit)
		g.Head = cmp.Or(g.Head, saved.Head.Commit)
	}
	// From here on a failure is INVALID, with its report written (but
	// not for --check) like any other, so CI shows why.
	ctx := cmd.Context()
	rep := gate.New(r, gate.Side{Rev: g.Base}, gate.Side{Rev: g.Head}, version())
	invalid := func(err error) error { return a.finishGate(ctx, rep, saved == nil, rep.Fail(err)) }
	tname, target, err := a.resolveTarget(cmd, args)
	if err != nil {
		return invalid(err)
	}
	sess, done, err := a.session(true)
	if err != nil {
		return invalid(err)
	}
	defer done()
	g.Source = run.Source{Transport: tname, Target: target}
	rep, in, err := sess.RunGate(ctx, r, rep, g)
	if path := v.GetString("html"); path != "" && in != nil && ctx.Err() == nil {
		if werr := atomicfile.Write(path, func(w io.Writer) error { return html.WriteGate(w, rep, in[0].Surface, in[1].Surface) }); werr != nil {
			return fmt.Errorf("write %s: %w", path, werr)
		}
	}
	return a.finishGate(ctx, rep, saved == nil, err)
}

// finishGate prints the decision, writes the report files when write is
// set (not for --check, nor after Ctrl-C), and returns the exit status
// as an error for BLOCK and INVALID, with no message: the decision line
// already says why, and is printed once.
func (a *app) finishGate(ctx context.Context, rep *gate.Report, write bool, runErr error) error {
	if ctx.Err() != nil {
		if runErr == nil {
			runErr = context.Cause(ctx)
		}
		return runErr // run reports the interruption
	}
	if err := gate.WriteText(a.stdout, rep); err != nil {
		return err
	}
	if write {
		jsonPath, mdPath, err := run.WriteGate(a.v.GetString("report-dir"), os.Getenv("GITHUB_STEP_SUMMARY"), rep)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "report: %s · %s\n", jsonPath, mdPath)
	}
	if rep.Decision == gate.Pass {
		return nil
	}
	return &exitError{code: rep.ExitCode}
}
