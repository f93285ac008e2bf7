package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/contract"
	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/internal/ghaction"
	"github.com/rubricmcp/rubric/internal/gitrev"
	"github.com/rubricmcp/rubric/internal/redact"
)

// GateSource checks that the gate can read src from each side's
// checkout, by asking the transport where its targets are: a path is read
// from the checkout (a SCHEME:// prefix of the transport's own becomes a
// plain path), a command runs there, and an endpoint, which serves the
// same definitions to both sides, is refused, as is standard input.
func (s *Session) GateSource(ctx context.Context, src Source) (Source, transport.Info, error) {
	info, err := s.Describe(ctx, src.Transport)
	if err != nil {
		return src, info, err
	}
	info.Locality = info.Locality.Of()
	if info.Locality == transport.Path {
		src.Target.Location = info.PathOf(src.Target.Location)
	}
	if src.Target.Location == "-" {
		return src, info, fmt.Errorf("the gate reads each side from its own checkout: give a file path or -- COMMAND, not standard input")
	}
	if info.Locality == transport.Endpoint {
		return src, info, endpointError(src.Target.Location, info)
	}
	return src, info, nil
}

// endpointError refuses to gate an endpoint. An HTTP URL is one plainly;
// another transport's target is named with its transport, which a plugin
// calls an endpoint by its locality (or by leaving it unset), so that its
// author learns where the word came from and how to say otherwise.
func endpointError(location string, info transport.Info) error {
	if u := strings.ToLower(location); strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
		return fmt.Errorf("the gate runs each side from its own checkout; an HTTP endpoint serves the same definitions to both: run the server from the repository with -- COMMAND")
	}
	return fmt.Errorf("the gate runs each side from its own checkout, but the %s transport reads %s as an endpoint, which serves the same definitions to both: run the server from the repository with -- COMMAND (a transport plugin whose targets are files or commands says so by the locality its Describe returns, transport.Path or transport.Command)", info.Name, redact.URL(location))
}

// Side is one side of a gate as the command line names it.
type Side struct {
	Name   string // "base" or "head"
	Rev    string // "" for the working tree
	Commit string
	// Read, when set, is called with the side's files before its
	// server runs (GateRun.Rubrics reads the side's rubric there).
	Read func(context.Context, Tree) error
}

// Tree is where one side's files are while the gate reads it: the
// working tree, or a revision's temporary checkout.
type Tree struct {
	Side Side
	// Dir is the side's copy of the working directory.
	Dir  string
	repo *gitrev.Repo
	wt   *gitrev.Worktree
}

// Path is path, a path of the working tree (relative to the working
// directory, or absolute), as this side has it, and whether it lies in
// the repository: a path outside it is the same file for every side.
func (t Tree) Path(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		if t.wt == nil {
			_, in := t.repo.Rel(path)
			return path, in
		}
		return filepath.Join(t.Dir, path), true // the working directory is inside
	}
	rel, in := t.repo.Rel(path)
	if !in || t.wt == nil {
		return path, in
	}
	return filepath.Join(t.wt.Dir, rel), true
}

// Name is how a message names path, a file of this side: REV:path for
// a revision's checkout, which is gone by the time the message is read.
func (t Tree) Name(path string) string {
	if t.wt == nil {
		return path
	}
	return t.Side.Rev + ":" + inRepo(t.wt, path)
}

// Message is err's text with the paths of this side's checkout written
// as Name writes them.
func (t Tree) Message(err error) string {
	if t.wt == nil {
		return err.Error()
	}
	return inCheckout(err, t.wt, t.Side.Rev).Error()
}

// SideRubrics reads the rubric of each side of a gate from that side's
// own files, and chooses the rubric that scores both: a change must not
// be able to weaken its own gate.
type SideRubrics interface {
	// Read is called with each side's files, before its server runs.
	Read(ctx context.Context, t Tree) error
	// Choose is called once both sides were read: the rubric that
	// scores both, and, when the sides' differ, what the report says.
	Choose() (*rubric.Rubric, *gate.RubricChange, error)
}

// SideJudges reads the settings that decide the judge's answers from
// each side's own files, and chooses whose answer both: a change must
// not be able to choose the judge of its own gate either.
type SideJudges interface {
	// Read is called with each side's files, before its server runs.
	Read(ctx context.Context, t Tree) error
	// Choose is called once both sides were read. A nil change keeps the
	// session's judge; otherwise, when change.Used is "base", the judge
	// becomes ref configured with cfg (Session.SetJudge), and the report
	// says what changed.
	Choose() (ref string, cfg judge.Config, change *gate.JudgeChange, err error)
}

// SidePolicy reads the gate's own settings that decide the verdict
// (fail-on-breaking, lock) from each side's own files, and chooses the
// ones the gate uses: a change must not be able to switch off the check
// that would block it.
type SidePolicy interface {
	// Read is called with each side's files, before its server runs.
	Read(ctx context.Context, t Tree) error
	// Choose is called once both sides were read: whether a breaking
	// change blocks and the lock file the head's tools must match ("" for
	// none), and, when the sides' settings differ, what the report says.
	Choose() (failOnBreaking bool, lock string, change *gate.PolicyChange, err error)
}

// String names the side in a message.
func (sd Side) String() string {
	if sd.Rev == "" {
		return "head (the working tree)"
	}
	return fmt.Sprintf("%s (%s)", sd.Name, sd.Rev)
}

// ExportSide reads one side's surface: the working tree's, or a
// revision's from a detached worktree of repo that is removed afterwards.
// The server runs in the side's copy of cwd, or of the target's
// directory, and a path the target names is read from the side's copy
// too. A directory or a path outside the repository is refused: both
// sides would read the same one. info is what GateSource said of the
// transport.
func (s *Session) ExportSide(ctx context.Context, repo *gitrev.Repo, cwd string, sd Side, src Source, info transport.Info) (gate.Input, error) {
	t := src.Target
	var wt *gitrev.Worktree
	if sd.Rev == "" && sd.Read != nil {
		if err := sd.Read(ctx, Tree{Side: sd, Dir: cwd, repo: repo}); err != nil {
			return gate.Input{}, err
		}
	}
	if sd.Rev != "" {
		var err error
		wt, err = repo.Checkout(ctx, sd.Commit)
		if err != nil {
			return gate.Input{}, err
		}
		defer func() {
			if err := wt.Remove(); err != nil {
				s.opt.Log.Warn("could not remove the worktree", "dir", wt.Dir, "error", err)
			}
		}()
		dir, err := wt.Rel(cwd)
		if err != nil {
			return gate.Input{}, err
		}
		if sd.Read != nil {
			if err := sd.Read(ctx, Tree{Side: sd, Dir: dir, repo: repo, wt: wt}); err != nil {
				return gate.Input{}, err
			}
		}
		// A path is taken from the working directory, as every command
		// takes it, then put in the side's checkout: a relative one
		// that climbs out of the repository (--cwd ..) is refused as an
		// absolute one outside it is.
		switch {
		case t.Dir == "":
			t.Dir = dir
		default:
			if t.Dir, err = wt.Rel(fromDir(cwd, t.Dir)); err != nil {
				return gate.Input{}, fmt.Errorf("--cwd: %w: the gate runs each side's server from its own checkout, so give a directory inside the repository", err)
			}
		}
		if info.Locality == transport.Path {
			if t.Location, err = wt.Rel(fromDir(cwd, t.Location)); err != nil {
				return gate.Input{}, fmt.Errorf("%w: both sides would read the same file; give a file inside the repository", err)
			}
			if _, err := os.Stat(t.Location); errors.Is(err, fs.ErrNotExist) {
				return gate.Input{}, fmt.Errorf("%s is not in %s (%s): this side reads the file as committed there; commit it, or give --%s a revision that has it", inRepo(wt, t.Location), sd.Rev, short(sd.Commit), sd.Name)
			}
		}
	}
	surf, err := s.Export(ctx, src.Transport, t)
	if err != nil && wt != nil {
		return gate.Input{}, inCheckout(err, wt, sd.Rev)
	}
	if err != nil {
		return gate.Input{}, err
	}
	return gate.Input{Side: gate.Side{Rev: sd.Rev, Commit: sd.Commit}, Target: Redacted(t, s.opt.RedactParams...), Surface: surf}, nil
}

// fromDir is path as read from dir: itself when absolute.
func fromDir(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// Gate compares base with head as r's gate block says. The judge starts
// only when the definitions differ and r asks questions; without a cache,
// the answers are kept in memory for this gate alone, so that both sides
// and every pair still share what they have in common. g.FailOnBreaking
// makes a breaking change to the tools' contract block; c is what was
// chosen once the sides were read: the lock the head's tools must match
// and what the report says of settings the head changed.
func (s *Session) Gate(ctx context.Context, r *rubric.Rubric, base, head gate.Input, g GateRun, c GateChoices) (*gate.Report, error) {
	defer s.EndProgress() // before the decision is printed
	return gate.Run(ctx, gate.Options{
		Rubric: r, Base: base, Head: head, Version: s.opt.Version, Workers: s.opt.Workers,
		FailOnBreaking: g.FailOnBreaking, Lock: c.Locked, LockFile: g.Lock, RubricChange: c.Rubric, JudgeChange: c.Judge, PolicyChange: c.Policy,
		CacheChange: g.CacheChange, PluginChange: g.PluginChange,
		Asker: func(ctx context.Context) (*ask.Asker, *report.Judge, error) {
			a, err := s.Asker(ctx, r, false)
			if err != nil {
				return nil, nil, err
			}
			if a.Cache == nil {
				a.Cache = cache.Memory()
			}
			jb, err := s.JudgeBlock(ctx, r)
			return a, jb, err
		},
	})
}

// GateChoices is what RunGate chose once both sides were read, for Gate:
// each field is nil when there was nothing to choose.
type GateChoices struct {
	// Locked is the lock GateRun.Lock names (or the one the policy read
	// from the sides chose), which the head's tools must match.
	Locked *lock.File
	// Rubric, Judge and Policy say that the head's rubric, judge
	// settings, or fail-on-breaking and lock settings were not the ones
	// used, for the report.
	Rubric *gate.RubricChange
	Judge  *gate.JudgeChange
	Policy *gate.PolicyChange
}

// GateRun is what one run of the gate compares: the target read on each
// side, the two revisions and, for --check, the saved report that today's
// exports are compared with instead of scoring.
type GateRun struct {
	Source     Source
	Base, Head string
	Saved      *gate.Report
	// FailOnBreaking makes a breaking change to the contract block.
	FailOnBreaking bool
	// CheckJudge starts the judge to compare it with Saved's.
	CheckJudge bool
	// Lock, when set, is a lock file (rubric lock), read as given from
	// the working tree, that the head's tools must match: a tool added,
	// removed or changed since it was locked blocks.
	Lock string
	// Rubrics, when set, reads each side's rubric from its own files and
	// chooses the one that scores both, in place of the rubric RunGate
	// is given (which still names the rubric of a gate that fails
	// before the sides are read).
	Rubrics SideRubrics
	// Judges, when set, reads each side's judge settings from its own
	// files and chooses the ones that answer both, in place of the
	// session's.
	Judges SideJudges
	// Policy, when set, reads each side's fail-on-breaking and lock
	// settings from its own files and chooses the ones the gate uses, in
	// place of FailOnBreaking and Lock.
	Policy SidePolicy
	// CacheChange, when set, says that the head adds or edits answers of
	// a cache directory the repository holds, which the session's cache
	// was told not to read (cache.Store.Distrust), for the report.
	CacheChange *gate.CacheChange
	// PluginChange, when set, says that the head's plugins differ from
	// the base's, which the session was opened with, for the report.
	PluginChange *gate.PolicyChange
}

// RunGate exports both sides of g and decides, or with g.Saved compares
// the saved report with today's exports. rep is the report as begun
// (gate.New); a failure is recorded in it as INVALID and returned as the
// error. The two sides' inputs come back when both were scored, for a
// page that shows them side by side.
func (s *Session) RunGate(ctx context.Context, r *rubric.Rubric, rep *gate.Report, g GateRun) (*gate.Report, []gate.Input, error) {
	src, info, err := s.GateSource(ctx, g.Source)
	if err != nil {
		return rep, nil, rep.Fail(err)
	}
	if g.Base == "" {
		return rep, nil, rep.Fail(fmt.Errorf("gate needs --base REV, the revision to compare against (for example --base origin/main)"))
	}
	locked, err := gateLock(g)
	if err != nil {
		return rep, nil, rep.Fail(err)
	}
	// A judge that cannot start is refused before anything is scored:
	// two equal sides pass without starting it, and a typo in CI would
	// otherwise pass until the day the tools change. With the rubric
	// read from each side, or the judge, it is checked once they are
	// chosen.
	if g.Saved == nil && g.Rubrics == nil && g.Judges == nil {
		if err := s.CheckJudge(r); err != nil {
			return rep, nil, rep.Fail(err)
		}
	}
	base, head := Side{Name: "base", Rev: g.Base}, Side{Name: "head", Rev: g.Head}
	if read := sideReads(g.Rubrics, g.Judges, g.Policy); read != nil {
		base.Read, head.Read = read, read
	}
	in, err := s.ExportSides(ctx, src, info, &base, &head)
	rep.Base.Commit, rep.Head.Commit = base.Commit, head.Commit
	if err != nil {
		return rep, nil, rep.Fail(err)
	}
	var change *gate.RubricChange
	if g.Rubrics != nil {
		if r, change, err = g.Rubrics.Choose(); err != nil {
			return rep, nil, rep.Fail(err)
		}
		rep.Rubric, rep.RubricChange = score.RubricOf(r), change
	}
	var judgeChange *gate.JudgeChange
	if g.Judges != nil {
		ref, cfg, c, err := g.Judges.Choose()
		if err != nil {
			return rep, nil, rep.Fail(err)
		}
		if c != nil && c.Used == "base" {
			if err := s.SetJudge(ref, cfg); err != nil {
				return rep, nil, rep.Fail(err)
			}
		}
		judgeChange, rep.JudgeChange = c, c
	}
	var policyChange *gate.PolicyChange
	if g.Policy != nil {
		fob, lockFile, c, err := g.Policy.Choose()
		if err != nil {
			return rep, nil, rep.Fail(err)
		}
		policyChange, rep.PolicyChange = c, c
		g.FailOnBreaking = fob
		if lockFile != g.Lock {
			g.Lock = lockFile
			if locked, err = gateLock(g); err != nil {
				return rep, nil, rep.Fail(err)
			}
		}
	}
	if g.Saved == nil && (g.Rubrics != nil || g.Judges != nil) {
		if err := s.CheckJudge(r); err != nil {
			return rep, nil, rep.Fail(err)
		}
	}
	if g.Saved != nil {
		rule := gate.RuleOf(r)
		now := gate.Current{BaseHash: in[0].Surface.Hash(), HeadHash: in[1].Surface.Hash(), Rubric: rep.Rubric,
			Rule: &rule, Asks: len(r.Questions) > 0, Contract: contract.Compare(in[0].Surface, in[1].Surface), FailOnBreaking: g.FailOnBreaking}
		// A rubric that asks no questions scores a side the same every
		// time: the saved pairs must hold today's values, which cost no
		// more than the gate did.
		if !now.Asks && g.Saved.Decision != gate.Invalid && len(g.Saved.Pairs) > 0 && g.Saved.Matches(now) {
			if now.Values, err = gate.Values(ctx, gate.Options{Rubric: r, Base: in[0], Head: in[1], Version: s.opt.Version, Workers: s.opt.Workers}); err != nil {
				return rep, nil, rep.Fail(err)
			}
		}
		if g.Saved.Judge != nil && g.CheckJudge {
			if now.Judge, err = s.JudgeBlock(ctx, r); err != nil {
				return rep, nil, rep.Fail(fmt.Errorf("start the judge to compare it with the report's: %w", err))
			}
		}
		checked := gate.Check(g.Saved, now)
		if now.Judge != nil && judgeChange != nil {
			// The judge compared with the report's is the one today's
			// settings chose (the base's when the head changes them):
			// said as the gate says it, in place of the saved note.
			checked.JudgeChange = judgeChange
		}
		return checked, nil, nil
	}
	rep, err = s.Gate(ctx, r, in[0], in[1], g, GateChoices{Locked: locked, Rubric: change, Judge: judgeChange, Policy: policyChange})
	return rep, in, err
}

// sideReads is the function that reads a side's files for the rubric,
// the judge settings and the gate's own settings, whichever are read
// from each side; nil when none is.
func sideReads(rubrics SideRubrics, judges SideJudges, policy SidePolicy) func(context.Context, Tree) error {
	var reads []func(context.Context, Tree) error
	if rubrics != nil {
		reads = append(reads, rubrics.Read)
	}
	if judges != nil {
		reads = append(reads, judges.Read)
	}
	if policy != nil {
		reads = append(reads, policy.Read)
	}
	if len(reads) == 0 {
		return nil
	}
	return func(ctx context.Context, t Tree) error {
		for _, read := range reads {
			if err := read(ctx, t); err != nil {
				return err
			}
		}
		return nil
	}
}

// gateLock reads the lock file g names, if any: a lock of one server,
// since the gate reads one.
func gateLock(g GateRun) (*lock.File, error) {
	if g.Lock == "" {
		return nil, nil
	}
	if g.Saved != nil {
		return nil, fmt.Errorf("--lock is for the gate that writes the report: --check compares a saved report, whose lock verdict stands as it was saved")
	}
	locked, err := lock.Read(g.Lock)
	if err != nil {
		return nil, fmt.Errorf("--lock: %w", err)
	}
	if len(locked.Servers) > 0 {
		return nil, fmt.Errorf("%s locks the servers of %s, and the gate reads one server: give it a lock of this target (rubric lock -- COMMAND, or rubric lock TARGET)", g.Lock, locked.Config)
	}
	return locked, nil
}

// GatePaths are where the gate's report goes in dir: gate.json and
// gate.md.
func GatePaths(dir string) (jsonPath, mdPath string) {
	return filepath.Join(dir, "gate.json"), filepath.Join(dir, "gate.md")
}

// WriteGate writes gate.json and gate.md into dir (GatePaths), and appends gate.md to
// the job summary file summary when it is not empty (GitHub's
// $GITHUB_STEP_SUMMARY), cut so that the file stays below GitHub's limit
// with a note saying where the whole report is; it returns the paths it
// wrote.
func WriteGate(dir, summary string, rep *gate.Report) (jsonPath, mdPath string, err error) {
	jsonPath, mdPath = GatePaths(dir)
	if err := atomicfile.Write(jsonPath, func(w io.Writer) error { return gate.Write(w, rep) }); err != nil {
		return "", "", fmt.Errorf("write %s: %w", jsonPath, err)
	}
	// The job summary gets the same Markdown: rendered once.
	var md bytes.Buffer
	if err := gate.WriteMarkdown(&md, rep); err != nil {
		return "", "", fmt.Errorf("write %s: %w", mdPath, err)
	}
	if err := atomicfile.WriteFile(mdPath, md.Bytes()); err != nil {
		return "", "", fmt.Errorf("write %s: %w", mdPath, err)
	}
	if summary != "" {
		// Cut as the Action's summary step cuts it: GitHub shows nothing
		// of a step summary of 1024k or more.
		if _, err := ghaction.AppendSummary(summary, md.Bytes(), "the whole report is "+mdPath); err != nil {
			return "", "", err
		}
	}
	return jsonPath, mdPath, nil
}

// FinishGate prints the gate's decision to w and, when write is set (not
// for --check), writes the report files into dir as WriteGate does and
// says where. After an interruption it does neither and returns runErr,
// or else the context's cause: nothing half-decided is printed, and the
// report an earlier gate wrote into dir is removed (only one rubric
// wrote), so that a CI step reading gate.json does not take the last
// run's decision for this one's. Any other runErr is already in rep,
// whose decision says why.
func FinishGate(ctx context.Context, w io.Writer, rep *gate.Report, dir, summary string, write bool, runErr error) error {
	if ctx.Err() != nil {
		if runErr == nil {
			runErr = context.Cause(ctx)
		}
		if write {
			jsonPath, mdPath := GatePaths(dir)
			RemoveEarlierReports(hclog.NewNullLogger(), []string{jsonPath, mdPath})
		}
		return runErr // the caller reports the interruption
	}
	if err := gate.WriteText(w, rep); err != nil {
		return err
	}
	if write {
		jsonPath, mdPath, err := WriteGate(dir, summary, rep)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "report: %s · %s\n", jsonPath, mdPath)
	}
	return nil
}

// inRepo is path, inside the checkout wt, as the repository knows it:
// relative to its top, with forward slashes.
func inRepo(wt *gitrev.Worktree, path string) string {
	rel, err := filepath.Rel(wt.Dir, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// short is a commit's abbreviation, as messages print it.
func short(commit string) string { return commit[:min(len(commit), 12)] }

// checkoutError is an error of reading a side from its temporary
// checkout, with the checkout's paths written as git names a
// revision's files (REV:path), which the user knows, rather than as
// the temporary directory, which is gone by the time they read it.
type checkoutError struct {
	msg string
	err error
}

func (e *checkoutError) Error() string { return e.msg }
func (e *checkoutError) Unwrap() error { return e.err }

// inCheckout is err with the paths of the checkout wt of rev written
// as rev:path.
func inCheckout(err error, wt *gitrev.Worktree, rev string) error {
	msg := err.Error()
	if !strings.Contains(msg, wt.Dir) {
		return err
	}
	msg = strings.ReplaceAll(msg, wt.Dir+string(filepath.Separator), rev+":")
	msg = strings.ReplaceAll(msg, wt.Dir, rev+":.")
	return &checkoutError{msg: msg, err: err}
}
