package run

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/calibrate/plot"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/judge/panel"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/report/writers"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/atomicfile"
)

// The files a calibration writes into its directory.
const (
	RecordFile   = "calibration.json"
	MarkdownFile = "calibration.md"
	PlotPNG      = "calibration.png"
	PlotSVG      = "calibration.svg"
	// BetweenJSON and BetweenMarkdown hold two judges' agreement with
	// each other (calibrate --judge A --judge B).
	BetweenJSON     = "judges.json"
	BetweenMarkdown = "judges.md"
)

// WriteBetween writes two judges' agreement into dir, beside the
// directories of their calibrations.
func WriteBetween(dir string, a, b *calibrate.Record, bt *calibrate.Between) error {
	var md strings.Builder
	if err := calibrate.WriteBetweenMarkdown(&md, a, b, bt); err != nil {
		return err
	}
	js, err := json.MarshalIndent(bt, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, BetweenJSON), append(js, '\n')); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, BetweenMarkdown), []byte(md.String()))
}

// CalibrateTwo calibrates two judges on one capture, each with one
// (which calibrates judge i, 0 or 1, as the Calibration it is given says)
// into its own directory judge-1 and judge-2 under c.Out, and writes their
// agreement with each other into c.Out. The pair is written as a whole:
// first into a directory beside c.Out, then moved in, so that a failed
// run leaves c.Out as it was, never one judge's new calibration beside
// the other's old one.
func CalibrateTwo(ctx context.Context, r *rubric.Rubric, c Calibration, judges [2]string, one func(ctx context.Context, i int, r *rubric.Rubric, c Calibration) (*calibrate.Record, error)) ([2]*calibrate.Record, *calibrate.Between, error) {
	var recs [2]*calibrate.Record
	stage, err := newStage(c.Out)
	if err != nil {
		return recs, nil, err
	}
	defer stage.discard()
	// One resume mark for the pair, beside c.Out as a single judge's is:
	// the stage each judge writes into is new at every run, so it could
	// not keep one, and c.Out may not exist before the pair is written.
	pair := &pairResume{out: c.Out}
	for i, j := range judges {
		// Each record's paths are written relative to the directory it is
		// moved to.
		ci := c
		ci.Out = filepath.Join(stage.dir, pairEntries[i])
		ci.Final = filepath.Join(c.Out, pairEntries[i])
		ci.pair, ci.judge = pair, i+1
		rec, err := one(ctx, i, r, ci)
		if err != nil {
			return recs, nil, fmt.Errorf("judge %d (%s): %w; %s is as it was", i+1, j, err, c.Out)
		}
		recs[i] = rec
	}
	bt, err := calibrate.Compare2(recs[0], recs[1], calibrate.Options{})
	if err != nil {
		return recs, nil, err
	}
	if err := WriteBetween(stage.dir, recs[0], recs[1], bt); err != nil {
		return recs, nil, err
	}
	if err := stage.commitPair(); err != nil {
		return recs, nil, err
	}
	return recs, bt, pair.mark.drop()
}

// pairResume is the resume mark of a calibration of two judges, opened
// by the first judge whose session caches answers: a pair whose judges
// cache nothing keeps none.
type pairResume struct {
	out  string
	mark *resumeMark
}

// open reads or keeps the pair's mark.
func (p *pairResume) open(store *cache.Store) (*resumeMark, error) {
	if p.mark == nil {
		m, err := openResume(p.out, store)
		if err != nil {
			return nil, err
		}
		p.mark = m
	}
	return p.mark, nil
}

// pairEntries are what a calibration of two judges writes into its
// directory, the agreement last: what commitPair replaces.
var pairEntries = []string{"judge-1", "judge-2", BetweenMarkdown, BetweenJSON}

// Calibration says what to calibrate and where the files go.
type Calibration struct {
	// Capture is the registry capture, read from CapturePath.
	Capture     *calibrate.Capture
	CapturePath string
	// Runs is how many times the capture is scored.
	Runs int
	// Out is the directory the record, the summary, the plot and each
	// run's answers and report go to.
	Out string
	// Final, when set, is the directory Out is moved to once written (a
	// pair of judges is written beside its --out first): the paths the
	// record names are relative to it. Out when unset.
	Final string
	// Server, when set, is the server's own target: where the capture's
	// definitions differ from its tools/list is recorded.
	Server *Source

	// pair and judge are set by CalibrateTwo: the pair's resume mark, and
	// which judge (1 or 2) this calibration is, whose runs' answers are
	// cached under salts of their own.
	pair  *pairResume
	judge int
}

// Check refuses a calibration that cannot be made: the files need the
// Out directory, and the medians at least one run.
func (c Calibration) Check() error {
	if c.Out == "" {
		return fmt.Errorf("calibrate needs --out DIR: the record, the summary and each run's answers are written there")
	}
	if c.Runs < 1 {
		return fmt.Errorf("--runs %d: score the capture at least once", c.Runs)
	}
	return nil
}

// Calibrate scores the capture's definitions c.Runs times with answers
// given afresh, sets the medians against the published scores, and
// writes everything into c.Out: first into a directory beside it, moved in
// at the end, so that a failed or interrupted run leaves c.Out as it was,
// and a shorter run leaves no run files of an earlier one.
func (s *Session) Calibrate(ctx context.Context, r *rubric.Rubric, c Calibration) (*calibrate.Record, error) {
	// A rubric that asks nothing has no judge, even when one is named:
	// none would answer, and the record names none.
	if len(r.Questions) == 0 {
		s.opt.Judge = ""
	}
	if _, err := s.StartJudge(ctx, r); err != nil {
		return nil, err
	}
	var diffs *calibrate.Differences
	if c.Server != nil {
		srv, err := s.Export(ctx, c.Server.Transport, c.Server.Target)
		if err != nil {
			return nil, err
		}
		diffs = calibrate.Diff(c.Capture.Surface, srv, Redacted(c.Server.Target, s.opt.RedactParams...))
	}
	// The runs score the definitions, as a capture: the published values
	// are the capture's (c.Capture.Tools), never the surface's, so they
	// stay out of the run reports.
	cs := c.Capture.Surface
	scored := &surface.Surface{Source: cs.Source, Format: surface.FormatCapture, Server: cs.Server, Tools: cs.Tools}
	stage, err := newStage(c.Out)
	if err != nil {
		return nil, err
	}
	defer stage.discard()
	var resume *resumeMark
	// A rubric that asks nothing has nothing to take up again: a mark
	// would only be listed as a calibration stopped.
	if s.opt.Cache != nil && len(r.Questions) > 0 {
		switch {
		case c.pair != nil:
			resume, err = c.pair.open(s.opt.Cache)
		case c.Final == "":
			resume, err = openResume(c.Out, s.opt.Cache)
		}
		if err != nil {
			return nil, err
		}
	}
	// One run's scan, by session ss: each run is asked afresh. Its
	// answers are cached under a salt of this calibration's and the
	// run's, which no earlier calibration's answers have, so that only
	// the same command run again after an interruption finds them (and
	// asks only what is missing, a batch still running collected by its
	// own run).
	scanRun := func(ctx context.Context, ss *Session, k int) (*report.Report, error) {
		opt := ScanOptions{Fresh: true}
		if resume != nil {
			opt = ScanOptions{Salt: resume.salt(c.judge, k+1)}
		}
		rep, err := ss.Scan(ctx, Source{Surface: scored, Name: c.CapturePath}, r, opt)
		if err != nil {
			err = fmt.Errorf("run %d of %d: %w", k+1, c.Runs, err)
			if resume != nil {
				err = &StoppedCalibration{Mark: resume.path, Err: err}
			}
			return nil, err
		}
		if rep.Judge != nil {
			if err := WriteRecord(filepath.Join(stage.dir, answersFile(k+1)), rep); err != nil {
				return nil, fmt.Errorf("write %s: %w", answersFile(k+1), err)
			}
		}
		if err := writers.JSON().WriteFile(filepath.Join(stage.dir, reportFile(k+1)), rep, text.Options{}); err != nil {
			return nil, err
		}
		return rep, nil
	}
	var reports []*report.Report
	if s.opt.Batch && s.judge != nil && c.Runs > 1 {
		// A batch takes minutes to hours: the runs' batches are
		// submitted together rather than each after the one before.
		if reports, err = s.concurrentRuns(ctx, c.Runs, scanRun); err != nil {
			return nil, err
		}
	} else {
		reports = make([]*report.Report, c.Runs)
		for k := range c.Runs {
			if reports[k], err = scanRun(ctx, s, k); err != nil {
				return nil, err
			}
		}
	}
	opt := calibrate.Options{}
	if r.Scale != nil {
		opt.Scale = &calibrate.Range{Min: r.Scale.Min, Max: r.Scale.Max}
	}
	rec, err := calibrate.New(c.Capture, reports, opt)
	if err != nil {
		// Every run was scored, and the same command would be refused
		// the same way: nothing is left to take up again.
		if c.pair == nil {
			if derr := resume.drop(); derr != nil {
				return nil, errors.Join(err, derr)
			}
		}
		return nil, err
	}
	rec.Generator = report.Generator{Name: "rubric", Version: s.opt.Version}
	final := c.Out
	if c.Final != "" {
		final = c.Final
	}
	rec.Capture.Path = relativeTo(final, c.CapturePath)
	rec.Rubric.Ref = rubricRef(r, final)
	if s.judge != nil && rec.Judge != nil {
		// A judge's own settings (openai:model=M,...) are recorded as its
		// configuration, its name as its ref; a panel's ref keeps its
		// members' settings.
		ref, cfg := s.judgeRef(r), s.opt.JudgeConfig
		if _, isPanel := panel.Members(ref); !isPanel {
			var settings []string
			ref, settings = judge.SplitRef(ref)
			if cfg, err = cfg.With(settings); err != nil {
				return nil, err
			}
		} else {
			cfg, _ = cfg.With(nil) // a copy
		}
		if p, ok := cfg.Options["answers"]; ok {
			cfg.Options["answers"] = relativeTo(final, p)
		}
		rec.JudgeConfig = calibrate.JudgeConfig{Ref: judgeRefFor(ref, final), Config: cfg}
	}
	for i := range rec.Results {
		if reports[i].Judge != nil {
			rec.Results[i].Answers = answersFile(i + 1)
		}
		rec.Results[i].Report = reportFile(i + 1)
	}
	rec.Differences = diffs
	if err := writeCalibration(stage.dir, rec); err != nil {
		return nil, err
	}
	if err := stage.commit(); err != nil {
		return nil, err
	}
	if c.pair == nil {
		// A pair's mark goes once both judges are written.
		if err := resume.drop(); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

// concurrentRuns scans a calibration's runs at once, each through a
// session of its own that shares s's judge, budget and settings (a
// Session is used by one goroutine), and then counts what their askers
// spent as s's, as if s had made them one after another. The first run
// to fail stops the others: a batch they submitted is left running and
// recorded, for the same command run again to collect.
func (s *Session) concurrentRuns(ctx context.Context, runs int, scan func(ctx context.Context, ss *Session, k int) (*report.Report, error)) ([]*report.Report, error) {
	reports := make([]*report.Report, runs)
	sibs := make([]*Session, runs)
	g, gctx := errgroup.WithContext(ctx)
	for k := range runs {
		o := s.opt
		o.Progress = nil // one bar cannot show several runs
		sibs[k] = &Session{opt: o, judge: s.judge, pinned: s.pinned, block: s.block, ledger: s.ledger, done: func() {}}
		g.Go(func() error {
			rep, err := scan(gctx, sibs[k], k)
			reports[k] = rep
			return err
		})
	}
	err := g.Wait()
	for _, sib := range sibs {
		if sib.asker != nil {
			s.adopt(sib.asker)
		}
	}
	if err != nil {
		return nil, err
	}
	return reports, nil
}

// StoppedCalibration is the error of a calibration that stopped in one of
// its runs (interrupted, over its budget, a judge that failed) and left
// its resume mark: the same command run again takes it up there.
type StoppedCalibration struct {
	// Mark is the path of the resume mark kept beside the calibration's
	// --out directory.
	Mark string
	// Err is why the run stopped.
	Err error
}

// Error implements error: why the run stopped.
func (e *StoppedCalibration) Error() string { return e.Err.Error() }

// Unwrap returns why the run stopped.
func (e *StoppedCalibration) Unwrap() error { return e.Err }

// resumeMark is what a calibration into a directory keeps beside it
// until it is written: the nonce its runs' answers are cached under
// (ScanOptions.Salt). A calibration stopped half way (Ctrl-C, a kill, a
// budget, a failed batch) leaves it, and the next calibration into the
// same directory takes it up: its runs find the answers the stopped one
// received, and the batches it left running, instead of paying for them
// again. A calibration that was written removes it, so that the next one
// asks afresh.
type resumeMark struct {
	path  string
	store *cache.Store
	Nonce string `json:"nonce"`
}

// openResume reads the mark beside out, or keeps a new one, and notes it
// in store, so that rubric cache stats names a mark no calibration takes
// up again (cache.Calibration).
func openResume(out string, store *cache.Store) (*resumeMark, error) {
	out = filepath.Clean(out)
	m := &resumeMark{path: filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".resume.json"), store: store}
	note := func() error {
		abs, err := filepath.Abs(out)
		if err != nil {
			return err
		}
		return store.KeepCalibration(cache.Calibration{Mark: filepath.Join(filepath.Dir(abs), filepath.Base(m.path)), Out: abs, Nonce: m.Nonce})
	}
	if b, err := os.ReadFile(m.path); err == nil && json.Unmarshal(b, m) == nil && m.Nonce != "" {
		return m, note()
	}
	var n [16]byte
	if _, err := rand.Read(n[:]); err != nil {
		return nil, err
	}
	m.Nonce = hex.EncodeToString(n[:])
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(m.path, b); err != nil {
		return nil, fmt.Errorf("keeping %s, which lets a stopped calibration be resumed: %w", m.path, err)
	}
	return m, note()
}

// salt is what run k's answers are cached under; judge is 1 or 2 for a
// judge of a pair (two judges of one identity are asked apart), 0 alone.
func (m *resumeMark) salt(judge, k int) string {
	if judge > 0 {
		return fmt.Sprintf("calibration %s judge %d run %d", m.Nonce, judge, k)
	}
	return fmt.Sprintf("calibration %s run %d", m.Nonce, k)
}

// drop removes the mark of a calibration that was written; nil does
// nothing.
func (m *resumeMark) drop() error {
	if m == nil {
		return nil
	}
	if err := os.Remove(m.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return m.store.DropCalibration(m.Nonce)
}

// RecordedJudge is the judge a calibration record names, resolved from
// the record's directory dir: its ref (a name, or a path) and its
// configuration.
func RecordedJudge(rec *calibrate.Record, dir string) (string, judge.Config) {
	cfg := judge.Config{Model: rec.JudgeConfig.Model, Options: map[string]string{}}
	for k, v := range rec.JudgeConfig.Options {
		cfg.Options[k] = v
	}
	if ans, ok := cfg.Options["answers"]; ok {
		cfg.Options["answers"] = FromRecord(dir, ans)
	}
	return judgeRefFrom(rec.JudgeConfig.Ref, dir), cfg
}

// RecordedRubric is the rubric a calibration record names, resolved
// from the record's directory dir: a built-in's "builtin:FILE" as it is,
// a path from dir.
func RecordedRubric(rec *calibrate.Record, dir string) string {
	if strings.HasPrefix(rec.Rubric.Ref, "builtin:") {
		return rec.Rubric.Ref
	}
	return FromRecord(dir, rec.Rubric.Ref)
}

// CalibrationNow describes r and the capture a record names (read from
// the record's directory dir) as Record.Compare takes them. The judge,
// which the caller starts as the record names it, is left for it to add.
func CalibrationNow(rec *calibrate.Record, dir string, r *rubric.Rubric) (calibrate.Current, error) {
	path := FromRecord(dir, rec.Capture.Path)
	c, err := calibrate.ReadCapture(path)
	if errors.Is(err, fs.ErrNotExist) {
		return calibrate.Current{}, fmt.Errorf("the record was made from the registry capture %s, which is not there (the record names it from its own directory, %s): put the capture back, or calibrate again", path, dir)
	}
	if err != nil {
		return calibrate.Current{}, err
	}
	return calibrate.Current{
		RubricName: r.Name, RubricVersion: r.Version, RubricDigest: r.Digest,
		SurfaceHash: c.Surface.Hash(), ToolCount: len(c.Surface.Tools), Capture: c,
	}, nil
}

// CheckCalibration works out what the record at path now is, for
// calibrate.Record.Check: its scored set and the rubric r as they are now
// and, when the record names a judge, that judge's identity as start
// (given the recorded reference and configuration) starts it. Nothing is
// scored and the judge is asked nothing.
func CheckCalibration(ctx context.Context, rec *calibrate.Record, path string, r *rubric.Rubric, start func(ref string, cfg judge.Config) (*Session, func(), error)) (calibrate.Current, error) {
	dir := filepath.Dir(path)
	cur, err := CalibrationNow(rec, dir, r)
	if err != nil || rec.JudgeConfig.Ref == "" {
		return cur, err
	}
	sess, done, err := start(RecordedJudge(rec, dir))
	if err != nil {
		return cur, err
	}
	defer done()
	if cur.Judge, err = sess.JudgeBlock(ctx, r); err != nil {
		return cur, fmt.Errorf("start the recorded judge %q: %w", rec.JudgeConfig.Ref, err)
	}
	return cur, nil
}

// CalibrationOutputs are the files a calibration of c by judges judges
// (one or two) writes under c.Out, each named as --out's, for
// CheckOutputs to hold them apart from the calibration's inputs: the
// record, the summary, the plots and each run's answers and report,
// under judge-1 and judge-2 with the two judges' agreement beside them
// when there are two.
func CalibrationOutputs(c Calibration, judges int) []Flagged {
	one := func(dir string) []Flagged {
		var out []Flagged
		for _, name := range []string{RecordFile, MarkdownFile, PlotPNG, PlotSVG} {
			out = append(out, Flagged{Flag: "--out", Path: filepath.Join(dir, name)})
		}
		for i := 1; i <= c.Runs; i++ {
			out = append(out, Flagged{Flag: "--out", Path: filepath.Join(dir, answersFile(i))}, Flagged{Flag: "--out", Path: filepath.Join(dir, reportFile(i))})
		}
		return out
	}
	if judges < 2 {
		return one(c.Out)
	}
	out := append(one(filepath.Join(c.Out, pairEntries[0])), one(filepath.Join(c.Out, pairEntries[1]))...)
	return append(out, Flagged{Flag: "--out", Path: filepath.Join(c.Out, BetweenMarkdown)}, Flagged{Flag: "--out", Path: filepath.Join(c.Out, BetweenJSON)})
}

func answersFile(run int) string { return fmt.Sprintf("answers-run-%d.jsonl", run) }
func reportFile(run int) string  { return fmt.Sprintf("report-run-%d.json", run) }

// writeCalibration writes the record, the plot and the Markdown summary.
func writeCalibration(dir string, rec *calibrate.Record) error {
	if err := calibrate.WriteFile(filepath.Join(dir, RecordFile), rec); err != nil {
		return fmt.Errorf("write %s: %w", RecordFile, err)
	}
	chart := plot.Of(rec)
	plotted := ""
	if len(chart.Points) > 0 {
		for _, f := range []struct{ name, format string }{{PlotPNG, "png"}, {PlotSVG, "svg"}} {
			b, err := plot.Render(chart, f.format)
			if err != nil {
				return fmt.Errorf("plot: %w", err)
			}
			if err := atomicfile.WriteFile(filepath.Join(dir, f.name), b); err != nil {
				return fmt.Errorf("write %s: %w", f.name, err)
			}
		}
		plotted = PlotPNG
	}
	return atomicfile.Write(filepath.Join(dir, MarkdownFile), func(w io.Writer) error {
		return calibrate.WriteMarkdown(w, rec, plotted)
	})
}

// isPath says whether a judge ref names a binary by its path rather
// than a plugin by its name, as the plugin catalog tells them apart.
func isPath(ref string) bool {
	return strings.ContainsRune(ref, '/') || strings.ContainsRune(ref, filepath.Separator)
}

// judgeRefFor is the judge's ref as the record keeps it: a name as it is,
// a path relative to the record's directory (with a "./" so that it still
// reads as a path).
func judgeRefFor(ref, dir string) string {
	if !isPath(ref) {
		return ref
	}
	rel := relativeTo(dir, ref)
	if !strings.Contains(rel, "/") {
		rel = "./" + rel
	}
	return rel
}

// judgeRefFrom resolves a recorded judge ref: a path from the record's
// directory, a name as it is.
func judgeRefFrom(ref, dir string) string {
	if !isPath(ref) {
		return ref
	}
	return FromRecord(dir, ref)
}

// rubricRef is what finds the rubric again from the record: a built-in's
// "builtin:FILE", or its path relative to the record's directory.
func rubricRef(r *rubric.Rubric, dir string) string {
	if strings.HasPrefix(r.File, "builtin:") {
		return r.File
	}
	return relativeTo(dir, r.File)
}

// relativeTo writes path relative to dir, with forward slashes, so that a
// record can be moved with its directory and checked from anywhere.
func relativeTo(dir, path string) string {
	absDir, err1 := filepath.Abs(dir)
	absPath, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(absDir, absPath)
	if err != nil {
		return filepath.ToSlash(absPath)
	}
	return filepath.ToSlash(rel)
}

// FromRecord resolves a path the record wrote relative to its directory.
func FromRecord(dir, path string) string { return fromDir(dir, filepath.FromSlash(path)) }

// stage is a directory beside --out that a calibration is written into
// before it replaces the calibration files in --out.
type stage struct {
	dir, out string
	done     bool
}

func newStage(out string) (*stage, error) {
	out = filepath.Clean(out)
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("--out %s: %w", out, err)
	}
	dir, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".calibrating-")
	if err != nil {
		return nil, fmt.Errorf("--out %s: %w", out, err)
	}
	return &stage{dir: dir, out: out}, nil
}

// staleFiles are the patterns of what calibrate writes into --out: an
// earlier calibration's files, removed before the new ones move in.
var staleFiles = []string{MarkdownFile, PlotPNG, PlotSVG, "answers-run-*.jsonl", "report-run-*.json"}

// commit moves the calibration into --out: first the old record goes (so
// that, should this stop half way, no record is left to be checked beside
// files of another run), then the old run files, then the new files, the
// record last.
func (s *stage) commit() error {
	if err := os.MkdirAll(s.out, 0o755); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(s.out, RecordFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("replace %s: %w", filepath.Join(s.out, RecordFile), err)
	}
	for _, pattern := range staleFiles {
		old, _ := filepath.Glob(filepath.Join(s.out, pattern))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return fmt.Errorf("remove the earlier calibration's %s: %w", f, err)
			}
		}
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == RecordFile {
			continue
		}
		if err := os.Rename(filepath.Join(s.dir, e.Name()), filepath.Join(s.out, e.Name())); err != nil {
			return err
		}
	}
	if err := os.Rename(filepath.Join(s.dir, RecordFile), filepath.Join(s.out, RecordFile)); err != nil {
		return err
	}
	s.done = true
	return os.Remove(s.dir)
}

// commitPair moves a calibration of two judges into --out: into its
// place when --out does not exist, else entry by entry (pairEntries),
// the earlier pair's set aside until the new one is in and put back
// should a move fail, so that --out holds one pair or the other.
func (s *stage) commitPair() error {
	if _, err := os.Lstat(s.out); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(s.dir, s.out); err != nil {
			return fmt.Errorf("move the calibration into %s: %w", s.out, err)
		}
		s.done = true
		return nil
	}
	old, err := os.MkdirTemp(filepath.Dir(s.out), "."+filepath.Base(s.out)+".replaced-")
	if err != nil {
		return fmt.Errorf("--out %s: %w", s.out, err)
	}
	var setAside, movedIn []string
	undo := func(err error) error {
		for _, name := range movedIn {
			os.RemoveAll(filepath.Join(s.out, name))
		}
		for _, name := range setAside {
			os.Rename(filepath.Join(old, name), filepath.Join(s.out, name))
		}
		os.Remove(old)
		return fmt.Errorf("move the calibration into %s: %w; it is left as it was", s.out, err)
	}
	// The earlier agreement goes first, so that no judges.json is left
	// to be checked beside records of another run.
	for _, name := range slices.Backward(pairEntries) {
		err := os.Rename(filepath.Join(s.out, name), filepath.Join(old, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return undo(err)
		}
		setAside = append(setAside, name)
	}
	for _, name := range pairEntries {
		if err := os.Rename(filepath.Join(s.dir, name), filepath.Join(s.out, name)); err != nil {
			return undo(err)
		}
		movedIn = append(movedIn, name)
	}
	s.done = true
	os.RemoveAll(old)
	return os.Remove(s.dir)
}

// discard removes the stage unless it was committed.
func (s *stage) discard() {
	if !s.done {
		os.RemoveAll(s.dir)
	}
}
