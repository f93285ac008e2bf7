package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/internal/gitrev"
	"github.com/rubricmcp/rubric/plugins/host"
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
  rubric gate --check .rubric/gate.json -- ./server`,
		RunE: a.runGate,
	}
	f := cmd.Flags()
	f.String("rubric", defaultRubric, "built-in rubric name or path of a .hcl file")
	f.String("base", "", "the revision to compare against, such as origin/main")
	f.String("head", "", "the head revision (default: the working tree)")
	f.String("report-dir", defaultReportDir, "where gate.json and gate.md are written")
	f.String("check", "", "check a saved gate.json against today's exports instead of scoring")
	f.Int("workers", 0, "tools scored in parallel (0: one per CPU)")
	targetFlags(cmd)
	judgeFlags(cmd)
	return cmd
}

// gateSide is one side of a gate as the command line names it.
type gateSide struct {
	name   string // "base" or "head"
	rev    string // "" for the working tree
	commit string
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
		ref = saved.Rubric.Name
		if saved.Rubric.File != "" {
			ref = saved.Rubric.File
		}
	}
	r, err := rubrics.Find(ref)
	if err != nil {
		return err
	}
	base := gateSide{name: "base", rev: v.GetString("base")}
	head := gateSide{name: "head", rev: v.GetString("head")}
	if saved != nil {
		if base.rev == "" {
			base.rev = saved.Base.Commit
		}
		if head.rev == "" {
			head.rev = saved.Head.Commit
		}
	}
	// From here on a failure is INVALID, with its report written (but
	// not for --check) like any other, so CI shows why.
	ctx := cmd.Context()
	rep := gate.New(r, gate.Side{Rev: base.rev}, gate.Side{Rev: head.rev}, version())
	invalid := func(err error) error { return a.finishGate(ctx, rep, saved == nil, rep.Fail(err)) }
	tname, target, err := a.resolveTarget(cmd, args)
	if err != nil {
		return invalid(err)
	}
	if target, err = gateTarget(tname, target); err != nil {
		return invalid(err)
	}
	if base.rev == "" {
		return invalid(fmt.Errorf("gate needs --base REV, the revision to compare against (for example --base origin/main)"))
	}
	cwd, err := os.Getwd()
	if err != nil {
		return invalid(err)
	}
	repo, err := gitrev.Open(ctx, cwd)
	if err != nil {
		return invalid(err)
	}
	for _, s := range []*gateSide{&base, &head} {
		if s.rev == "" {
			continue
		}
		if s.commit, err = repo.Resolve(ctx, s.rev); err != nil {
			return invalid(fmt.Errorf("--%s: %w", s.name, err))
		}
	}
	rep.Base.Commit, rep.Head.Commit = base.commit, head.commit
	h, catalog, err := a.newHost()
	if err != nil {
		return invalid(err)
	}
	defer h.Close()

	in := map[string]gate.Input{}
	for _, s := range []gateSide{base, head} {
		t, surf, err := a.exportSide(ctx, h, catalog, repo, cwd, s, tname, target)
		if err != nil {
			return invalid(fmt.Errorf("exporting the %s: %w", describeSide(s), err))
		}
		in[s.name] = gate.Input{Side: gate.Side{Rev: s.rev, Commit: s.commit}, Target: redacted(t), Surface: surf}
	}
	if saved != nil {
		now := gate.Current{BaseHash: in["base"].Surface.Hash(), HeadHash: in["head"].Surface.Hash(), Rubric: rep.Rubric}
		if saved.Judge != nil && (v.GetString("judge") != "" || v.GetString("model") != "") {
			if now.Judge, err = a.namedJudge(ctx, h, catalog, r); err != nil {
				return invalid(err)
			}
		}
		return a.finishGate(ctx, gate.Check(saved, now), false, nil)
	}
	finishProgress := func() {}
	rep, err = gate.Run(ctx, gate.Options{
		Rubric: r, Base: in["base"], Head: in["head"], Version: version(), Workers: v.GetInt("workers"),
		Asker: func(ctx context.Context) (*ask.Asker, *report.Judge, error) {
			asker, done, jb, err := a.gateAsker(ctx, h, catalog, r)
			if err != nil {
				return nil, nil, err
			}
			finishProgress = done
			return asker, jb, nil
		},
	})
	finishProgress() // before the decision is printed
	return a.finishGate(ctx, rep, true, err)
}

// namedJudge starts the judge the flags name, only to read its identity
// for --check, and stops it; nothing is asked.
func (a *app) namedJudge(ctx context.Context, h *host.Host, c *host.Catalog, r *rubric.Rubric) (*report.Judge, error) {
	j, err := a.startJudge(ctx, h, c, r)
	if err != nil {
		return nil, fmt.Errorf("start the judge to compare it with the report's: %w", err)
	}
	if j == nil {
		return nil, nil
	}
	defer j.Close()
	return judgeBlock(j, r), nil
}

// gateTarget refuses what the gate cannot read from each side's
// checkout: standard input, and an endpoint (http, sse, an installed
// transport's SCHEME://), which serves the same definitions to both
// sides. A file:// location becomes a plain path, to be read from each
// side's checkout.
func gateTarget(tname string, t transport.Target) (transport.Target, error) {
	if readsFile(tname) {
		t.Location = strings.TrimPrefix(t.Location, "file://")
	}
	if t.Location == "-" {
		return t, fmt.Errorf("the gate reads each side from its own checkout: give a file path or -- COMMAND, not standard input")
	}
	if tname == "http" || tname == "sse" || (tname != "stdio" && scheme(t.Location) != "") {
		return t, fmt.Errorf("the gate runs each side from its own checkout; an HTTP endpoint serves the same definitions to both: run the server from the repository with -- COMMAND")
	}
	return t, nil
}

// gateAsker starts the judge and an asker for the gate. With --no-cache
// the answers are kept in memory for this gate alone, so that both sides
// and every pair still share what they have in common.
func (a *app) gateAsker(ctx context.Context, h *host.Host, c *host.Catalog, r *rubric.Rubric) (*ask.Asker, func(), *report.Judge, error) {
	j, err := a.startJudge(ctx, h, c, r)
	if err != nil {
		return nil, nil, nil, err
	}
	if j == nil {
		return nil, nil, nil, fmt.Errorf("rubric %s asks a judge questions: choose a judge", r.Name)
	}
	asker, done, err := a.newAsker(ctx, r, j)
	if err != nil {
		return nil, nil, nil, err
	}
	if asker.Cache == nil {
		asker.Cache = cache.Memory()
	}
	a.asker = asker
	return asker, done, judgeBlock(j, r), nil
}

// exportSide reads one side's surface: the working tree's, or a
// revision's from a detached worktree that is removed afterwards. The
// server runs in the side's copy of the current directory, or of --cwd,
// and a file the target names (file, registry) is read from the side's
// copy too. A --cwd or a file outside the repository is refused: both
// sides would read the same one.
func (a *app) exportSide(ctx context.Context, h *host.Host, c *host.Catalog, repo *gitrev.Repo, cwd string, s gateSide, tname string, t transport.Target) (transport.Target, *surface.Surface, error) {
	if s.rev != "" {
		wt, err := repo.Checkout(ctx, s.commit)
		if err != nil {
			return t, nil, err
		}
		defer func() {
			if err := wt.Remove(); err != nil {
				a.logger().Warn("could not remove the worktree", "dir", wt.Dir, "error", err)
			}
		}()
		dir, err := wt.Rel(cwd)
		if err != nil {
			return t, nil, err
		}
		switch {
		case t.Dir == "":
			t.Dir = dir
		case filepath.IsAbs(t.Dir):
			if t.Dir, err = wt.Rel(t.Dir); err != nil {
				return t, nil, fmt.Errorf("--cwd: %w: the gate runs each side's server from its own checkout, so give a directory inside the repository", err)
			}
		default:
			t.Dir = filepath.Join(dir, t.Dir)
		}
		if readsFile(tname) {
			if !filepath.IsAbs(t.Location) {
				t.Location = filepath.Join(dir, t.Location)
			} else if t.Location, err = wt.Rel(t.Location); err != nil {
				return t, nil, fmt.Errorf("%w: both sides would read the same file; give a file inside the repository", err)
			}
		}
	}
	surf, err := export(ctx, h, c, tname, t)
	return t, surf, err
}

// readsFile reports whether a transport reads its target's location as
// a file path.
func readsFile(tname string) bool { return tname == "file" || tname == "registry" }

func describeSide(s gateSide) string {
	if s.rev == "" {
		return "head (the working tree)"
	}
	return fmt.Sprintf("%s (%s)", s.name, s.rev)
}

// finishGate prints the decision, writes the report files when write is
// set (not for --check, nor after Ctrl-C), and returns the exit status
// as an error for BLOCK and INVALID.
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
		if err := a.writeGateReport(rep); err != nil {
			return err
		}
	}
	switch rep.Decision {
	case gate.Pass:
		return nil
	case gate.Block:
		return &exitError{code: rep.ExitCode}
	}
	return &exitError{code: rep.ExitCode, msg: rep.Reason}
}

// writeGateReport writes gate.json and gate.md into --report-dir, and
// appends gate.md to the job summary when $GITHUB_STEP_SUMMARY names
// one.
func (a *app) writeGateReport(rep *gate.Report) error {
	dir := a.v.GetString("report-dir")
	jsonPath, mdPath := filepath.Join(dir, "gate.json"), filepath.Join(dir, "gate.md")
	if err := atomicfile.Write(jsonPath, func(w io.Writer) error { return gate.Write(w, rep) }); err != nil {
		return fmt.Errorf("write %s: %w", jsonPath, err)
	}
	// The job summary gets the same Markdown: rendered once.
	var md bytes.Buffer
	if err := gate.WriteMarkdown(&md, rep); err != nil {
		return fmt.Errorf("write %s: %w", mdPath, err)
	}
	if err := atomicfile.WriteFile(mdPath, md.Bytes()); err != nil {
		return fmt.Errorf("write %s: %w", mdPath, err)
	}
	if summary := os.Getenv("GITHUB_STEP_SUMMARY"); summary != "" {
		f, err := os.OpenFile(summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("job summary: %w", err)
		}
		_, werr := f.Write(md.Bytes())
		if err := f.Close(); werr == nil {
			werr = err
		}
		if werr != nil {
			return fmt.Errorf("job summary %s: %w", summary, werr)
		}
	}
	fmt.Fprintf(a.stdout, "report: %s · %s\n", jsonPath, mdPath)
	return nil
}
